"""Illuminati's reason codes: each with the section of the rules page that lists it and what it
means (docs/games/illuminati.md's tables are generated from here)."""

from __future__ import annotations

from engine.core.reasons import ADJUSTMENTS, ANY_ACTION, MATCH_CREATION, Reason

SETUP = "Setup"
TURN = "Turn and phases"
CARDS = "Cards and payment"
STRUCTURE = "Structure"
ATTACKS = "Attacks"
TABLE = "Resources, links, agents, plots"
VICTORY = "Victory"


class IlluminatiReason(Reason):
    """Every code Illuminati raises, and the kernel's codes it says more about."""

    PLAYER_COUNT = ("player_count", MATCH_CREATION,
                    "Illuminati: New World Order is for 2 to 6 players.")
    DECK_SIZE = ("deck_size", MATCH_CREATION,
                 "C5: a seat's plot and group decks together are other than 45 cards.")
    NO_ILLUMINATI = ("no_illuminati", MATCH_CREATION,
                     "C5: a plot deck without an Illuminati card to start with.")
    NO_GROUPS = "no_groups", MATCH_CREATION, "C5: a group deck without a group card to start with."

    MALFORMED_ACTION = ("malformed_action", ANY_ACTION,
                        "Not an Illuminati action: an unknown type, a missing or extra field, a "
                        "bad value, an adjustment without a reason or with other than one change.")

    SETUP_NOT_DONE = ("setup_not_done", SETUP,
                      "An action other than a setup choice before setup is finished: the "
                      "Illuminati and the initial groups are revealed first.")
    WRONG_PHASE = ("wrong_phase", SETUP,
                   "Not the phase for this action: a setup choice of the other setup step "
                   "(choosing Illuminati, choosing initial groups), or `auto_control` or "
                   "`begin_main` outside the beginning of a turn.")
    CHOICES_INCOMPLETE = ("choices_incomplete", SETUP,
                          "A table's reveal that does not name every seat still choosing, and "
                          "only those (`reveal_illuminati`, `reveal_groups`).")
    NOT_AN_ILLUMINATI = ("not_an_illuminati", SETUP,
                         "The seat's plot deck has no such Illuminati card to choose. This code "
                         "is also used for `place_agent` with a card that is not an Illuminati.")
    NOT_A_GROUP = "not_a_group", SETUP, "The seat's group deck has no such group card to choose."
    GROUP_ON_TABLE = ("group_on_table", SETUP,
                      "An initial group whose name is already on the table: groups are unique. "
                      "This code is also used for a group placed by automatic control or by "
                      "adjustment, and for a group attacked from hand.")
    ALREADY_CHOSEN = ("already_chosen", SETUP,
                      "A seat chooses again: every choice is revealed when all players have "
                      "chosen.")
    NOT_CHOOSING = "not_choosing", SETUP, "The seat has nothing to choose now."
    CHOOSE_BY_SEAT = ("choose_by_seat", SETUP,
                      "A table reveal (`reveal_illuminati`, `reveal_groups`) in a match whose "
                      "seats choose face down (option `reveals: seats`).")
    REVEAL_BY_TABLE = ("reveal_by_table", SETUP,
                       "A seat's choice (`choose_illuminati`, `choose_group`) in a match that "
                       "records the table's reveal in one action (option `reveals: table`).")

    NOT_YOUR_TURN = ("not_your_turn", TURN,
                     "An action of the active player's turn (the beginning of the turn, the main "
                     "phase, `end_turn`) by another seat.")
    BEGINNING_OF_TURN = ("beginning_of_turn", TURN,
                         "A main-phase action before the beginning of the turn is finished "
                         "(`begin_main` or `auto_control` places the action tokens).")
    FREE_DRAW_USED = ("free_draw_used", TURN,
                      "A free plot draw other than at the beginning of the turn before the group "
                      "draw (pay with tokens instead), or a free group draw already taken or "
                      "passed.")
    PAYMENT_NEEDED = ("payment_needed", TURN,
                      "A group draw in the main phase without the card that pays its action "
                      "token.")
    GROUP_DRAW_USED = "group_draw_used", TURN, "A second bought group draw in one turn."
    DECK_EMPTY = ("deck_empty", TURN,
                  "A draw from an empty deck: an empty deck is not a loss, the draw is refused.")
    RESOURCE_ALREADY_PLACED = ("resource_already_placed", TURN,
                               "A second resource placed in one turn.")
    RESOURCE_HAS_NO_ARROW = ("resource_has_no_arrow", TURN,
                             "An automatic control of a resource that names a parent or an arrow: "
                             "a resource goes to the resource area.")
    HAND_LIMIT = ("hand_limit", TURN,
                  "`end_turn` that does not put exactly the excess under the plot deck, so that "
                  "at most 5 plots and 1 goal card remain (I7).")
    NOT_A_PLOT = ("not_a_plot", TURN,
                  "`end_turn` putting under the plot deck a card that is not in the plot hand.")
    CLAIM_DISPUTED = ("claim_disputed", TURN,
                      "`end_turn` while a victory claim is disputed: a judge rules on it "
                      "(`rule_claim`) first.")

    CARD_NOT_IN_HAND = ("card_not_in_hand", CARDS,
                        "The card is not in the seat's hand (the plot hand or the group hand the "
                        "action takes it from).")
    NOT_IN_STRUCTURE = "not_in_structure", CARDS, "The card is not in the seat's power structure."
    NOT_ON_YOUR_TABLE = ("not_on_your_table", CARDS,
                         "A link naming a card that is not one of the seat's cards on the table.")
    NO_TOKEN = ("no_token", CARDS,
                "The card that pays or supports holds no action token (an attack whose attacker "
                "has none is paid with an attack plot, or aborted).")
    BAD_PAYMENT = ("bad_payment", CARDS,
                   "A paid plot draw that is not one token of the Illuminati (or of an Action "
                   "resource) or two tokens of two groups, or that names a card twice.")
    CANNOT_PAY = ("cannot_pay", CARDS,
                  "An Illuminati agent while the plot deck or the group deck is empty: it costs "
                  "the top card of both.")

    ARROW_TAKEN = "arrow_taken", STRUCTURE, "The named arrow already controls a group."
    NO_SUCH_ARROW = ("no_such_arrow", STRUCTURE,
                     "The card has no outgoing control arrow on that side.")
    NO_FREE_ARROW = "no_free_arrow", STRUCTURE, "The card has no free control arrow."
    MOVE_INTO_ITSELF = ("move_into_itself", STRUCTURE,
                        "A group moved to hang from a card below itself.")
    ILLUMINATI_CANNOT_MOVE = ("illuminati_cannot_move", STRUCTURE,
                              "The Illuminati is the root of the structure and cannot move.")

    ATTACK_IN_PROGRESS = ("attack_in_progress", ATTACKS,
                          "A main-phase action while an attack is under way: finish it first. "
                          "This code is also used for adjustments: the attacker and the target of "
                          "the attack under way cannot be moved until it is resolved.")
    NO_ATTACK = "no_attack", ATTACKS, "An attack action with no attack under way."
    ATTACK_STAGE = ("attack_stage", ATTACKS,
                    "An attack paid or aborted after it has been paid; a support, an agent or a "
                    "pass before it is paid.")
    NOT_THE_ATTACKER = ("not_the_attacker", ATTACKS,
                        "Only the attacking seat pays for or aborts its attack.")
    ATTACKER_HAS_NO_TOKEN = ("attacker_has_no_token", ATTACKS,
                             "An attacker that holds no action token: only the Illuminati or a "
                             "group holding a token attacks.")
    ATTACKS_ITSELF = "attacks_itself", ATTACKS, "A card attacks itself."
    NO_GLOBAL_POWER = ("no_global_power", ATTACKS,
                       "An attack or a support with global power by a card that has none.")
    OWN_GROUP = ("own_group", ATTACKS,
                 "A control attack on a group of your own structure: it can only be destroyed.")
    NOT_A_TARGET = ("not_a_target", ATTACKS,
                    "The target is not a group in a power structure (or, for `attack`, in your "
                    "hand).")
    HAND_TARGET_CONTROL_ONLY = ("hand_target_control_only", ATTACKS,
                                "A group from your hand attacked other than to control it.")
    NOT_AN_ATTACK_PLOT = ("not_an_attack_plot", ATTACKS,
                          "An attack paid with a plot that is not an attack plot.")
    NOT_AN_INSTANT_ATTACK = ("not_an_instant_attack", ATTACKS,
                             "`instant_attack` with a plot that is not an instant-attack plot.")
    ATTACKER_CANNOT_SUPPORT = ("attacker_cannot_support", ATTACKS,
                               "The attacking card cannot also support.")
    TARGET_CANNOT_SUPPORT = ("target_cannot_support", ATTACKS,
                             "The target cannot support the attack on itself.")
    NO_POWER_SUPPORT = ("no_power_support", ATTACKS,
                        "A card adds its power only if it qualifies (sharing an alignment with "
                        "the target, an opposed one when destroying, or the target or next to it "
                        "when defending); any group can add its global power.")
    ILLUMINATI_CANNOT_AID = ("illuminati_cannot_aid", ATTACKS,
                             "An Illuminati adding its global power as support: the rules name "
                             "groups as its source (option `illuminati_global_aid`).")
    NOT_AN_AGENT = "not_an_agent", ATTACKS, "Only a copy of the target is its agent."
    AGENT_OF_OWN_GROUP = ("agent_of_own_group", ATTACKS,
                          "A card of your own power structure cannot be used as an agent.")
    AGENT_ALREADY_PLAYED = ("agent_already_played", ATTACKS,
                            "A second agent for the same side of an attack.")
    ALREADY_PASSED = "already_passed", ATTACKS, "A seat passes twice on the same attack."

    NOT_A_RESOURCE = ("not_a_resource", TABLE,
                      "`place_resource` with a card that is not a resource, or a trade for a "
                      "resource no other player has.")
    NOT_YOUR_RESOURCE = "not_your_resource", TABLE, "The card is not one of the seat's resources."
    UNIQUE_RESOURCE = ("unique_resource", TABLE,
                       "A Unique resource is placed once per match, even after it has left the "
                       "table.")
    RESOURCE_USED = "resource_used", TABLE, "A resource used this turn cannot change hands."
    BAD_RECIPIENT = "bad_recipient", TABLE, "The receiver is not another player still in the game."
    BAD_LINK = ("bad_link", TABLE,
                "A link that joins a card to itself or duplicates a link, a moved end that is not "
                "one of the two linked cards, or a link to a plot that is not a permanent plot.")
    ALREADY_LINKED = "already_linked", TABLE, "Those two cards are already linked."
    NO_SUCH_LINK = "no_such_link", TABLE, "Those two cards are not linked."
    LINK_MOVED = "link_moved", TABLE, "The link has already moved this turn."
    LINK_FIXED = ("link_fixed", TABLE,
                  "A group linked to a permanent plot stays linked until the group is destroyed.")
    OWN_ILLUMINATI = "own_illuminati", TABLE, "Your own Illuminati cannot be your agent."
    AGENT_ALREADY_PLACED = ("agent_already_placed", TABLE,
                            "You already have an agent of that Illuminati.")
    NO_SUCH_OPPONENT = ("no_such_opponent", TABLE,
                        "No opponent plays that Illuminati: an agent must match an opponent's "
                        "Illuminati.")
    WRONG_PLAY = ("wrong_play", TABLE,
                  "`play_plot` with a card played by another action (`pay_attack`, "
                  "`instant_attack`, `declare_victory` or `place_agent`).")

    ALREADY_DECLARED = ("already_declared", VICTORY,
                        "A seat declares victory a second time in one turn.")
    GOAL_NOT_MET = ("goal_not_met", VICTORY,
                    "A basic-goal declaration without the groups the goal needs (I1).")
    GOAL_CARD_NEEDED = ("goal_card_needed", VICTORY,
                        "A goal-card declaration without the goal card played.")
    NOT_A_GOAL = ("not_a_goal", VICTORY,
                  "The card played for a goal-card declaration is not a goal card.")
    NO_CLAIM = "no_claim", VICTORY, "The seat named has not declared victory this turn."
    OWN_CLAIM = "own_claim", VICTORY, "A seat disputes its own claim."
    CLAIM_CHECKED = ("claim_checked", VICTORY,
                     "A dispute of the basic goal: the rules count it, it is not claimed.")
    ALREADY_DISPUTED = ("already_disputed", VICTORY,
                        "The claim is already ruled on, or already disputed by that seat.")
    NOT_DISPUTED = ("not_disputed", VICTORY,
                    "A ruling on a claim that is not disputed, or is already ruled on.")

    BAD_ZONE = ("bad_zone", ADJUSTMENTS,
                "An unknown zone or place, an arrow other than `top`, `right`, `bottom`, `left`, "
                "or a card taken out of a structure other than a group with nothing below it.")
