"""World Gainer's reason codes: each with the section of the rules page that lists it and what it
means (docs/games/worldgainer.md's tables are generated from here)."""

from __future__ import annotations

from engine.core.reasons import ADJUSTMENTS, ANY_ACTION, MATCH_CREATION, Reason

CHANCE = "Chance outcomes entered at a table"
STUNS = "Stuns"
GAIN = "Gain"


class WorldGainerReason(Reason):
    """Every code World Gainer raises, and the kernel's codes it says more about."""

    PLAYER_COUNT = "player_count", MATCH_CREATION, "World Gainer is for exactly 2 players."
    BAD_CARD = ("bad_card", MATCH_CREATION,
                "A card definition breaks the card model (see [Card data](#card-data)).")
    DECK_TOO_SMALL = "deck_too_small", MATCH_CREATION, "C5: fewer than 40 cards."
    TOO_MANY_COPIES = "too_many_copies", MATCH_CREATION, "C5: more than 3 cards of one name."
    UNIQUE_CARD = ("unique_card", MATCH_CREATION,
                   "C5: a unique card more than once, counted by name.")
    DECK_SIZES_DIFFER = "deck_sizes_differ", MATCH_CREATION, "C5: the decks differ in size."

    MALFORMED_ACTION = ("malformed_action", ANY_ACTION,
                        "Not a World Gainer action: an unknown type, a missing or extra field, "
                        "a bad slot number, or an adjustment with no reason or with zero or two "
                        "changes.")
    ELIMINATED = ("eliminated", ANY_ACTION,
                  "The seat has been eliminated. This cannot happen in a 2-player match, which "
                  "ends instead.")
    NOT_YOUR_TURN = ("not_your_turn", ANY_ACTION,
                     "`stun`, `gain` and `end_turn` belong to the active seat.")

    OUTCOME_MISSING = ("outcome_missing", CHANCE,
                       "A supplied outcome was needed (for example the card drawn) but was not "
                       "given.")
    OUTCOME_IMPOSSIBLE = ("outcome_impossible", CHANCE,
                          "The supplied outcome is impossible, for example a card not in the "
                          "deck.")
    OUTCOME_UNUSED = ("outcome_unused", CHANCE,
                      "More outcomes were supplied than the action used.")
    OUTCOME_NOT_YOURS = ("outcome_not_yours", CHANCE,
                         "The outcome is one only a judge enters (a card the entering seat may "
                         "not see): a judge records the action.")

    STUN_ALREADY_PLACED = "stun_already_placed", STUNS, "A stun was already placed this turn."
    STANDBY_PHASE_OVER = ("standby_phase_over", STUNS,
                          "A card was already placed on the field this turn, so the stand-by "
                          "phase is over.")
    CARD_NOT_IN_HAND = ("card_not_in_hand", STUNS,
                        "The card is not in the seat's hand. This code is also used for `gain`.")
    SLOT_TAKEN = ("slot_taken", STUNS,
                  "The stun slot is occupied. This code is also used for adjustments.")
    STANDBY_FULL = "standby_full", STUNS, "All five stun slots are occupied."

    GAIN_ALREADY_PLACED = ("gain_already_placed", GAIN,
                           "A card was already placed on the field this turn.")
    NO_SUCH_FIELD = ("no_such_field", GAIN,
                     "The square id is not one of M1-1..M1-3, B-1..B-3, M2-1..M2-3.")
    NO_STUN = "no_stun", GAIN, "The payment names an empty stun slot."
    STUN_USED_TWICE = "stun_used_twice", GAIN, "The payment names the same stun slot twice."
    STUN_EXHAUSTED = "stun_exhausted", GAIN, "The payment names an exhausted stun."
    NO_OWN_FIELD_CARD = ("no_own_field_card", GAIN,
                         "`discard_field_card` names a square the seat does not hold, or that "
                         "does not exist.")
    COST_NOT_PAID = "cost_not_paid", GAIN, "The payment's total is below the card's cost."
    REQUIRED_COLOUR_NOT_PAID = ("required_colour_not_paid", GAIN,
                                "The required colour amount is not covered (W2).")
    PRIORITY = ("priority", GAIN,
                "A square of a later tier, while one of an earlier tier is not held (W3).")
    STACK_COLOUR_LOSES = ("stack_colour_loses", GAIN,
                          "Your square: the card loses the colour duel with the top card.")
    STACK_COST_TOO_LOW = ("stack_cost_too_low", GAIN,
                          "Your square, same colour: the cost is not above the top card's, or "
                          "the total's under `stack_compare: total`.")
    CAPTURE_COLOUR_LOSES = ("capture_colour_loses", GAIN,
                            "The opponent's square: the card loses the colour duel.")
    CAPTURE_COST_TOO_LOW = ("capture_cost_too_low", GAIN,
                            "The opponent's square. Against a single card: same colour and a "
                            "lower cost. Against a stack: a winning colour whose cost is not "
                            "above the top card.")
    CAPTURE_SAME_COLOUR_STACK = ("capture_same_colour_stack", GAIN,
                                 "The opponent's stack, with a card of the same colour.")

    BAD_ZONE = ("bad_zone", ADJUSTMENTS,
                "An unknown zone, unknown square or bad stun slot.")
    BAD_PHASE = ("bad_phase", ADJUSTMENTS,
                 "A judge's turn change names a phase World Gainer does not have.")
    CARD_NOT_IN_ZONE = ("card_not_in_zone", ADJUSTMENTS,
                        "The card is not in that zone of that seat.")
    SQUARE_HELD = "square_held", ADJUSTMENTS, "A move onto a square the opponent holds."
    BAD_COUNTER = ("bad_counter", ADJUSTMENTS,
                   "An unknown counter, a `stun_ready` of an empty slot, or a value other than "
                   "0 or 1.")
