"""Refusals a judge at a table reads (issue 17): one sentence naming what is wrong and what
is allowed, with the stable reason codes of before."""

from __future__ import annotations

import random

import pytest

from engine.core.chance import ChanceError, ReplayChance, SuppliedChance
from engine.core.contract import MatchConfig
from engine.core.errors import IllegalAction, SetupError
from engine.core.viewer import JUDGE
from engine.registry import get_game
from tests.support import RandomChance, sample_config

WG = get_game("worldgainer")


def _dealt(config: MatchConfig) -> list[str]:
    """The setup outcomes of one deal, as a table would enter them."""
    chance = RandomChance(random.Random(5))
    WG.setup(config, chance)
    return [o.value for o in chance.outcomes]


def test_an_unknown_option_is_named_with_the_options_there_are() -> None:
    with pytest.raises(SetupError) as refused:
        WG.parse_options({"firstplayer": 1})
    assert refused.value.reason == "bad_option"
    assert refused.value.message == (
        "Unknown regulation option 'firstplayer' for World Gainer; the options are: "
        "first_player, victory_points, stack_compare, turn_limit, deck_check, decklists, "
        "spectators, spectator_delay.")


@pytest.mark.parametrize(("options", "message"), [
    ({"first_player": 3}, "Regulation option 'first_player' must be 1 or 2, not 3."),
    ({"deck_check": "maybe"}, "Regulation option 'deck_check' must be 'on' or 'off', not 'maybe'."),
    ({"turn_limit": 0},
     "Regulation option 'turn_limit' must be a whole number from 1 to 10000, not 0."),
    ({"victory_points": "many"},
     "Regulation option 'victory_points' must be a whole number from 1 to 1000, not 'many'."),
])
def test_a_bad_option_value_says_what_is_allowed(options: dict[str, object],
                                                  message: str) -> None:
    with pytest.raises(SetupError) as refused:
        WG.parse_options(options)
    assert refused.value.reason == "bad_option"
    assert refused.value.message == message


def test_a_card_not_in_the_deck_is_named_with_where_it_would_come_from() -> None:
    config = sample_config(WG, 2, {"first_player": 1})
    deck = sorted(config.decks[0])
    absent = next(c for c in sorted(config.cards) if c not in config.decks[0])
    with pytest.raises(IllegalAction) as refused:  # a judge sees the deck: its cards are named
        WG.setup(config, SuppliedChance([absent], entered_by=JUDGE))
    assert refused.value.reason == "outcome_impossible"
    count = sum(config.decks[0].values())
    assert refused.value.message == (
        f"{absent} (outcome 1) is not in seat 1's deck: a draw there can be one of "
        f"{', '.join(deck[:10])}, ... ({count} cards, {len(deck)} different).")
    with pytest.raises(IllegalAction) as refused:  # anyone else is not told what it holds
        WG.setup(config, SuppliedChance([absent]))
    assert refused.value.message == (f"{absent} (outcome 1) is not in seat 1's deck, so it "
                                     "cannot be the card seat 1 draws (draw).")
    with pytest.raises(ChanceError) as replayed:  # a stored record that does not fit
        WG.setup(config, ReplayChance([{"kind": "draw", "value": absent, "seat": 1}]))
    assert str(replayed.value) == (f"{absent} (recorded outcome 1) is not in seat 1's deck, "
                                   "so it cannot be the card seat 1 draws (draw)")


def test_a_seat_that_cannot_be_chosen_lists_the_seats() -> None:
    config = sample_config(WG, 2)
    dealt = _dealt(config)
    with pytest.raises(IllegalAction) as refused:
        WG.setup(config, SuppliedChance([*dealt[:-1], 3]))
    assert refused.value.reason == "outcome_impossible"
    assert refused.value.message == (f"3 (outcome {len(dealt)}) is not a seat that can be "
                                     "chosen here: the seat chosen (first_player) can be 1 or 2.")


def test_too_few_setup_outcomes_say_which_is_missing_and_how_many_are_needed() -> None:
    config = sample_config(WG, 2, {"first_player": 1})
    dealt = _dealt(config)
    assert len(dealt) == 14
    with pytest.raises(IllegalAction) as refused:
        WG.setup(config, SuppliedChance(dealt[:1]))
    assert refused.value.reason == "outcome_missing"
    assert refused.value.message == (
        "Setup needs more chance outcomes than were given: outcome 2, the card seat 1 draws "
        "(draw), is missing; 1 was given and 14 are needed.")
    with pytest.raises(IllegalAction) as refused:
        WG.setup(config, SuppliedChance([]))
    assert refused.value.message.endswith("is missing; none was given and 14 are needed.")
    with pytest.raises(IllegalAction) as refused:
        WG.setup(config, SuppliedChance(dealt[:3]))
    assert refused.value.message.endswith("is missing; 3 were given and 14 are needed.")


def test_a_player_range_reads_as_words() -> None:
    assert WG.players_text == "2 players"
    assert get_game("illuminati").players_text == "2 to 6 players"
    config = sample_config(WG, 2)
    one = config.model_copy(update={"players": ["Ann"], "decks": config.decks[:1]})
    with pytest.raises(SetupError) as refused:
        WG.setup(one, SuppliedChance([]))
    assert refused.value.reason == "player_count"
    assert refused.value.message == "World Gainer is played by 2 players, not 1."
