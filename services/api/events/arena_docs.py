"""What the arena room keeps of an arena, as documents the store never reads: each entrant (:class:`Entry`: its
standing, who it is, its game in play) and each game in play (:class:`ArenaGame`: its table and who sits where)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import orjson

from services.api.events.arena import ArenaRules, Entrant, Table


@dataclass(frozen=True)
class Entry:
    """An entrant as the room keeps it: its standing (:class:`Entrant`), who it is, its game in play (and seat),
    and whether it has withdrawn (it keeps its standing and may come back)."""

    standing: Entrant
    name: str
    kind: str
    game_id: str | None = None
    seat: int | None = None
    withdrawn: bool = False

    def to_doc(self) -> bytes:
        s = self.standing
        body = {**asdict(s), "last_opponents": sorted(s.last_opponents), "last_partners": sorted(s.last_partners)}
        data = {"standing": body, "name": self.name, "kind": self.kind, "game_id": self.game_id, "seat": self.seat}
        return orjson.dumps({**data, "withdrawn": self.withdrawn})

    @classmethod
    def from_doc(cls, doc: bytes) -> Entry:
        data = orjson.loads(doc)
        s = data["standing"]
        standing = Entrant(
            **{k: v for k, v in s.items() if k not in ("last_opponents", "last_partners")},
            last_opponents=frozenset(s["last_opponents"]),
            last_partners=frozenset(s["last_partners"]),
        )
        return cls(standing, data["name"], data["kind"], data["game_id"], data["seat"], data["withdrawn"])


@dataclass(frozen=True)
class ArenaGame:
    """A game in play: its table (the sides, as the pairing made them) and who sits where."""

    game_id: str
    table: Table
    seats: tuple[str, ...]
    started_ms: int

    def to_doc(self) -> bytes:
        return orjson.dumps({"sides": self.table.sides, "seats": self.seats, "started_ms": self.started_ms})

    @classmethod
    def from_doc(cls, game_id: str, doc: bytes) -> ArenaGame:
        data = orjson.loads(doc)
        sides = tuple(tuple(side) for side in data["sides"])
        return cls(game_id, Table(sides), tuple(data["seats"]), data["started_ms"])


def seating(rules: ArenaRules, table: Table) -> tuple[str, ...]:
    """Who sits in seats 0–3: partners opposite (a side of two in seats 0 and 2, the other in 1 and 3); solo, the
    sides in order."""
    if rules.format == "partners":
        (a, b), (c, d) = table.sides
        return (a, c, b, d)
    return table.entrants
