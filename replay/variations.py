"""What-if lines (issue 13): who may branch from what, playing a line through the same rules,
and who reads it.

- Judges and organisers branch from any position at any time.
- Those who write beside the match (``Audience.writer``: its seats, commentators) branch once
  it has ended under the ``open`` replay policy, when every card is public anyway.
- A seat of a live match (or of one ended under a ``closed`` policy) is refused
  (``variation_needs_hidden_information``): the engine's position holds the cards the seat
  cannot see (the other hands, the order of the decks), so any line played from it would show
  them. The refusal says so rather than leak.

Readers: the author and the staff; a ``public`` variation also everyone once the match ended
under the ``open`` policy. Chance in a line comes from the outcomes entered or from the
variation's own fresh seed, never from the match's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from engine.core.chance import SuppliedChance
from engine.core.contract import GameState
from engine.core.errors import IllegalAction
from engine.core.viewer import Viewer
from engine.registry import get_game
from ledger.errors import Forbidden
from ledger.fold import replay_action, replay_step
from ledger.identity import Identity
from ledger.match import Match
from ledger.recorder import now
from ledger.seed import SeededChance, new_seed
from ledger.variations import Variation, VariationRefused
from replay.audience import Audience
from replay.reasons import ServiceReason as R
from replay.service import Kiroku

VISIBILITIES = ("private", "public")
LINE_LIMIT = 2000


def _open_to_all(match: Match) -> bool:
    return match.ended and match.replay_policy == "open"


def may_branch(caller: Identity, match: Match) -> None:
    """Forbidden unless ``caller`` may branch from this match (see the module docstring)."""
    if caller.is_staff or _open_to_all(match):
        return
    raise Forbidden("variation_needs_hidden_information",
                    "A what-if line from this match would be played on cards you may not see "
                    "(the other hands, the order of the decks): variations open to players "
                    "when the match ends under an open replay policy, and to judges always.")


def readable(caller: Identity | None, variation: Variation, match: Match) -> bool:
    """Whether ``caller`` (None: a spectator) may read ``variation``."""
    if caller is not None and (caller.is_staff or
                               variation.author.get("id") == str(caller.credential_id)):
        return True
    return variation.visibility == "public" and _open_to_all(match)


def _readable_or_refused(kiroku: Kiroku, caller: Identity | None,
                         variation_id: UUID) -> tuple[Variation, Match]:
    variation = kiroku.variations.get(variation_id)
    match = kiroku.recorder.get_match(UUID(variation.match_id))
    if not readable(caller, variation, match):
        raise Forbidden("variation_not_readable", "That variation is its author's and the "
                        "judges' (or not public yet).")
    return variation, match


def start(kiroku: Kiroku, audience: Audience, position: int | None,
          parent: UUID | None, parent_position: int | None, name: str,
          visibility: str) -> dict[str, Any]:
    """A new, empty variation from a live position of the audience's match or from a
    position of another variation."""
    caller = audience.writer("Branching a variation")
    match = audience.match
    match_id = match.id
    may_branch(caller, match)
    if visibility not in VISIBILITIES:
        raise VariationRefused(f"Visibility is one of {', '.join(VISIBILITIES)}.")
    if not name.strip() or len(name) > 80 or not name.isprintable():
        raise VariationRefused("A variation's name is 1 to 80 printable characters.")
    if parent is not None:
        above, _ = _readable_or_refused(kiroku, caller, parent)
        if above.match_id != str(match_id):
            raise VariationRefused("That variation belongs to another match.")
        at = len(above.line) if parent_position is None else parent_position
        if not 0 <= at <= len(above.line):
            raise VariationRefused(f"That variation has positions 0 to {len(above.line)}.")
        fields = {"from_position": above.from_position, "from_version": above.from_version,
                  "parent": str(parent), "parent_version": above.version,
                  "parent_position": at}
    else:
        at = len(match.live) if position is None else position
        if not 0 <= at <= len(match.live):
            raise VariationRefused(f"The match has positions 0 to {len(match.live)}.")
        fields = {"from_position": at, "from_version": match.position_version(at),
                  "parent": None, "parent_version": None, "parent_position": None}
    made = kiroku.variations.start(match_id=str(match_id), name=name.strip(),
                                   visibility=visibility, seed=new_seed().hex(),
                                   author=caller.recorded_by, recorded_at=now(), **fields)
    return shown(made)


def state_of(kiroku: Kiroku, variation: Variation, upto: int | None = None) -> GameState:
    """The position after ``upto`` actions of the line (all of them if None)."""
    if variation.parent is not None:
        above = kiroku.variations.get(UUID(variation.parent), variation.parent_version)
        state = state_of(kiroku, above, variation.parent_position)
    else:
        match_id = UUID(variation.match_id)
        state = kiroku.recorder.get_match(match_id, version=variation.from_version).state
    ruleset = get_game(kiroku.recorder.get_match(UUID(variation.match_id)).game)
    for step in variation.line[:upto]:
        state = replay_action(ruleset, state, step["action"], step["outcomes"])
    return state


def sentences(kiroku: Kiroku, variation: Variation, audience: Audience) -> list[str]:
    """Each action of the line in words, as the audience of its match may see it."""
    ruleset = get_game(audience.match.game)
    seen_as = audience.seen_as
    state, said = state_of(kiroku, variation, 0), []
    for step in variation.line:
        done = replay_step(ruleset, state, step["action"], step["outcomes"])
        said.append(ruleset.describe(step["action"], step["outcomes"], seen_as, state,
                                     done.effects))
        state = done.state
    return said


def play(kiroku: Kiroku, caller: Identity, variation_id: UUID, action: Mapping[str, Any],
         outcomes: Sequence[Any] | None) -> dict[str, Any]:
    """One more action at the tip of the line, validated by the rules (IllegalAction stores
    nothing); chance from ``outcomes`` or the variation's own seed."""
    variation = kiroku.variations.get(variation_id)
    _own(caller, variation)
    if len(variation.line) >= LINE_LIMIT:
        raise VariationRefused(f"A variation holds up to {LINE_LIMIT} actions.")
    ruleset = get_game(kiroku.recorder.get_match(UUID(variation.match_id)).game)
    before = state_of(kiroku, variation)
    if ruleset.outcome(before) is not None:
        raise IllegalAction(R.GAME_OVER, "This line has reached the end of the game.")
    act = ruleset.parse_action(action)
    chance = (SuppliedChance(outcomes) if outcomes is not None
              else SeededChance(bytes.fromhex(variation.seed), len(variation.line) + 1))
    after = ruleset.apply(before, act, chance)
    if isinstance(chance, SuppliedChance):
        chance.finish()
    kiroku.variations.append(
        variation, Variation.Played, action=act.model_dump(mode="json"),
        outcomes=chance.stored(), chance_source="table" if outcomes is not None else "seed",
        digest=ruleset.digest(after), by=caller.recorded_by, recorded_at=now())
    return shown(variation)


