"""The shell: Blind Bid's declarations, and dispatch to its sections."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.chance import Chance, Outcome
from engine.core.contract import Action, Adjust, MatchConfig, Options, Ruleset
from engine.core.effects import Effect
from engine.core.viewer import Viewer
from tests.toygame.actions import ACTIONS, OUTCOME_KINDS, SETUP_CONSUMES, Bid
from tests.toygame.legal import legal_actions
from tests.toygame.model import ZONES, BlindBidState, Card
from tests.toygame.reasons import BlindBidReason
from tests.toygame.round import bid, cancel_round, still_to_bid
from tests.toygame.scoring import check_end, points
from tests.toygame.setup import check_decks, initial_state
from tests.toygame.views import describe, view


class BlindBid(Ruleset[BlindBidState]):
    """Blind Bid: 2-4 players bid numbered cards face down; the single highest bid takes the
    round's cards, whose values are the points."""

    game_id = "blindbid"
    title = "Blind Bid"
    version = "1.0"
    min_players = 2
    max_players = 4
    state_class = BlindBidState
    card_model = Card
    options_model = Options
    actions = ACTIONS
    zones = ZONES
    reasons = BlindBidReason
    outcome_kinds = OUTCOME_KINDS
    setup_consumes = SETUP_CONSUMES

    def check_decks(self, decks: Sequence[Any], cards: Any) -> None:
        """C5 (see tests.toygame.setup.check_decks)."""
        check_decks(decks, cards)

    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> BlindBidState:
        return initial_state(config, options, cards, chance)

    def _apply(self, state: BlindBidState, action: Action, chance: Chance) -> None:
        assert isinstance(action, Bid)  # the only game action
        bid(state, action, chance)

    def _adjusted(self, state: BlindBidState, action: Adjust) -> None:
        check_end(state)

    def _on_eliminated(self, state: BlindBidState, seat: int, chance: Chance) -> None:
        cancel_round(state)

    def to_act(self, state: BlindBidState) -> list[int]:
        """Every seat that has still to bid this round."""
        return still_to_bid(state)

    def scores(self, state: BlindBidState) -> dict[int, int] | None:
        """Points: the values of each seat's won cards."""
        return {seat: points(state, seat) for seat in state.seats()}

    def _legal_actions(self, state: BlindBidState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def _view(self, state: BlindBidState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer, self.sees)

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: BlindBidState | None = None, effects: Sequence[Effect] = ()) -> str:
        assert isinstance(action, Bid)
        return describe(action, outcomes, viewer, before, effects, self.sees)
