"""Who may annotate, what an annotation may show, and who sees it (issue 13, first part).

- Authors: those who write beside a match (``Audience.writer``): judges and organisers on any
  match, a seat on its own match, a commentator on any match it may watch (public annotations
  only, at the positions it may see). Nobody anonymous, no player's credential.
- An annotation never shows more than its readers may know: the cards it highlights must be ones
  its author could see at that position, and for a ``public`` annotation ones a spectator could
  see there (the match's spectator option while it is on, its replay policy after the end).
- Readers: ``private``: the author; ``team``: the author and its seat (judges for a judge's);
  ``judges``: judges, organisers and the author; ``public``: anyone who may watch that position
  (a delayed spectator not past its delay, nobody while spectators are refused, everyone after
  the end). A withdrawn annotation stays in the list for its readers, marked, without content.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from engine.core.contract import GameState, Ruleset
from engine.core.effects import Place
from engine.core.viewer import Viewer
from engine.core.zones import Zone
from engine.registry import get_game
from ledger.annotations import SYMBOLS, TEXT_LIMIT, VISIBILITIES, Annotation, AnnotationRefused
from ledger.errors import Forbidden
from ledger.identity import Identity, Role
from ledger.match import Match
from ledger.recorder import now
from ledger.variations import Variation
from replay import variations as lines
from replay.audience import Audience
from replay.service import Kiroku


def check_content(text: str, symbols: Sequence[str], visibility: str) -> None:
    """An annotation's text, symbols and visibility, or AnnotationRefused."""
    if len(text) > TEXT_LIMIT or any(ord(c) < 32 and c not in "\n\t" for c in text):
        raise AnnotationRefused(f"An annotation's text is up to {TEXT_LIMIT} printable "
                                "characters.")
    unknown = [s for s in symbols if s not in SYMBOLS]
    if unknown:
        raise AnnotationRefused(f"Unknown symbol {unknown[0]!r}: {', '.join(SYMBOLS)}.")
    if visibility not in VISIBILITIES:
        raise AnnotationRefused(f"Visibility is one of {', '.join(VISIBILITIES)}.")


def cards_seen(ruleset: Ruleset, state: GameState, seen_as: Viewer) -> set[str]:
    """The card ids a reader who sees the match as ``seen_as`` (``Audience.seen_as``) can
    see in ``state`` (the zone table's one rule)."""
    return {card.partition("@")[0] for place, cards in ruleset.places(state).items()
            if ruleset.sees(seen_as, place.zone, place.seat) for card in cards}


def known_cards(kiroku: Kiroku, audience: Audience, position: int) -> set[str]:
    """The card ids the audience can see at live ``position`` of its match."""
    state = kiroku.recorder.position_of(audience.match, position)
    return cards_seen(get_game(audience.match.game), state, audience.seen_as)


@dataclass(frozen=True)
class Mark:
    """What a highlight (or an arrow's end) names, read from its text:

    - a zone: ``hand#1`` (a seat's), ``field`` (a shared one, or every seat's);
    - a place of a zone with places: a square ``field:B-2``, a cell ``conspiracy#2:1.3``, a
      hex ``field#1:A1:2C``, a stun slot ``standby#1:3`` (the zone table's addresses);
    - a card wherever it is seen: ``OE-C02@1.6`` (an instance id names one card);
    - a card in a place: ``field:M1-3/WGS-012``, ``hand#1/WGS-012``: that copy, where a game
      has several of one card (the field's, not the hand's)."""

    text: str
    zone: str | None = None
    seat: int | None = None
    address: str = ""
    card: str | None = None

    @classmethod
    def read(cls, text: str, zones: Mapping[str, Zone], players: int) -> Mark:
        """The mark ``text`` spells, or AnnotationRefused (for a place that cannot be)."""
        place, slash, card = text.partition("/")
        head, _, address = place.partition(":")
        name, hashed, seat = head.partition("#")
        if not (slash or hashed or address) and name not in zones:
            return cls(text, card=text)
        if name not in zones or (slash and not card):
            raise AnnotationRefused(f"{text!r} is not a mark: a zone (ZONE, ZONE#SEAT), a "
                                    "place in one (ZONE#SEAT:ADDRESS), a card, or a card in a "
                                    f"place (PLACE/CARD); zones are {', '.join(zones)}.")
        if hashed and not (seat.isdigit() and 1 <= int(seat) <= players):
            raise AnnotationRefused(f"A zone is ZONE or ZONE#SEAT, seats 1 to {players}.")
        owned = hashed and zones[name].owner == "seat"  # a shared zone's place has no seat
        return cls(text, name, int(seat) if owned else None, address, card or None)

    def sees_place(self, ruleset: Ruleset, viewer: Viewer) -> bool:
        """Whether ``viewer`` sees which cards are in the mark's zone (of its seat)."""
        assert self.zone is not None
        return ruleset.sees(viewer, self.zone, self.seat)

    def holds(self, place: Place, card: str) -> bool:
        """Whether the mark names ``card`` in ``place`` (its zone, its seat if it names one,
        its address if it names one; the card by its id or the id its instance is of)."""
        return (place.zone == self.zone and self.seat in (None, place.seat)
                and self.address in ("", place.address)
                and self.card in (card, card.partition("@")[0]))


