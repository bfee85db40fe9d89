"""Strays of pairings that never landed (issue 41): what versions before a round was one save left.

Until pairing a round became one save, ``pair`` saved each table's match, then its seat
credentials, then the round; two organisers pairing one round at once, or a crash in between,
left matches that no round lists, with live seat credentials. ``kiroku audit verify`` notes them
(a note naming the match and the tournament, never a failure: every event is intact).

A stored match is a stray of tournament T when all of these hold:

1. no round lists it: it has no seating (a seating is saved only with its round);
2. it plays T's game under T's replay policy, with the options a match created with T's
   regulation records;
3. it was created by an organiser (only organisers pair), at or after T's creation and, if T
   has finished, before that (a finished tournament is not paired);
4. its seats are distinct players of T, each seat's name the player's registered name and each
   seat's deck a list that player had submitted (or had amended) before the match was created;
5. at least one seat's deck is none of the game's sample decks.

The last one is what keeps a standalone match out: one created for the same players by deck
name plays the sample decks, and a list that equals a sample deck cannot tell a pairing's match
from a friendly one, so a stray all of whose seats play sample decks is not flagged. A standalone
match given, by hand, each player's own non-sample registered list is flagged; its record says
no more than a stray's. The seat credentials issued for a stray are named with it, with how many
still sign in.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from engine.registry import get_game
from ledger.catalog import sample_decks
from ledger.errors import LedgerError
from ledger.identity import Role
from ledger.matchlist import ListedMatch, MatchQuery
from ledger.tournaments import Tournament
from replay.service import Kiroku


@dataclass(frozen=True)
class Stray:
    """A match of a pairing that never landed, and the seat credentials issued for it."""

    match_id: UUID
    tournament_id: UUID
    tournament: str
    players: tuple[str, ...]  # the tournament's player ids, by seat
    created_at: str
    credentials: tuple[UUID, ...] = ()
    unrevoked: int = 0

    def note(self) -> str:
        """The audit's note on the match."""
        issued = (f"seat credential(s) {', '.join(map(str, self.credentials))} were issued "
                  f"for it, {self.unrevoked} not revoked" if self.credentials
                  else "no seat credential was issued for it")
        return (f"stray: match {self.match_id} was created at {self.created_at} for "
                f"tournament {self.tournament!r} ({self.tournament_id}) with its registered "
                f"players and decklists, but no round lists it (a pairing that never landed, "
                f"left by a version that saved a round's tables one by one); {issued}")


@dataclass
class _Registry:
    """What a tournament's history says a pairing of it would create a match with."""

    tournament_id: UUID
    name: str
    game: str
    replay_policy: str
    options: dict[str, Any]  # as a match created with the regulation records them
    created_at: str
    finished_at: str | None = None
    names: dict[str, str] = field(default_factory=dict)  # player id -> registered name
    lists: dict[str, list[tuple[str, dict[str, int]]]] = field(default_factory=dict)

    @classmethod
    def of(cls, events: Sequence[Any]) -> _Registry:
        """The registry read from a tournament's events, oldest first."""
        created = events[0]
        ruleset = get_game(created.game)
        options = ruleset.parse_options(ruleset.new_match_options(created.options)).recorded()
        registry = cls(created.originator_id, created.name, created.game,
                       created.replay_policy, options, created.recorded_at)
        for event in events[1:]:
            registry._read(event)
        return registry

    def _read(self, event: Any) -> None:
        if isinstance(event, Tournament.PlayerRegistered):
            self.names[event.player_id] = event.name
        elif isinstance(event, Tournament.DecklistSubmitted | Tournament.DecklistAmended):
            self.lists.setdefault(event.player_id, []).append((event.recorded_at,
                                                               dict(event.deck)))
        elif isinstance(event, Tournament.Finished):
            self.finished_at = event.recorded_at

    def may_hold(self, listed: ListedMatch) -> bool:
        """Whether the match list's row alone allows ``listed`` to be a stray of this
        tournament (conditions 1, 3's times, and the names of 4): the cheap test first."""
        registered = set(self.names.values())
        return (listed.seating is None and listed.game == self.game
                and self.created_at <= listed.created_at
                and (self.finished_at is None or listed.created_at < self.finished_at)
                and all(name in registered for name in listed.players))

    def seated(self, creation: Any) -> tuple[str, ...] | None:
        """The tournament's players by seat if the match's creation is a stray's (conditions
        2 to 5), else None."""
        by = creation.created_by
        if (creation.replay_policy != self.replay_policy
                or creation.config["options"] != self.options
                or not (isinstance(by, Mapping) and by.get("role") == Role.ORGANISER)):
            return None
        decks = [dict(d) for d in creation.config["decks"]]
        samples = [dict(d.cards) for d in sample_decks(self.game).values()]
        if all(deck in samples for deck in decks):
            return None
        candidates = [self._holders(name, deck, creation.created_at)
                      for name, deck in zip(creation.config["players"], decks, strict=True)]
        return next(_distinct(candidates, ()), None)

    def _holders(self, name: str, deck: dict[str, int], before: str) -> list[str]:
        """The players named ``name`` who had ``deck`` as their list before ``before``."""
        return [player for player, registered in self.names.items()
                if registered == name and any(at <= before and listed == deck
                                              for at, listed in self.lists.get(player, []))]


