"""Blind Bid's reason codes, each with the section it would be listed under on a rules page and
what it means (``engine.core.reasons.reason_table(BlindBidReason)`` renders them as one)."""

from __future__ import annotations

from engine.core.reasons import MATCH_CREATION, Reason

BIDS = "Bids"


class BlindBidReason(Reason):
    """Every code Blind Bid raises; the kernel's (``match_over``, ``bad_zone``...) it leaves as
    the kernel says them."""

    DECK_SIZE = "deck_size", MATCH_CREATION, "C5: a deck of other than 12 cards."
    TOO_MANY_COPIES = ("too_many_copies", MATCH_CREATION,
                       "C5: more than 2 cards of one value in a deck.")

    ALREADY_BID = ("already_bid", BIDS,
                   "The seat has bid this round already; the others have still to bid.")
    CARD_NOT_IN_HAND = "card_not_in_hand", BIDS, "The card bid is not in the seat's hand."