def _check_place(ruleset: Ruleset, state: GameState, mark: Mark, players: int,
                 readers: Sequence[Viewer], hidden: AnnotationRefused) -> None:
    """A place's address is one of its zone's (for a seat's zone, of the seat named): where
    a card is, or may be put (an empty square, a free cell), in a zone every reader sees (so
    that naming its places tells nobody anything)."""
    assert mark.zone is not None
    zone = ruleset.zone_table.zones[mark.zone]
    if not mark.address:
        return
    if zone.owner == "seat" and mark.seat is None:
        raise AnnotationRefused(f"A place in a seat's {zone.name} names the seat: "
                                f"{zone.name}#SEAT:{mark.address} (seats 1 to {players}).")
    if not all(mark.sees_place(ruleset, reader) for reader in readers):
        raise hidden
    seat = mark.seat if zone.owner == "seat" else None
    known = set(zone.holding.addresses(state, seat)) | set(zone.holding.entries(state, seat)) \
        if zone.holding is not None else set()
    if mark.address not in known - {""}:
        where = f"{zone.name}'s places are {zone.address}" if zone.address else \
            f"{zone.name} has no places"
        raise AnnotationRefused(f"There is no place {mark.text!r} at that position: {where}.")


def check_marks(ruleset: Ruleset, match: Match, state: GameState, author: Viewer,
                visibility: str, highlights: Sequence[str],
                arrows: Sequence[Sequence[str]]) -> None:
    """Highlights are ``Mark``s: zones, places (a square, a hex, a cell), and cards the
    author (seeing the match as ``author``) and, for a public annotation, a spectator may see
    in ``state``, anywhere or in the place named; arrows join two highlights. The refusal is
    the same whether a card is hidden, elsewhere or does not exist, so it reveals nothing."""
    players = len(match.players)
    readers = [author] if visibility != "public" else [author, Audience.of(None, match).seen_as]
    hidden = AnnotationRefused("Highlight only cards every reader of this annotation may see "
                               "at that position, where it is.")
    places: dict[Place, list[str]] | None = None
    for text in highlights:
        mark = Mark.read(text, ruleset.zone_table.zones, players)
        if mark.zone is not None:
            _check_place(ruleset, state, mark, players, readers, hidden)
        if mark.card is None:
            continue
        places = places if places is not None else ruleset.places(state)
        if not any(mark.holds(place, card) if mark.zone is not None
                   else mark.card in (card, card.partition("@")[0])
                   for place, cards in places.items()
                   if all(ruleset.sees(r, place.zone, place.seat) for r in readers)
                   for card in cards):
            raise hidden
    for arrow in arrows:
        if len(arrow) != 2 or any(end not in highlights for end in arrow):
            raise AnnotationRefused("An arrow joins two of the annotation's highlights.")


def _state_at(kiroku: Kiroku, match: Match, variation: Variation | None,
              position: int) -> GameState:
    if variation is not None:
        return lines.state_of(kiroku, variation, position)
    return kiroku.recorder.state_at(match.id, position)[1]


