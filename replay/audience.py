"""One audience per request (issue 38): who asks, as which viewer, up to which position, with
which rights, built once from the credential and the query and handed to every read of a match.

Every channel that shows a match (state, legal actions, events, transcripts, exports, the
audit, studies, annotations, disputes, live streams, summaries, refusals, pages, the command
line) takes an ``Audience``; none takes a bare viewer or position. ``Audience.of`` is the one
place where the credential's view of the match, the narrowing the request asks for, the seat
range, the spectator option (live, delayed or refused) and the replay policy meet:

- ``viewer``: how the caller reads the match: a judge's or organiser's credential as a judge,
  a seat's credential as its seat of its own match, anyone else as a spectator; the request
  may only narrow it (``?viewer=``, the command line's ``--as``), anything more is
  ``403 viewer_not_allowed``, a seat the match does not have ``422 bad_viewer``;
- ``seen_as``: what the zone table is asked with: the viewer, or a judge's view of everything
  once the match has ended under the ``open`` replay policy;
- ``horizon``: the last live position the audience may see, or None for every one: a
  spectator of a live match under ``spectators: delayed`` sees ``spectator_delay`` positions
  behind, and one under ``spectators: refused`` sees the setup only (``refused``: anything
  showing a position or an event is ``403 spectating_refused``). Everything else it is shown
  (the version, the counts, the audit, the live stream) stands as of that horizon;
- rights: whether it records for a seat, judges, is a party to the match's disputes, or writes
  beside the match (annotations, studies).

The audience holds the match as it was read when the request began, so that every part of one
answer describes the same match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.errors import ActionError
from engine.core.reasons import KernelReason
from engine.core.viewer import SPECTATOR, Viewer
from ledger.errors import Forbidden
from ledger.identity import Identity, Role
from ledger.match import Match
from ledger.visibility import effective_viewer
from replay.access import Caller, signed_in
from replay.reasons import ServiceReason as R


@dataclass(frozen=True)
class Audience:
    """Who reads ``match``, as which viewer, up to which position, with which rights."""

    caller: Caller
    match: Match
    viewer: Viewer
    seen_as: Viewer
    horizon: int | None
    refused: bool

    @classmethod
    def of(cls, caller: Caller, match: Match, asked: Viewer | None = None) -> Audience:
        """The audience of ``caller`` (None: no credential) for ``match``, narrowed to
        ``asked`` where the request asks for a narrower view (Forbidden for a wider one)."""
        viewer = _narrowed(caller.viewer_of(match.id) if caller else SPECTATOR, asked)
        if viewer.seat is not None and not 1 <= viewer.seat <= len(match.players):
            raise ActionError(KernelReason.BAD_VIEWER, f"There is no seat {viewer.seat} in this "
                              f"match: its seats are 1 to {len(match.players)}.")
        seen_as = effective_viewer(viewer, match.ended, match.replay_policy)
        horizon, refused = _horizon(match, viewer)
        return cls(caller, match, viewer, seen_as, horizon, refused)

    # ----- where the match stands for this audience ------------------------------------------
    @property
    def positions(self) -> int:
        """How many live positions it may see (0: the setup only)."""
        return len(self.match.live) if self.horizon is None else self.horizon

    @property
    def version(self) -> int:
        """The match's version as of the last position it may see: events after it (actions,
        undos, pauses) are past its horizon too."""
        if self.horizon is None:
            return int(self.match.version)
        return int(self.match.position_version(self.horizon))

    @property
    def delayed(self) -> bool:
        """Whether it sees the match as it stood some time ago (a horizon short of now, or
        refused): what it is shown stands as of ``version``."""
        return self.horizon is not None

    def watch(self) -> None:
        """Forbidden (``spectating_refused``) where the match refuses its spectators: nothing
        that shows a position or an event is theirs until the end."""
        if self.refused:
            raise Forbidden("spectating_refused", "This match cannot be watched while it is "
                            "on; its replay opens when it ends (replay policy "
                            f"{self.match.replay_policy}).")

    def position(self, at: int | None) -> int:
        """The live position a read asks for (None: the last it may see), checked against
        the horizon (Forbidden ``spectator_delay`` past it); the position itself is checked by
        the store (``BadPosition`` past the match's end)."""
        self.watch()
        if at is None:
            return self.positions
        if self.horizon is not None and at > self.horizon:
            raise Forbidden("spectator_delay", "Spectators see this match some positions "
                            f"behind: ask for position {self.horizon} or earlier.",
                            positions=self.horizon)
        return at

    @property
    def sight(self) -> tuple[Any, ...]:
        """Everything of this audience that an answer read from the match's events alone
        depends on: the match, the version it stands at for this audience (a delayed
        spectator's, as of its horizon: what happens past it changes nothing here, not even
        how soon an answer comes), the viewer, what the zone table is asked with, the horizon
        and a refusal. Two audiences with one sight are shown the same events, records,
        transcript, export and audit, so such answers are kept by it (``replay.api.heavy``);
        an answer that also depends on the caller (its annotations, its disputes, its
        rights) is not kept by it."""
        return (self.match.id, self.version, self.viewer, self.seen_as, self.horizon,
                self.refused)

    def sees_event(self, version: int) -> bool:
        """Whether the event at ``version`` is within its horizon."""
        return version <= self.version

    def sees_position(self, position: int) -> bool:
        """Whether live ``position`` is within its horizon (False for all while refused)."""
        return not self.refused and position <= self.positions

    # ----- rights -------------------------------------------------------------------------------
    @property
    def is_staff(self) -> bool:
        """A judge or an organiser: the judge's view, every seat's actions, undo, adjustments."""
        return self.caller is not None and self.caller.is_staff

    @property
    def seat(self) -> int | None:
        """The seat of this match its credential plays, if any."""
        caller = self.caller
        if caller is not None and caller.match_id == self.match.id:
            return caller.seat
        return None

    @property
    def keeps_score(self) -> bool:
        """Whether its credential is the match's scorekeeper: both seats' actions."""
        return self.caller is not None and self.caller.keeps_score(self.match.id)

    @property
    def is_party(self) -> bool:
        """A seat of the match, its scorekeeper or a judge: who calls, reads and appeals its
        disputes."""
        return self.is_staff or self.keeps_score or self.seat is not None

    @property
    def narrowed(self) -> bool:
        """Whether it asked for a narrower view than its credential's (an organiser asking
        for the spectators'): then it reads only what that viewer would, its own private
        things and a party's disputes included out."""
        return self.viewer != self.asker

    @property
    def asker(self) -> Viewer:
        """Who a refusal is for and who enters chance outcomes: the viewer its credential
        gives (never narrowed: a judge asking for a seat's view still records as a judge)."""
        return self.caller.viewer_of(self.match.id) if self.caller else SPECTATOR

    def writer(self, what: str) -> Identity:
        """Its identity if it may write beside the match (annotations, studies): the match's
        seats, judges and organisers, and commentators; Forbidden for anyone else (a player's
        or another match's seat credential), Unauthenticated without a credential."""
        identity = signed_in(self.caller, what)
        if identity.is_staff or identity.role == Role.COMMENTATOR or self.seat is not None or (
                self.keeps_score):
            return identity
        raise Forbidden("not_your_match", f"{what} is for this match's seats, its judges and "
                        "the commentators.")

    def actor(self, action: Mapping[str, Any], *, outcomes: bool,
              judges_only: bool) -> Identity:
        """Who records ``action``, checked before the rules see it (so a refusal says nothing
        about the game): staff and the match's scorekeeper for any seat, a seat credential for
        its own seat only; a
        judge's acts (adjustments, rulings: ``judges_only``) are the judges'; a seat supplies
        chance outcomes only in a match whose setup was entered from a physical table, never
        in one the seed decides (and then only those it may see: ``SuppliedChance``)."""
        identity = signed_in(self.caller, "Recording an action")
        if identity.is_staff:
            return identity
        if judges_only:
            raise Forbidden("judges_only", "Adjustments and rulings are made by judges.")
        seat = action.get("seat")  # a scorekeeper's: any seat of its match
        if not isinstance(seat, int) or isinstance(seat, bool) or (
                seat != self.seat and not self.keeps_score):
            raise Forbidden("not_your_seat", "Your credential records actions of "
                            f"{self._own()} only.")
        if outcomes and not self.match.setup_from_table:
            raise Forbidden("outcomes_not_allowed", "Chance in this match comes from its "
                            "seed; only a judge may enter outcomes seen at the table.")
        return identity

    def legal_seat(self, seat: int | None) -> int:
        """The seat whose legal actions it may list: its own, or any for staff."""
        identity = signed_in(self.caller, "Listing legal actions")
        if identity.is_staff or self.keeps_score:
            if seat is None:
                raise ActionError(R.SEAT_REQUIRED, "Say which seat's legal actions: ?seat=N.")
            return seat  # one the match has: ``Kiroku.legal_actions`` says so otherwise
        own = self.seat
        if own is None or seat not in (None, own):
            raise Forbidden("not_your_seat", "Your credential lists the legal actions of "
                            f"{self._own()} only.")
        return own

    def _own(self) -> str:
        if self.keeps_score:
            return "the seats of its own match"
        return f"seat {self.seat}" if self.seat is not None else \
            "its own seat of its own match"


def _narrowed(allowed: Viewer, asked: Viewer | None) -> Viewer:
    """``asked`` if it is no wider than ``allowed`` (a judge asking for a seat's view, a seat
    for the spectators'), ``allowed`` when nothing is asked, else Forbidden."""
    if asked is None or asked == allowed or allowed.is_judge or asked == SPECTATOR:
        return asked or allowed
    raise Forbidden("viewer_not_allowed", f"Your credential sees this match as {allowed}; it "
                    f"cannot ask for the view of {asked}.", allowed=str(allowed))


def _horizon(match: Match, viewer: Viewer) -> tuple[int | None, bool]:
    """(the last live position ``viewer`` may see, None for all; whether it is refused)."""
    if viewer.role != "spectator" or match.ended:
        return None, False
    if match.spectators == "refused":
        return 0, True
    if match.spectators == "delayed":
        delay = int(match.config["options"].get("spectator_delay", 3))
        return max(0, len(match.live) - delay), False
    return None, False
