"""On the Edge's reason codes: each with the section of the rules page that lists it and what
it means (docs/games/edge.md's tables are generated from here)."""

from __future__ import annotations

from engine.core.reasons import ADJUSTMENTS, ANY_ACTION, MATCH_CREATION, Reason

TURN = "Turn and steps"
PLACING = "Placing, paying and the conspiracy"
ATTACKS = "Attacks"
CLAIMS = "Claims"


class EdgeReason(Reason):
    """Every code On the Edge raises, and the kernel's codes it says more about."""

    PLAYER_COUNT = "player_count", MATCH_CREATION, "On the Edge is for 2 to 8 players."
    BAD_OPTION = ("bad_option", MATCH_CREATION,
                  "An unknown regulation option (`beginners_discard` included), a bad value, or a "
                  "`first_player` above the number of players.")
    BAD_CARD = ("bad_card", MATCH_CREATION,
                "A card definition breaks the card model (a whammy with a cost, another card "
                "without one, pull on a card other than a character or resource, a value out of "
                "range).")
    DECK_UNDER_MINIMUM = "deck_under_minimum", MATCH_CREATION, "C5: a deck of fewer than 40 cards."

    MALFORMED_ACTION = ("malformed_action", ANY_ACTION,
                        "Not an On the Edge action: unknown type, missing or extra field, a value "
                        "out of range, a claim, ruling or adjustment without a reason, a combat "
                        "modifier's reason without a modifier.")
    ELIMINATED = "eliminated", ANY_ACTION, "The seat has been eliminated (3 or more players)."
    OUTCOME_MISSING = "outcome_missing", ANY_ACTION, "Too few outcomes entered at a physical table."
    OUTCOME_IMPOSSIBLE = ("outcome_impossible", ANY_ACTION,
                          "An outcome entered at a physical table that cannot be (a card not in "
                          "that deck).")
    OUTCOME_UNUSED = "outcome_unused", ANY_ACTION, "Too many outcomes entered at a physical table."

    NOT_YOUR_TURN = ("not_your_turn", TURN,
                     "A turn action, or `resolve_combat`, by a seat whose turn it is not.")
    DECISION_PENDING = ("decision_pending", TURN,
                        "A turn action while an attack waits for `resolve_combat` or a claim for "
                        "its answers or ruling.")
    WRONG_STEP = ("wrong_step", TURN,
                  "An action outside its step; a resource's `generate_pull` in the shift or "
                  "influence step (edge OQ11).")
    MALFORMED_DISCARD = "malformed_discard", TURN, "`discard_unplayable` names a card twice."
    NOT_IN_HAND = "not_in_hand", TURN, "The card is not in the seat's hand."
    DRAWN_THIS_TURN = ("drawn_this_turn", TURN,
                       "A card drawn this turn offered for the discard exchange [§ディスカード].")
    NOT_UNPLAYABLE = ("not_unplayable", TURN,
                      "A card offered for the discard exchange that uniqueness does not block "
                      "(edge OQ3, OQ6).")
    DECK_TOO_SMALL = ("deck_too_small", TURN,
                      "More cards offered for the exchange than the deck holds (edge OQ5).")

    WRONG_CARD_TYPE = ("wrong_card_type", PLACING,
                       "The card is not of the type the action plays (a character for "
                       "`place_character`; a resource, environment or secret for "
                       "`place_permanent`; gear or a condition for `attach`; a whammy for "
                       "`play_whammy`).")
    UNIQUE_CONFLICT = ("unique_conflict", PLACING,
                       "A character or environment of that name, or any secret, is already on the "
                       "seat's own field (flipped characters included, edge OQ6).")
    BAD_POSITION = ("bad_position", PLACING,
                    "The first character not at rank 1, file 1; a cell outside the frame 0..R+1 "
                    "by 0..F+1. This code is also used for adjustments: a character put into, or "
                    "moved within, a conspiracy against the placement or move rules (E6, edge "
                    "OQ14).")
    CELL_OCCUPIED = ("cell_occupied", PLACING,
                     "The cell holds a card (a flipped one too, E6, edge OQ15), or a move to the "
                     "character's own cell. This code is also used for adjustments: a character "
                     "put into, or moved within, a conspiracy against the placement or move rules "
                     "(E6, edge OQ14).")
    NOT_ADJACENT = ("not_adjacent", PLACING,
                    "The cell touches no card, diagonals included; a lone character moved. This "
                    "code is also used for adjustments: a character put into, or moved within, a "
                    "conspiracy against the placement or move rules (E6, edge OQ14).")
    TOO_MANY_RANKS = ("too_many_ranks", PLACING,
                      "The placement or move would make a fourth rank (E6). This code is also "
                      "used for adjustments: a character put into, or moved within, a conspiracy "
                      "against the placement or move rules (E6, edge OQ14).")
    PAYMENT_MISMATCH = ("payment_mismatch", PLACING,
                        "The payment does not add up to the printed cost (edge OQ12).")
    INSUFFICIENT_PULL = ("insufficient_pull", PLACING,
                         "The reserve lacks the character or other pull named (E7).")
    ZERO_COST_LIMIT = "zero_cost_limit", PLACING, "A second 0-cost card this turn (E8, edge OQ23)."
    COST_CONDITION = ("cost_condition", PLACING,
                      "A dotted cost whose traits no face-up card of the seat shows (edge OQ22).")
    BAD_HOST = ("bad_host", PLACING,
                "Gear on a card that is not one of the seat's own characters; a host not on any "
                "field; a shift of a card that is not gear on the seat's characters, or to a card "
                "that is not another of them. This code is also used for adjustments: gear "
                "attached to a card that is not a character in its owner's conspiracy (edge "
                "OQ17).")
    ALREADY_SHIFTED = "already_shifted", PLACING, "The gear has been shifted this turn [§シフト]."
    NOT_NOW = ("not_now", PLACING,
               "An ordinary whammy outside its owner's operations step (edge OQ21); a claim "
               "outside the own turn or with something pending.")
    NOT_IN_CONSPIRACY = ("not_in_conspiracy", PLACING,
                         "The character is not in the seat's conspiracy, or is flipped (edge "
                         "OQ29).")
    NOT_ACTIVE = "not_active", PLACING, "The character, resource or attacker is cranked."
    NO_VOLUNTARY_CRANK = ("no_voluntary_crank", PLACING,
                          "`crank_character` with `voluntary_crank: off`.")
    NO_SUCH_CARD = ("no_such_card", PLACING,
                    "A pull source, or a claimed card, that is not on the seat's own field.")
    NO_PULL = ("no_pull", PLACING,
               "The pull source has no pull: none printed and none given by a lasting modifier, "
               "or a modifier bringing it to 0 or less.")

    BAD_DEFENDER = ("bad_defender", ATTACKS,
                    "The defender is the attacker's own seat or not in play.")
    ALREADY_ATTACKED = "already_attacked", ATTACKS, "The defender has been attacked this turn (E4)."
    ATTACKER_BLOCKED = ("attacker_blocked", ATTACKS,
                        "An active character of the attacker's owner is in front of it in its "
                        "file (E5).")
    TARGET_NOT_IN_CONSPIRACY = ("target_not_in_conspiracy", ATTACKS,
                                "The target is not in the defender's conspiracy, or is flipped.")
    TARGET_BLOCKED = ("target_blocked", ATTACKS,
                      "An active character is in front of the target in its file, with no "
                      "`los_override` (E5, edge OQ20).")
    NO_COMBAT = "no_combat", ATTACKS, "`resolve_combat` with no attack declared."

    NO_CLAIM = ("no_claim", CLAIMS,
                "`accept_claim` or `dispute` by a seat the claim does not wait on (none pending, "
                "the claimant itself, already accepted, or already disputed by someone).")
    NO_DISPUTE = "no_dispute", CLAIMS, "`rule_claim` with no disputed claim of that seat."

    BAD_ZONE = ("bad_zone", ADJUSTMENTS,
                "An unknown zone; a place the zone does not have (the bare `conspiracy`, a cell "
                "that is not `RANK.FILE` or not occupied to leave, a `field:HOST` whose host is "
                "no card in play of that seat).")
    CARD_NOT_IN_ZONE = ("card_not_in_zone", ADJUSTMENTS,
                        "The card is not in the place named; a card of a type that place does not "
                        "take (a character onto `field`, a resource into a cell, anything but "
                        "gear or a condition onto a host); a modifier of a card not in play with "
                        "that stat.")
    BAD_COUNTER = ("bad_counter", ADJUSTMENTS,
                   "An unknown counter, a value outside its bounds (a negative pull, a `state` "
                   "outside 0-2), a `state` of a card not in play.")
    BAD_STAT = "bad_stat", ADJUSTMENTS, "A modifier of a stat other than `ap`, `dp`, `pull`."
    BAD_PHASE = "bad_phase", ADJUSTMENTS, "A turn change to an unknown step."
