"""The Match aggregate: one event stream per match, on eventsourcing.

Events are facts in the past tense with explicit, versioned topics (``kiroku:...``), so renaming a
class never breaks stored matches. Every event carries who recorded it, when (server clock, UTC ISO
8601), ``prev_hash`` and ``hash`` (see ledger.chain). The aggregate keeps the current game state and
the live line of actions; undo appends ``ActionsUndone`` and nothing is ever rewritten.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from engine.core.chance import Outcome, ReplayChance
from engine.core.contract import GameState, MatchConfig
from engine.registry import get_game

# (event version, seq, seat, action data, chance outcomes) of one live action
LiveAction = tuple[int, int, int, dict[str, Any], list[Outcome]]


def project(config: dict[str, Any], game: str, setup_outcomes: list[Outcome],
            actions: list[LiveAction]) -> GameState:
    """Rebuild a position from setup and a list of live actions, using only stored outcomes."""
    ruleset = get_game(game)
    chance = ReplayChance(setup_outcomes)
    state = ruleset.setup(MatchConfig.model_validate(config), chance)
    chance.finish()
    for _, _, _, action, outcomes in actions:
        chance = ReplayChance(outcomes)
        state = ruleset.apply(state, action, chance)
        chance.finish()
    return state


class Match(Aggregate):
    """A recorded match."""

    TOPIC = "kiroku:Match"

    class Created(Aggregate.Created):
        """MatchCreated: the game, ruleset version, players, decks, options and seed commitment."""

        TOPIC = "kiroku:MatchCreated/1"
        game: str
        ruleset_version: str
        config: dict[str, Any]
        replay_policy: str
        commitment: str
        setup_outcomes: list[Outcome]
        chance_source: str
        digest: str
        recorded_by: str
        recorded_at: str
        prev_hash: str
        hash: str

    class ActionRecorded(Aggregate.Event):
        """One game action, its chance outcomes and the digest of the state it produced."""

        TOPIC = "kiroku:ActionRecorded/1"
        seq: int
        seat: int
        action: dict[str, Any]
        outcomes: list[Outcome]
        chance_source: str
        digest: str
        recorded_by: str
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Advance the position by this action."""
            aggregate._on_action(self)

    class ActionsUndone(Aggregate.Event):
        """The last ``count`` live actions are void from now on; the log keeps them."""

        TOPIC = "kiroku:ActionsUndone/1"
        count: int
        seqs: list[int]
        reason: str
        digest: str
        recorded_by: str
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Rewind the position."""
            aggregate._on_undo(self)

    class Ended(Aggregate.Event):
        """MatchEnded: the result the rules produced."""

        TOPIC = "kiroku:MatchEnded/1"
        winners: list[int]
        losers: list[int]
        reason: str
        drawn: bool
        detail: str
        recorded_by: str
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Mark the match over."""
            aggregate.result = {"winners": list(self.winners), "losers": list(self.losers),
                                "reason": self.reason, "drawn": self.drawn,
                                "detail": self.detail}
            aggregate.head_hash = self.hash

    class SeedRevealed(Aggregate.Event):
        """The secret seed, published once the match is over."""

        TOPIC = "kiroku:SeedRevealed/1"
        seed: str
        recorded_by: str
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Remember the revealed seed."""
            aggregate.seed = self.seed
            aggregate.head_hash = self.hash

    def __init__(self, game: str, ruleset_version: str, config: dict[str, Any],
                 replay_policy: str, commitment: str, setup_outcomes: list[Outcome],
                 chance_source: str, digest: str, recorded_by: str, recorded_at: str,
                 prev_hash: str, hash: str) -> None:
        self.game = game
        self.ruleset_version = ruleset_version
        self.config = config
        self.replay_policy = replay_policy
        self.commitment = commitment
        self.setup_outcomes = setup_outcomes
        self.created_by = recorded_by
        self.created_at = recorded_at
        self.head_hash = hash
        self.live: list[LiveAction] = []
        self.next_seq = 1
        self.result: dict[str, Any] | None = None
        self.seed: str | None = None
        self.state: GameState = project(config, game, setup_outcomes, [])

    # The aggregate cache hands out copies. Game states are never changed in place (the engine
    # returns new ones) and live entries are never changed, so copying the containers suffices;
    # a full deepcopy would cost O(match length) on every command.
    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        clone = object.__new__(type(self))
        clone.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                               for k, v in self.__dict__.items()})
        return clone

    @property
    def ended(self) -> bool:
        """Whether the match is over."""
        return self.result is not None

    @property
    def players(self) -> list[str]:
        """Player names by seat."""
        return list(self.config["players"])

    def position_version(self, position: int) -> int:
        """The event version at which live position ``position`` (0 = after setup) was reached."""
        return 1 if position == 0 else self.live[position - 1][0]

    def _on_action(self, event: Match.ActionRecorded) -> None:
        staged = self.__dict__.pop("_staged", None)
        if staged is None:
            chance = ReplayChance(event.outcomes)
            staged = get_game(self.game).apply(self.state, event.action, chance)
            chance.finish()
        self.state = staged
        self.live.append((event.originator_version, event.seq, event.seat, event.action,
                          event.outcomes))
        self.next_seq = event.seq + 1
        self.head_hash = event.hash

    def _on_undo(self, event: Match.ActionsUndone) -> None:
        self.live = self.live[:-event.count]
        staged = self.__dict__.pop("_staged", None)
        self.state = staged if staged is not None else project(
            self.config, self.game, self.setup_outcomes, self.live)
        self.head_hash = event.hash

    def stage(self, state: GameState) -> None:
        """Hand the next event the state the recorder already computed (saves re-applying it)."""
        self.__dict__["_staged"] = state


MATCH_TOPICS = {"created": Match.Created.TOPIC, "action": Match.ActionRecorded.TOPIC,
                "undone": Match.ActionsUndone.TOPIC, "ended": Match.Ended.TOPIC,
                "seed": Match.SeedRevealed.TOPIC}
EVENT_NAMES: dict[type[Any], str] = {
    Match.Created: "MatchCreated", Match.ActionRecorded: "ActionRecorded",
               Match.ActionsUndone: "ActionsUndone", Match.Ended: "MatchEnded",
               Match.SeedRevealed: "SeedRevealed"}


class MatchSecret(Aggregate):
    """The match's seed, kept in its own stream and never served while the match is on."""

    TOPIC = "kiroku:MatchSecret"

    class Created(Aggregate.Created):
        """SeedSealed."""

        TOPIC = "kiroku:SeedSealed/1"
        match_id: UUID
        seed: str

    def __init__(self, match_id: UUID, seed: str) -> None:
        self.match_id = match_id
        self.seed = seed
