"""Quest for the Grail's reason codes: each with the section of the rules page that lists it
and what it means (docs/games/grail.md's tables are generated from here)."""

from __future__ import annotations

from engine.core.reasons import ADJUSTMENTS, ANY_ACTION, MATCH_CREATION, Reason

TURN = "Turn and phases"
BUILD = "Build, deployment, assignment, upkeep"
QUESTS = "Challenge phase, quests and the grail"
COMBAT = "Honour challenges and combat"
CLAIMS = "Claims"


class GrailReason(Reason):
    """Every code Quest for the Grail raises, and the kernel's codes it says more about."""

    PLAYER_COUNT = "player_count", MATCH_CREATION, "Quest for the Grail is for 2 to 4 players."
    BAD_OPTION = ("bad_option", MATCH_CREATION,
                  "An unknown regulation option, or a bad value; a `first_player` above the "
                  "number of players.")
    BAD_CARD = ("bad_card", MATCH_CREATION,
                "A card definition breaks the card model (a warrior or quest without a valid "
                "`kind`, a king without `domain`, a reward without a category, combat experience "
                "not of value 1, a value out of range).")
    COURT_DECK_SIZE = "court_deck_size", MATCH_CREATION, "C5: fewer than 40 court cards."
    QUEST_DECK_SIZE = "quest_deck_size", MATCH_CREATION, "C5: fewer than 10 quests."
    TOO_MANY_COPIES = "too_many_copies", MATCH_CREATION, "C5: more than 2 quests of one name."

    MALFORMED_ACTION = ("malformed_action", ANY_ACTION,
                        "Not a Quest for the Grail action: unknown type, missing or extra field, "
                        "a `roll_round` list not of two numbers, a ruling or judge's end without "
                        "a reason, an adjustment without a reason or with other than one change.")
    ELIMINATED = "eliminated", ANY_ACTION, "The seat has been eliminated (3 or more players)."
    OUTCOME_MISSING = "outcome_missing", ANY_ACTION, "Too few outcomes entered at a physical table."
    OUTCOME_IMPOSSIBLE = ("outcome_impossible", ANY_ACTION,
                          "An outcome entered at a physical table that cannot be (a card not in "
                          "that deck, a die outside 1-6).")
    OUTCOME_UNUSED = "outcome_unused", ANY_ACTION, "Too many outcomes entered at a physical table."

    NOT_YOUR_TURN = "not_your_turn", TURN, "A turn action by a seat whose turn it is not."
    DECISION_PENDING = ("decision_pending", TURN,
                        "A turn action while the game waits on something else (a combat, an "
                        "honour answer, a quest reward, a claim, the victory-challenge claim, a "
                        "grail attempt: a second `start_grail_quest`, another warrior's challenge "
                        "action, `end_turn`); during a grail attempt, `attempt_quest` by another "
                        "seat or while its combat is open; `roll_round` while a surrender answer "
                        "or the end of the combat is awaited.")
    WRONG_PHASE = ("wrong_phase", TURN,
                   "An action of a phase already over; `refresh_quest` outside the draw phase; "
                   "`end_phase` in the challenge phase.")
    UPKEEP_PENDING = ("upkeep_pending", TURN,
                      "A challenge action, `end_phase` out of the upkeep or `end_turn` before the "
                      "upkeep is paid.")
    ALREADY_REFRESHED = "already_refreshed", TURN, "A second refresh in one turn."
    NO_ACTIVE_QUEST = "no_active_quest", TURN, "A refresh with no active quest."
    NO_VICTORY_CHALLENGE = ("no_victory_challenge", TURN,
                            "`claim_alternate_victory` with no victory challenge of the seat "
                            "awaiting its claim.")

    CARD_NOT_IN_HAND = ("card_not_in_hand", BUILD,
                        "The card is not in the seat's hand (any action playing a card from "
                        "hand).")
    NOT_A_DOMAIN = "not_a_domain", BUILD, "`place_domain` with another kind of card."
    DOMAIN_ALREADY_PLACED = "domain_already_placed", BUILD, "A second domain in one turn."
    NOT_A_WARRIOR = "not_a_warrior", BUILD, "`deploy_warrior` with another kind of card."
    DUPLICATE_NAME = ("duplicate_name", BUILD,
                      "A knight or king of the same name already on the seat's field (G6).")
    DUPLICATE_DOMAIN = ("duplicate_domain", BUILD,
                        "A king of the same domain already on the seat's field (G6).")
    NOT_YOUR_WARRIOR = ("not_your_warrior", BUILD,
                        "A warrior (or caster, champion or supporter) that is not one of the "
                        "seat's warriors on the field.")
    NOT_ON_FIELD = ("not_on_field", BUILD,
                    "A challenge target, or the warrior challenged to an honour duel, is not on "
                    "the field.")
    ALREADY_ASSIGNED = ("already_assigned", BUILD,
                        "The warrior has had its assignment operation this turn (grail OQ-7).")
    VALUE_NEEDS_QUEST = ("value_needs_quest", BUILD,
                         "A reward of value 1 or more that is not a vow, attached in the "
                         "assignment phase [報酬 L310].")
    NOT_ATTACHABLE = ("not_attachable", BUILD,
                      "`attach_card` with a card that is neither a companion nor a reward. This "
                      "code is also used for adjustments: a card put onto a warrior "
                      "(`field:WARRIOR`) that may not attach there (see "
                      "[Adjustments](#adjustments-c3)).")
    NOT_ATTACHED = ("not_attached", BUILD,
                    "`transfer_card` with a card not attached to a warrior of the seat.")
    SAME_WARRIOR = "same_warrior", BUILD, "A transfer to the warrior that already holds the card."
    NOT_TRANSFERABLE = "not_transferable", BUILD, "A vow, combat experience or lady transferred."
    LADY_NEEDS_KNIGHT = ("lady_needs_knight", BUILD,
                         "A lady for a general warrior. This code is also used for adjustments: a "
                         "card put onto a warrior (`field:WARRIOR`) that may not attach there "
                         "(see [Adjustments](#adjustments-c3)).")
    ONE_LADY = ("one_lady", BUILD,
                "A second lady for one knight. This code is also used for adjustments: a card put "
                "onto a warrior (`field:WARRIOR`) that may not attach there (see "
                "[Adjustments](#adjustments-c3)).")
    UNIQUE_IN_PLAY = ("unique_in_play", BUILD,
                      "A lady, or a reward of value 1 or more (not combat experience), of the "
                      "same name as one on any field. This code is also used for adjustments: a "
                      "card put onto a warrior (`field:WARRIOR`) that may not attach there (see "
                      "[Adjustments](#adjustments-c3)).")
    SLOT_TAKEN = ("slot_taken", BUILD,
                  "A second weapon, armour, shield or horse on one warrior. This code is also "
                  "used for adjustments: a card put onto a warrior (`field:WARRIOR`) that may not "
                  "attach there (see [Adjustments](#adjustments-c3)).")
    UPKEEP_PAID = "upkeep_paid", BUILD, "A second `pay_upkeep` in one turn."
    UPKEEP_EXCEEDS_YIELD = ("upkeep_exceeds_yield", BUILD,
                            "The paid warriors cost more than the domains yield (G5).")
    COULD_PAY = ("could_pay", BUILD,
                 "A warrior of upkeep 0 left unpaid (under either option); under `upkeep_unpaid: "
                 "forced_only`, an unpaid warrior fits in the yield left over (grail OQ-11).")

    ALREADY_ACTED = ("already_acted", QUESTS,
                     "The warrior has taken its challenge action this turn (a support on its "
                     "controller's turn included).")
    NOT_A_KNIGHT = ("not_a_knight", QUESTS,
                    "A general warrior making an honour challenge or starting the grail quest.")
    OWN_TARGET = "own_target", QUESTS, "A challenge against one's own warrior."
    NO_ALT_VICTORY = ("no_alt_victory", QUESTS,
                      "A victory challenge by a warrior that is not a king with a printed "
                      "alternate victory.")
    VICTORY_CHALLENGE_PENDING = ("victory_challenge_pending", QUESTS,
                                 "A grail quest or victory challenge while another player's "
                                 "victory challenge is pending [L184].")
    NOT_ACTIVE_QUEST = "not_active_quest", QUESTS, "The quest named is not an active quest."
    VALOR_BELOW_12 = "valor_below_12", QUESTS, "A grail quest by a knight with valor below 12."
    GRAIL_KNIGHT_ONLY = ("grail_knight_only", QUESTS,
                         "During a grail attempt, another warrior attempts a quest.")
    GRAIL_QUEST_NOT_ELIGIBLE = ("grail_quest_not_eligible", QUESTS,
                                "A quest neither active at the start of the attempt nor revealed "
                                "by it (grail OQ-26).")
    NO_GRAIL_QUEST = ("no_grail_quest", QUESTS,
                      "`abandon_grail_quest` with no attempt of the seat between quests.")
    NO_REWARD_DUE = ("no_reward_due", QUESTS,
                     "`take_quest_reward` with no reward of the seat waiting.")
    NO_REWARDS_CHOSEN = "no_rewards_chosen", QUESTS, "`rewards` with no card (grail OQ-9)."
    MALFORMED_REWARD = ("malformed_reward", QUESTS,
                        "A card named twice, or cards named with `valor` or `draw`.")
    NOT_A_REWARD = "not_a_reward", QUESTS, "A card of another type among the rewards."
    OVER_VALOR = "over_valor", QUESTS, "The rewards' values exceed the valor gained (G4)."
    DECK_EMPTY = "deck_empty", QUESTS, "A reward `draw` from an empty court deck (grail OQ-4)."

    NO_HONOUR_CHALLENGE = ("no_honour_challenge", COMBAT,
                           "`answer_honour` with no honour challenge waiting.")
    NOT_YOUR_DECISION = ("not_your_decision", COMBAT,
                         "The decision belongs to another seat: the honour answer, the surrender "
                         "answer, a heal choice still open, the reward loss, an acceptance "
                         "already given or by the claimant.")
    NO_CHAMPION = ("no_champion", COMBAT,
                   "A champion named by a target that is not a king, with a decline, or the king "
                   "himself; in a title challenge (`title_champion: on`), no king of this seat "
                   "names one now, or the champion is not another warrior of the king's own "
                   "field.")
    MUST_ACCEPT = ("must_accept", COMBAT,
                   "A king under a victory challenge declines, with `victory_challenge_decline: "
                   "forbidden` (grail OQ-20).")
    NO_COMBAT = ("no_combat", COMBAT,
                 "A combat action with no combat open (a `heal` with neither a combat nor a grail "
                 "attempt).")
    NOT_IN_COMBAT = ("not_in_combat", COMBAT,
                     "The seat has no warrior in this combat (the quest side never acts, nor "
                     "supports).")
    WRONG_STEP = ("wrong_step", COMBAT,
                  "A combat action or a support outside the card window; a surrender outside it "
                  "or before round 1; `finish_combat` before the result; `end_combat` after it or "
                  "while a surrender answer waits.")
    NO_SUPPORT_IN_DUEL = ("no_support_in_duel", COMBAT,
                          "`support` in a formal combat (honour or title challenge).")
    CANNOT_SUPPORT = ("cannot_support", COMBAT,
                      "`support` by a warrior fighting in the combat, or one that has supported "
                      "in it already (grail OQ-28).")
    NO_SURRENDER_IN_TITLE = ("no_surrender_in_title", COMBAT,
                             "A surrender in a title challenge [L179].")
    SURRENDER_USED = "surrender_used", COMBAT, "A side's second surrender request in one combat."
    NO_SURRENDER = "no_surrender", COMBAT, "`answer_surrender` with no request waiting."
    NOTHING_TO_HEAL = ("nothing_to_heal", COMBAT,
                       "`heal` outside a combat's healing step and outside a grail knight's heal "
                       "window (or the window is open but the knight has no damage), or for a "
                       "warrior that may not heal.")
    NO_REWARD_TO_TAKE = ("no_reward_to_take", COMBAT,
                         "`choose_reward_loss` with no honour reward to choose.")
    NOT_LOSABLE = ("not_losable", COMBAT,
                   "A vow, combat experience, or a card not among the loser's rewards (G3).")
    WRONG_CARD_TYPE = ("wrong_card_type", COMBAT,
                       "`play_event`, `cast_spell` or `play_combat_action` with another kind of "
                       "card.")
    NO_SPELLS_IN_DUEL = ("no_spells_in_duel", COMBAT,
                         "A spell while a formal combat is open [呪文 L342].")
    ENCHANTER_TOO_LOW = ("enchanter_too_low", COMBAT,
                         "The caster's enchanter rating is below the spell's.")
    CASTER_SPENT = ("caster_spent", COMBAT,
                    "The caster has cast a spell this round (or turn, grail OQ-25).")

    NO_CLAIM = ("no_claim", CLAIMS,
                "`accept_claim` with no undisputed match-ending claim; `dispute` of a seat with "
                "no open claim (none made since its last turn began, or all ruled on).")
    OWN_CLAIM = "own_claim", CLAIMS, "A seat disputes its own claim."
    ALREADY_DISPUTED = "already_disputed", CLAIMS, "The claim is already disputed."
    ALREADY_ACCEPTED = ("already_accepted", CLAIMS,
                        "A seat disputes the match-ending claim it has accepted (grail OQ-22: its "
                        "acceptance closed its window).")
    VICTORY_CLAIMED = ("victory_claimed", CLAIMS,
                       "An event or a spell once a match-ending claim has ended play (grail "
                       "OQ-22).")
    NO_DISPUTE = "no_dispute", CLAIMS, "`rule_claim` with no disputed claim of that seat."

    BAD_ZONE = ("bad_zone", ADJUSTMENTS,
                "An unknown zone, a zone written with a place it does not have (`field:WARRIOR` "
                "names no warrior of that seat), or a zone cards do not leave that way.")
    QUEST_IN_COMBAT = ("quest_in_combat", ADJUSTMENTS,
                       "An adjustment would move, or replace, the active quest that is being "
                       "fought; end the combat first.")
    CARD_NOT_IN_ZONE = ("card_not_in_zone", ADJUSTMENTS,
                        "The card is not in that zone of that seat (attached cards are taken from "
                        "`field`); a card other than a domain or warrior going onto `field`; a "
                        "card other than a quest going to `active_quest`; a modifier of a card "
                        "that is neither a warrior on a field nor an active combat quest.")
    BAD_COUNTER = ("bad_counter", ADJUSTMENTS,
                   "An unknown counter, a card that does not have it now (a warrior not on a "
                   "field, a quest not being fought), a value out of its bounds.")
    BAD_STAT = ("bad_stat", ADJUSTMENTS,
                "A modifier of a stat the game does not have (`prowess`, `strength`, `endurance`, "
                "`armour` are).")
    BAD_PHASE = ("bad_phase", ADJUSTMENTS,
                 "A turn change to an unknown phase, or to any phase while a combat is open.")
