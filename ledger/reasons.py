"""The codes the recorder refuses with as engine errors (``engine.core.errors``): creating a
match, undoing or reopening one, a match imported without its secret seed. They are not any
game's, so no rules page lists them; the kernel's (``match_over``...) are ``KernelReason``."""

from __future__ import annotations

from engine.core.reasons import MATCH_CREATION, Reason

UNDO = "Undo and reopening"
RECORDING = "Recording"


class RecorderReason(Reason):
    """Every code the recorder (``ledger.recorder``) raises of its own."""

    BAD_POLICY = "bad_policy", MATCH_CREATION, "A replay policy other than open or closed."
    BAD_PLAYER_NAME = ("bad_player_name", MATCH_CREATION,
                       "A player's name that is empty, too long, or holds characters that are "
                       "not printable.")

    REASON_REQUIRED = "reason_required", UNDO, "An undo that does not say why."
    BAD_REASON = ("bad_reason", UNDO,
                  "An undo's or a reopening's reason over 500 characters, or holding control or "
                  "invisible characters (a reopening's also when it is empty).")
    UNDO_OUT_OF_RANGE = ("undo_out_of_range", UNDO,
                         "An undo or a reopening to a position the match does not have, or of "
                         "more actions than it holds.")
    MATCH_NOT_OVER = ("match_not_over", UNDO,
                      "A reopening of a match that has not ended: back it up instead.")

    SEED_UNAVAILABLE = ("seed_unavailable", RECORDING,
                        "A match imported without its secret seed: its chance outcomes are "
                        "entered as seen at the table, and a hidden value cannot be committed "
                        "to there.")