def take_back(kiroku: Kiroku, caller: Identity, variation_id: UUID,
              count: int) -> dict[str, Any]:
    """The last ``count`` actions of the line no longer stand (kept in its events)."""
    variation = kiroku.variations.get(variation_id)
    _own(caller, variation)
    if not 1 <= count <= len(variation.line):
        raise VariationRefused(f"Can take back 1 to {len(variation.line)} action(s) here.")
    kiroku.variations.append(variation, Variation.TakenBack, count=count,
                             by=caller.recorded_by, recorded_at=now())
    return shown(variation)


def legal(kiroku: Kiroku, caller: Identity, variation_id: UUID,
          seat: int | None) -> list[dict[str, Any]]:
    """The actions ``seat`` may take at the tip of the line, each with its sentence, for
    whoever may play the line (its author or a judge). What a seat may take shows that seat's
    hand, so a caller who sees the match as a seat lists only its own seat's."""
    variation = kiroku.variations.get(variation_id)
    _own(caller, variation)
    match = kiroku.recorder.get_match(UUID(variation.match_id))
    ruleset = get_game(match.game)
    seen_as = Audience.of(caller, match).seen_as
    state = state_of(kiroku, variation)
    if seat is None:
        seat = seen_as.seat or (ruleset.to_act(state) or [1])[0]
    if not 1 <= seat <= len(match.players):
        raise VariationRefused(f"Seats are 1 to {len(match.players)}.")
    if seen_as.role != "judge" and seen_as.seat != seat:
        raise Forbidden("not_your_seat", "A seat lists only its own actions.")
    if ruleset.outcome(state) is not None:
        return []
    return [{"action": a.model_dump(mode="json"),
             "text": ruleset.describe(a.model_dump(mode="json"), [], Viewer("seat", seat), state)}
            for a in ruleset.legal_actions(state, seat)]


def _own(caller: Identity, variation: Variation) -> None:
    if variation.author.get("id") != str(caller.credential_id) and not caller.is_staff:
        raise Forbidden("not_the_author", "Only its author or a judge plays a variation.")


def shown(variation: Variation) -> dict[str, Any]:
    """A variation as its readers see it."""
    return {"variation_id": str(variation.id), "match_id": variation.match_id,
            "name": variation.name, "from_position": variation.from_position,
            "parent": variation.parent, "parent_position": variation.parent_position,
            "visibility": variation.visibility, "author": variation.author,
            "recorded_at": variation.recorded_at, "line": list(variation.line)}


def read(kiroku: Kiroku, caller: Identity | None, variation_id: UUID,
         at: int | None) -> dict[str, Any]:
    """A variation with the position after ``at`` of its actions (the tip if None)."""
    variation, match = _readable_or_refused(kiroku, caller, variation_id)
    upto = len(variation.line) if at is None else at
    if not 0 <= upto <= len(variation.line):
        raise VariationRefused(f"That variation has positions 0 to {len(variation.line)}.")
    ruleset = get_game(match.game)
    state = state_of(kiroku, variation, upto)
    view = ruleset.view(state, Audience.of(caller, match).seen_as)
    return {**shown(variation), "position": upto, "digest": ruleset.digest(state),
            "to_act": ruleset.to_act(state), "state": view}


def listing(kiroku: Kiroku, audience: Audience) -> list[dict[str, Any]]:
    """The variations of the audience's match it may read, oldest first."""
    return [shown(v) for v in kiroku.variations.of_match(audience.match.id)
            if readable(audience.caller, v, audience.match)]