def check(kiroku: Kiroku, audience: Audience, position: int, text: str,
          symbols: Sequence[str], highlights: Sequence[str], arrows: Sequence[Sequence[str]],
          visibility: str, variation: Variation | None = None) -> Identity:
    """Everything ``add`` checks, storing nothing; the author. A position of a variation is
    annotated by those who may read the variation; a position of the match is one the author
    may see (a commentator's delay included), and a commentator's annotation is public."""
    author = audience.writer("Annotating")
    match = audience.match
    if author.role == Role.COMMENTATOR and visibility != "public":
        raise Forbidden("commentators_write_public", "A commentator's annotations are public.")
    if variation is not None and (variation.match_id != str(match.id)
                                  or not lines.readable(audience.caller, variation, match)):
        raise Forbidden("variation_not_readable", "Annotate only a variation of this match "
                        "that you may read.")
    if variation is None:
        audience.watch()
    last = len(variation.line) if variation is not None else audience.positions
    if not 0 <= position <= last:
        raise AnnotationRefused(f"{'The variation' if variation else 'The match'} has "
                                f"positions 0 to {last}.")
    check_content(text, symbols, visibility)
    check_marks(get_game(match.game), match, _state_at(kiroku, match, variation, position),
                audience.seen_as, visibility, highlights, arrows)
    return author


def add(kiroku: Kiroku, audience: Audience, position: int | None, text: str,
        symbols: Sequence[str], highlights: Sequence[str], arrows: Sequence[Sequence[str]],
        visibility: str, variation: UUID | None = None) -> dict[str, Any]:
    """A new annotation by the audience's caller of a position of its match (the last it may
    see if None), or of one of its variations (see the module docstring)."""
    match = audience.match
    line = kiroku.variations.get(variation) if variation is not None else None
    at = position if position is not None else (
        len(line.line) if line is not None else audience.positions)
    author = check(kiroku, audience, at, text, symbols, highlights, arrows, visibility, line)
    made = kiroku.annotations.add(
        match_id=str(match.id), variation=str(variation) if variation else None, position=at,
        text=text, symbols=list(symbols), highlights=list(highlights),
        arrows=[list(a) for a in arrows], visibility=visibility,
        author={**author.recorded_by, "seat": audience.seat}, recorded_at=now())
    return shown(made)


def _own(caller: Identity, annotation: Annotation) -> bool:
    return annotation.author.get("id") == str(caller.credential_id)


def amend(kiroku: Kiroku, caller: Identity, annotation_id: UUID, text: str,
          symbols: Sequence[str], highlights: Sequence[str], arrows: Sequence[Sequence[str]],
          visibility: str) -> dict[str, Any]:
    """The author's new content (the old stays in the history)."""
    annotation = kiroku.annotations.get(annotation_id)
    if not _own(caller, annotation):
        raise Forbidden("not_the_author", "Only its author amends an annotation.")
    if annotation.withdrawn:
        raise AnnotationRefused("That annotation was withdrawn.")
    audience = kiroku.audience(UUID(annotation.match_id), caller)
    line = kiroku.variations.get(UUID(annotation.variation)) if annotation.variation else None
    check(kiroku, audience, annotation.position, text, symbols, highlights, arrows,
          visibility, line)
    kiroku.annotations.amend(annotation, text=text, symbols=list(symbols),
                             highlights=list(highlights), arrows=[list(a) for a in arrows],
                             visibility=visibility, recorded_at=now())
    return shown(annotation)


def withdraw(kiroku: Kiroku, caller: Identity, annotation_id: UUID,
             reason: str) -> dict[str, Any]:
    """Its author, or a judge, withdraws an annotation."""
    annotation = kiroku.annotations.get(annotation_id)
    if not (_own(caller, annotation) or caller.is_staff):
        raise Forbidden("not_the_author", "Only its author or a judge withdraws an annotation.")
    if not annotation.withdrawn:
        kiroku.annotations.withdraw(annotation, reason, caller.recorded_by, now())
    return shown(annotation)


