"""The codes the service refuses with as engine errors (``engine.core.errors``): reading a match
as a seat it does not have, exporting it, undoing, a line of study at the end of the game. They
are not any game's, so no rules page lists them; the kernel's (``bad_viewer``,
``unknown_deck``...) are ``KernelReason``."""

from __future__ import annotations

from engine.core.reasons import Reason

READING = "Reading a match"
UNDO = "Undo and reopening"
STUDY = "Study"


class ServiceReason(Reason):
    """Every code the service (``replay``) raises of its own as an engine error."""

    BAD_SEAT = "bad_seat", READING, "A seat the match does not have."
    SEAT_REQUIRED = ("seat_required", READING,
                     "Legal actions asked for without saying which seat's (`?seat=N`).")
    BAD_FORMAT = "bad_format", READING, "An export format other than msgpack or jsonl."

    BAD_UNDO = "bad_undo", UNDO, "An undo that gives both a position to go back to and a count."

    GAME_OVER = ("game_over", STUDY,
                 "One more action in a line that has reached the end of the game.")
