"""Kami no Kijutsu's reason codes: each with the section of the rules page that lists it and
what it means (docs/games/kami.md's tables are generated from here)."""

from __future__ import annotations

from engine.core.reasons import ADJUSTMENTS, ANY_ACTION, MATCH_CREATION, Reason

TURN = "Turn, phase and battle"
CARDS = "Cards, costs and the field"
JUDGMENT = "Judgment"


class KamiReason(Reason):
    """Every code Kami no Kijutsu raises, and the kernel's codes it says more about."""

    PLAYER_COUNT = "player_count", MATCH_CREATION, "Kami no Kijutsu is for exactly 2 players."
    BAD_CARD = ("bad_card", MATCH_CREATION,
                "A card definition breaks the card model (a territory without both costs or with "
                "a hold, another kind without a cost, a colourless support icon, a value out of "
                "range).")
    DECK_SIZE = "deck_size", MATCH_CREATION, "C5: a deck of other than 40 cards."
    TOO_MANY_COPIES = "too_many_copies", MATCH_CREATION, "C5: more than 3 cards of one name."

    MALFORMED_ACTION = ("malformed_action", ANY_ACTION,
                        "Not a Kami no Kijutsu action: unknown type, missing or extra field, a "
                        "bad hex id, an adjustment without a reason or with other than one "
                        "change.")
    NO_SUCH_SEAT = ("no_such_seat", ANY_ACTION,
                    "The seat is not in the match (also for an adjustment's seats).")
    ELIMINATED = ("eliminated", ANY_ACTION,
                  "The seat has been eliminated; cannot happen in a 2-player match, which ends "
                  "instead.")
    OUTCOME_MISSING = ("outcome_missing", ANY_ACTION,
                       "Too few outcomes entered at a physical table (`draw`, `ap_card`, "
                       "`first_player`).")
    OUTCOME_IMPOSSIBLE = ("outcome_impossible", ANY_ACTION,
                          "An outcome entered at a physical table that cannot be: a `draw` or "
                          "`ap_card` naming a card that is not among the unfixed cards of the "
                          "layer it is picked from (such as a card that lies only in a lower "
                          "layer of the deck); a `first_player` other than 1 or 2.")
    OUTCOME_UNUSED = "outcome_unused", ANY_ACTION, "Too many outcomes entered at a physical table."

    WRONG_PHASE = ("wrong_phase", TURN,
                   "Not the phase for this action: mulligan actions after the mulligans, an "
                   "action-phase action in another phase, a hand-limit discard or a judgment "
                   "action outside the active seat's own step, an interference force during a "
                   "battle or the mulligans.")
    NOT_YOUR_TURN = ("not_your_turn", TURN,
                     "An action-phase action by the seat whose turn it is not.")
    BATTLE_OPEN = ("battle_open", TURN,
                   "An action-phase action while a battle is open: reinforce, interfere or pass.")
    NO_BATTLE = "no_battle", TURN, "`reinforce`, `interfere` or `pass_battle` with no battle open."
    NOT_YOUR_PRIORITY = ("not_your_priority", TURN,
                         "A battle action by the seat not holding priority.")
    ALREADY_KEPT = ("already_kept", TURN,
                    "A mulligan or keep by a seat that has kept (a seat that took its second "
                    "mulligan has kept: its third mulligan is `mulligan_limit`).")
    MULLIGAN_LIMIT = ("mulligan_limit", TURN,
                      "A third mulligan, while the mulligans go on (K8: up to 2). It is checked "
                      "before `already_kept`, though the second mulligan kept the hand.")

    CARD_NOT_IN_HAND = "card_not_in_hand", CARDS, "The card is not in the seat's hand."
    WRONG_CARD_KIND = ("wrong_card_kind", CARDS,
                       "The card is not of the kind the action plays (a unit to "
                       "`set_territory`...).")
    INSUFFICIENT_AP = "insufficient_ap", CARDS, "The cost is more than the seat's AP (K3)."
    HOLD_NOT_MET = ("hold_not_met", CARDS,
                    "The seat's support does not meet the card's hold "
                    "(§ホールドとサポートについて).")
    TERRITORY_ON_HEX = ("territory_on_hex", CARDS,
                        "`set_territory` on a hex that has a territory: replace it instead.")
    NO_TERRITORY_ON_HEX = ("no_territory_on_hex", CARDS,
                           "`replace_territory` on a hex without a territory.")
    ENEMY_UNIT_ON_HEX = ("enemy_unit_on_hex", CARDS,
                         "A territory on a hex of your own area where an enemy unit stands.")
    NO_OWN_UNIT_ON_HEX = ("no_own_unit_on_hex", CARDS,
                          "A territory in the enemy area on a hex without a unit of yours.")
    NOT_OWN_AREA = "not_own_area", CARDS, "A unit summoned outside your own area."
    HEX_HAS_OWN_UNIT = ("hex_has_own_unit", CARDS,
                        "A summon, move or teleport onto a hex where a unit of yours stands.")
    NO_UNIT_ON_HEX = "no_unit_on_hex", CARDS, "An option equipped on a hex with no unit."
    NOT_YOUR_UNIT = ("not_your_unit", CARDS,
                     "A move, teleport or unit ability from a hex without a unit of yours.")
    NOT_SAME_AREA = "not_same_area", CARDS, "A move across the border (that is a teleport)."
    NOT_ADJACENT = "not_adjacent", CARDS, "A move to a hex that is not adjacent (K1)."
    CANNOT_MOVE = "cannot_move", CARDS, "The unit has no move cost (kami Q-20)."
    CANNOT_TELEPORT = "cannot_teleport", CARDS, "The unit has no teleport cost (kami Q-20)."
    NOT_YOUR_TERRITORY = ("not_your_territory", CARDS,
                          "A territory ability on a hex without a territory of yours.")
    NOT_A_TERRITORY = ("not_a_territory", CARDS,
                       "`pile` with a unit's ability: only a territory is piled.")
    NOT_INTERFERENCE = ("not_interference", CARDS,
                        "A force without interference played in the opponent's turn, or used with "
                        "`interfere`.")
    NOT_REINFORCEMENT = ("not_reinforcement", CARDS,
                         "`reinforce` with a card that is not a reinforcement unit.")
    CARD_NOT_IN_ZONE = ("card_not_in_zone", CARDS,
                        "`end_force` with a card not among the seat's lasting forces. This code "
                        "is also used for adjustments: the card is not in the named zone (out of "
                        "`deck`: neither a fixed card on its known top nor an unfixed card of a "
                        "layer with cards below that top, see [Adjustments](#adjustments-c3)), or "
                        "there is no room on the hex.")
    DISCARD_EMPTY = "discard_empty", CARDS, "`renew_deck` with an empty discard pile (kami Q-13)."
    WRONG_DISCARD_COUNT = ("wrong_discard_count", CARDS,
                           "`discard_to_limit` naming other than exactly the excess number of "
                           "cards.")

    ALREADY_DECLARED = ("already_declared", JUDGMENT,
                        "A second victory declaration by the same seat.")
    DECLARATION_PENDING = ("declaration_pending", JUDGMENT,
                           "A victory declaration while the opponent's is pending (kami Q-3).")
    VICTORY_CONDITIONS_NOT_MET = ("victory_conditions_not_met", JUDGMENT,
                                  "A declaration without VP >= 10 and more VP than the opponent "
                                  "(kami Q-2).")

    BAD_ZONE = ("bad_zone", ADJUSTMENTS,
                "An unknown zone, a zone that cannot be adjusted (`ap`, `stack`), a `field` or "
                "`options` reference without a valid hex (or, for `options`, without a unit "
                "there), or an address on a zone that has none (`hand:A1:2C`).")
    BAD_STAT = ("bad_stat", ADJUSTMENTS,
                "A modifier of a stat the game does not have (`at`, `df` are).")
    BAD_COUNTER = ("bad_counter", ADJUSTMENTS,
                   "An unknown counter, a value out of range (`vp` 0-1000, "
                   "`damage`/`lasting_damage` 0-99, `battle_at`/`battle_df` -99 to 99), "
                   "`damage:HEX` or `lasting_damage:HEX` without a unit on the hex, "
                   "`battle_at`/`battle_df` with no battle open, raising `ap` by more cards than "
                   "the deck holds.")
    BAD_PHASE = ("bad_phase", ADJUSTMENTS,
                 "A turn change to a phase the game does not have, or to `battle` with no battle "
                 "open (and to any other phase while one is).")
