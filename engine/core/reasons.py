"""Reason codes: every refusal's stable, machine-readable code, declared once with its meaning.

A game's codes are a registry, a ``Reason`` subclass (a string enum) whose members read
``SLOT_TAKEN = "slot_taken", "Stuns", "The stun slot is occupied."``: the code (the member's
value, what an error carries and a JSON error body shows), the heading of the rules page's
section it is listed under, and a sentence a player understands. ``KernelReason`` holds the
codes the shared kernel raises (and the card-set and deck reader's), which every game can
meet; a game may declare one of them again to say what it means in that game, its sentence and
section then standing in for the kernel's. ``reason_table`` renders a game's codes as the
rules page's "Reason codes" tables, which are generated, never written by hand (``kiroku
reasons GAME --markdown``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

MATCH_CREATION = "Match creation"
ANY_ACTION = "Any action"
ADJUSTMENTS = "Adjustments"

GENERATED_END = "<!-- end generated -->"


class Reason(StrEnum):
    """A registry of reason codes: each member is a code with its section and its meaning."""

    section: str
    meaning: str

    def __new__(cls, code: str, section: str, meaning: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.section = section
        member.meaning = meaning
        return member


class KernelReason(Reason):
    """The codes the shared kernel raises for every game, and those of the card-set and deck
    reader (``ledger.catalog``), with the meaning they have in any game."""

    PLAYER_COUNT = ("player_count", MATCH_CREATION,
                    "The number of players is not one the game is played by.")
    DECK_COUNT = ("deck_count", MATCH_CREATION,
                  "The number of decks differs from the number of players.")
    BAD_OPTION = "bad_option", MATCH_CREATION, "An unknown regulation option, or a bad value."
    BAD_CARD = "bad_card", MATCH_CREATION, "A card definition breaks the card model."
    UNKNOWN_CARD = ("unknown_card", MATCH_CREATION,
                    "A deck names a card id not in the card set (checked even with "
                    "`deck_check: off`).")
    BAD_DECK = "bad_deck", MATCH_CREATION, "A deck count below 1 (always checked)."
    DECK_TOO_LARGE = "deck_too_large", MATCH_CREATION, "A deck above 500 cards (always checked)."
    BAD_FILE = ("bad_file", MATCH_CREATION,
                "A card-set or deck file is wrong: not JSON, not of its format, a card id "
                "twice or no cards in a set, a count other than a whole number of 1 or more "
                "in a deck.")
    FILE_NOT_FOUND = ("file_not_found", MATCH_CREATION,
                      "A card-set or deck file that does not exist.")
    UNKNOWN_DECK = ("unknown_deck", MATCH_CREATION,
                    "No sample deck or deck file of that name for the game.")
    UNKNOWN_GAME = ("unknown_game", MATCH_CREATION,
                    "The game id is not one Kiroku knows (the command line and service).")

    MALFORMED_ACTION = ("malformed_action", ANY_ACTION,
                        "Not an action of the game: an unknown type, a missing or extra field, "
                        "a bad value, an adjustment without a reason or with other than one "
                        "change.")
    MATCH_OVER = "match_over", ANY_ACTION, "The match already has a result."
    NO_SUCH_SEAT = "no_such_seat", ANY_ACTION, "The seat is not in the match."
    ELIMINATED = "eliminated", ANY_ACTION, "The seat has been eliminated."
    CARD_NOT_SEEN = ("card_not_seen", ANY_ACTION,
                     "The action names a card its sender cannot see (one hidden from it, or "
                     "none at all): whatever the rules would have said, the refusal is this "
                     "one, so that trying card ids tells nothing.")
    BAD_VIEWER = ("bad_viewer", ANY_ACTION,
                  "An unknown viewer (write judge, spectator or a seat like `seat:1`), or a "
                  "seat the match does not have.")
    OUTCOME_MISSING = ("outcome_missing", ANY_ACTION,
                       "An outcome entered at a physical table was needed (the card drawn, "
                       "say) but was not given.")
    OUTCOME_IMPOSSIBLE = ("outcome_impossible", ANY_ACTION,
                          "An outcome entered at a physical table cannot be (a card not in "
                          "that deck, say).")
    OUTCOME_UNUSED = ("outcome_unused", ANY_ACTION,
                      "More outcomes were entered at a physical table than the action used.")
    OUTCOME_NOT_YOURS = ("outcome_not_yours", ANY_ACTION,
                         "An outcome that only a judge enters (one the entering seat may not "
                         "see): a judge records the action.")

    BAD_ZONE = ("bad_zone", ADJUSTMENTS,
                "An unknown zone, a place the zone does not have, or a zone cards do not "
                "leave or enter by adjustment.")
    CARD_NOT_IN_ZONE = ("card_not_in_zone", ADJUSTMENTS,
                        "The card is not in that zone of that seat, or a modifier names a card "
                        "not in play with that stat.")
    BAD_COUNTER = ("bad_counter", ADJUSTMENTS,
                   "An unknown counter, one that has no value now, or a value out of its "
                   "bounds.")
    BAD_STAT = "bad_stat", ADJUSTMENTS, "A modifier of a stat the game does not have."
    BAD_PHASE = "bad_phase", ADJUSTMENTS, "A turn change to a phase the game does not have."


def reasons_met(game: type[Reason]) -> list[Reason]:
    """Every code a game's players can meet, once each: the game's own members in declaration
    order, then each kernel code the game does not declare again."""
    own = list(game)
    declared = {member.value for member in own}
    return own + [member for member in KernelReason if member.value not in declared]


def by_section(reasons: list[Reason]) -> dict[str, list[Reason]]:
    """``reasons`` grouped by section, the sections in the order they first appear."""
    sections: dict[str, list[Reason]] = {}
    for reason in reasons:
        sections.setdefault(reason.section, []).append(reason)
    return sections


def reason_table(game: type[Reason]) -> str:
    """The rules page's reason-code tables of a game as markdown: a ``### section`` heading
    and a ``| code | meaning |`` table for each section, kernel codes included."""
    lines: list[str] = []
    for section, reasons in by_section(reasons_met(game)).items():
        lines += [f"### {section}", "", "| code | meaning |", "|---|---|"]
        lines += [f"| `{r.value}` | {r.meaning.replace('|', chr(92) + '|')} |" for r in reasons]
        lines.append("")
    return "\n".join(lines)


def generated_by(game_id: str) -> str:
    """The comment that opens a rules page's generated tables, naming the command that makes
    them."""
    return f"<!-- generated by: kiroku reasons {game_id} --markdown -->"


def generated_table(page: str, game_id: str) -> str | None:
    """The generated tables of a rules page as the page holds them, between ``generated_by``
    and ``GENERATED_END`` (each with a blank line between it and the tables); None if the page
    has no such block."""
    span = _generated_span(page, game_id)
    if span is None:
        return None
    return page[span[0]:span[1]].removeprefix("\n\n").removesuffix("\n")


def with_generated_table(page: str, game_id: str, table: str) -> str | None:
    """``page`` with its generated tables replaced by ``table``; None if it has no block."""
    span = _generated_span(page, game_id)
    if span is None:
        return None
    return f"{page[:span[0]]}\n\n{table}\n{page[span[1]:]}"


def _generated_span(page: str, game_id: str) -> tuple[int, int] | None:
    """Where a rules page's generated tables lie: from the end of the opening comment to the
    start of the closing one."""
    opening = generated_by(game_id)
    start = page.find(opening)
    end = page.find(GENERATED_END, start)
    if start < 0 or end < 0:
        return None
    return start + len(opening), end