def _distinct(candidates: Sequence[list[str]],
              chosen: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every choice of one candidate per seat with no player at two seats."""
    if len(chosen) == len(candidates):
        yield chosen
        return
    for player in candidates[len(chosen)]:
        if player not in chosen:
            yield from _distinct(candidates, (*chosen, player))


def find(kiroku: Kiroku) -> list[Stray]:
    """Every stray in the store (see the module's criterion), oldest match first."""
    registries = [_Registry.of(kiroku.tournaments.history(t))
                  for t in kiroku.tournaments.all_ids()]
    found: list[Stray] = []
    for game in sorted({r.game for r in registries}):
        of_game = [r for r in registries if r.game == game]
        for listed in kiroku.recorder.find_matches(MatchQuery(game=game, simulated=False)):
            found += _strays_of(kiroku, listed, of_game)
    return _with_credentials(kiroku, sorted(found, key=lambda s: s.created_at))


def _strays_of(kiroku: Kiroku, listed: ListedMatch,
               registries: Sequence[_Registry]) -> list[Stray]:
    """The match as the stray of the first tournament whose pairing it could be ([] if
    none): a match is one tournament's stray at most."""
    possible = [r for r in registries if r.may_hold(listed)]
    if not possible:
        return []
    try:
        creation = kiroku.recorder.creation(listed.match_id)
    except LedgerError:  # a creation that cannot be read: the audit's failure, not a stray
        return []
    for registry in possible:
        players = registry.seated(creation)
        if players is not None:
            return [Stray(listed.match_id, registry.tournament_id, registry.name, players,
                          listed.created_at)]
    return []


def _with_credentials(kiroku: Kiroku, strays: list[Stray]) -> list[Stray]:
    """The strays with the seat credentials issued for their matches."""
    if not strays:
        return strays
    wanted = {s.match_id for s in strays}
    issued: dict[UUID, list[tuple[UUID, bool]]] = {}
    for identity in kiroku.credentials.issued():
        if identity.role == Role.SEAT and identity.match_id in wanted:
            issued.setdefault(identity.match_id, []).append(
                (identity.credential_id, not kiroku.credentials.is_revoked(identity)))
    return [Stray(s.match_id, s.tournament_id, s.tournament, s.players, s.created_at,
                  tuple(c for c, _ in issued.get(s.match_id, [])),
                  sum(live for _, live in issued.get(s.match_id, [])))
            for s in strays]


def notes_by_match(kiroku: Kiroku) -> dict[UUID, str]:
    """The audit's note on each stray match, by its id."""
    return {s.match_id: s.note() for s in find(kiroku)}