def readable(audience: Audience, annotation: Annotation,
             variation: Variation | None = None) -> bool:
    """Whether the audience may read ``annotation`` (``variation``: the one it annotates, if
    any, which the audience must be able to read as well)."""
    caller, match, viewer = audience.caller, audience.match, audience.viewer
    if annotation.variation is not None and (
            variation is None or not lines.readable(caller, variation, match)):
        return False
    if caller is not None and not audience.narrowed and _own(caller, annotation):
        return True
    author_role = annotation.author.get("role")
    if annotation.visibility == "private":
        return False
    if annotation.visibility == "judges":
        return viewer.is_judge
    if annotation.visibility == "team":
        if author_role in ("judge", "organiser"):
            return viewer.is_judge
        return viewer.seat is not None and viewer.seat == annotation.author.get("seat")
    if annotation.variation is not None:
        return True  # public, on a line the caller may read
    return audience.sees_position(annotation.position)


def shown(annotation: Annotation) -> dict[str, Any]:
    """An annotation as its readers see it (a withdrawn one without its content)."""
    out: dict[str, Any] = {"annotation_id": str(annotation.id),
                           "match_id": annotation.match_id, "variation": annotation.variation,
                           "position": annotation.position,
                           "author": annotation.author, "visibility": annotation.visibility,
                           "recorded_at": annotation.recorded_at,
                           "amended": annotation.amended, "withdrawn": annotation.withdrawn}
    if not annotation.withdrawn:
        out.update(text=annotation.text,
                   symbols=[{"name": s, "mark": SYMBOLS[s]} for s in annotation.symbols],
                   highlights=list(annotation.highlights), arrows=list(annotation.arrows))
    return out


def history(kiroku: Kiroku, caller: Identity, annotation_id: UUID) -> list[dict[str, Any]]:
    """Every event of an annotation, oldest first: for its author and the judges only (an
    amendment may have narrowed who reads it)."""
    annotation = kiroku.annotations.get(annotation_id)
    if not (_own(caller, annotation) or caller.is_staff):
        raise Forbidden("not_the_author", "Only its author or a judge reads an annotation's "
                        "history.")
    return [{"version": event.originator_version, "event": _EVENT_NAMES[type(event)],
             **{k: v for k, v in event.__dict__.items()
                if k not in ("originator_id", "originator_version", "timestamp",
                             "originator_topic")}}
            for event in kiroku.annotations.history(annotation_id)]


_EVENT_NAMES: dict[type, str] = {Annotation.Created: "AnnotationAdded",
                                 Annotation.Amended: "AnnotationAmended",
                                 Annotation.Withdrawn: "AnnotationWithdrawn"}


def reader_as(viewer: Viewer, match_id: UUID) -> Identity | None:
    """The reader the operator reads as when asking for ``viewer``'s annotations (the command
    line's ``--as``): the judge, no credential for a spectator, or the seat's team (its own
    private annotations stay with the credential that wrote them)."""
    if viewer.is_judge:
        return Identity.operator()
    if viewer.seat is None:
        return None
    return Identity(uuid5(match_id, f"seat {viewer.seat}"), Role.SEAT, f"seat {viewer.seat}",
                    match_id, viewer.seat)


def line(note: dict[str, Any]) -> str:
    """One annotation on one line, as the command line prints it."""
    where = (f"{note['variation'][:8]}/{note['position']}" if note.get("variation")
             else str(note["position"]))
    head = (f"{note['annotation_id'][:8]}  at {where:<4} [{note['visibility']}] "
            f"{note['author'].get('name', '?')}:")
    if note["withdrawn"]:
        return f"{head} (withdrawn)"
    marks = " ".join(s["mark"] for s in note["symbols"])
    shown = [marks, note["text"]] if marks else [note["text"]]
    if note["highlights"]:
        shown.append("highlights " + ", ".join(note["highlights"]))
    if note["arrows"]:
        shown.append("arrows " + ", ".join(f"{a} -> {b}" for a, b in note["arrows"]))
    return " ".join([head, *shown]) + (" (amended)" if note["amended"] else "")


def listing(kiroku: Kiroku, audience: Audience) -> list[dict[str, Any]]:
    """The annotations of the audience's match it may read, oldest first."""
    match_id = audience.match.id
    variations = {str(v.id): v for v in kiroku.variations.of_match(match_id)}
    return [shown(a) for a in kiroku.annotations.of_match(match_id)
            if readable(audience, a, variations.get(a.variation or ""))]
