"""Blind Bid, the toy game of docs/adding-a-game.md (test-only; game id ``blindbid``).

2-4 players, each with a 12-card deck of numbered cards (at most 2 of a value). Setup: each seat
draws 4 cards at random. Each round every seat still in lays one card from hand face down
(``bid``); the last bid reveals them all: the single highest value takes every bid card into its
won pile, a tied highest value sends them to the shared discard pile. Then each seat draws a card
if its deck is not empty, and the next round (turn) starts. The match ends when a seat has no
card in hand at the start of a round: the most points (the values of the cards won) wins, a tie
is a draw. A concession in a 3-4 player match voids the round in progress (the face-down bids go
back to hand, unrevealed).

Reason codes (``tests/toygame/reasons.py``, ``BlindBidReason``): ``already_bid``,
``card_not_in_hand`` (bids); ``deck_size``, ``too_many_copies`` (C5); and the kernel's
(``KernelReason``: ``match_over``, ``no_such_seat``, ``eliminated``, ``bad_counter``,
``card_not_in_zone``, ``bad_zone``, ``bad_phase``...). A shipped game's rules page lists its codes
in tables generated from its registry (``kiroku reasons GAME --write-docs PAGE``); the toy game has
no page, and ``reason_table(BlindBidReason)`` renders what one would hold. Results:
``hand_empty`` (the rules), ``concession``, ``turn_limit``.
"""

from tests.toygame.ruleset import BlindBid

__all__ = ["BlindBid"]
