"""The whole game state as compact JSON, exactly round-trippable.

Cards played are stored as one string of card codes; hands as integer masks.
``schema`` versions the format: :func:`from_json` reads every version up to
:data:`SCHEMA_VERSION` and refuses newer ones rather than misreading them.
Schema 1 has an integer seed, schema 2 a secret one (64 hex digits,
:mod:`services.engine.dealing`); the fields are otherwise the same, and a game
with an integer seed is still written as schema 1, so an engine that knows
only schema 1 refuses a secret's document instead of writing it back broken.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from .cards import CARD_CODES, STANDARD_DECK, Deck
from .dealing import Seed, is_secret
from .rules import Rules, rules_from_dict
from .state import GameState, RoundRecord

SCHEMA_VERSION = 2  # the newest this engine reads: 1, an integer seed; 2, a secret seed


class SchemaError(ValueError):
    """A stored document this engine can't read."""


def _plays_str(plays: tuple[int, ...]) -> str:
    return "".join(map(CARD_CODES.__getitem__, plays))


def _plays_tuple(text: str, deck: Deck = STANDARD_DECK) -> tuple[int, ...]:
    return tuple(deck.parse(text[i : i + 2]) for i in range(0, len(text), 2))


@functools.lru_cache(maxsize=8192)
def _record_json(record: RoundRecord) -> str:
    """A finished round's stored form; rounds never change, so each is encoded once."""
    data = [list(record.bids), _plays_str(record.plays), list(record.points), list(record.bag_penalties),
            list(record.scores), list(record.bags)]  # fmt: skip
    if record.blind or record.passes:  # house rules only: the seeds' records keep their six fields
        data += [list(record.blind), list(record.passes)]
    return json.dumps(data, separators=(",", ":"))


def _round_fields(state: GameState) -> dict[str, Any]:
    """Everything but the rules, the finished rounds and the winner, in storage order."""
    return {
        "seed": state.seed,
        "round": state.round,
        "phase": state.phase,
        "hands": list(state.hands),
        "bids": list(state.bids),
        "plays": _plays_str(state.plays),
        "leader": state.leader,
        "tricks_won": list(state.tricks_won),
        "scores": list(state.scores),
        "bags": list(state.bags),
        **_house_fields(state),
    }


def _house_fields(state: GameState) -> dict[str, Any]:
    """The house rules' round fields, stored only when some is set (the seeds' documents stay as they are)."""
    if not (any(state.blind) or any(state.looked) or any(state.passes)):
        return {}
    return {"blind": list(state.blind), "looked": list(state.looked), "passes": list(state.passes)}


def _ints_json(values: tuple[int | None, ...]) -> str:
    return "[" + ",".join(["null" if v is None else str(v) for v in values]) + "]"


def _round_fields_json(state: GameState) -> str:
    """``json.dumps(_round_fields(state))`` without its braces, written out
    directly (every move stores it; ints, a phase name and card codes need no
    escaping).  tests/engine/test_serialization.py holds the two equal."""
    return (
        f'"seed":{_seed_json(state.seed)},"round":{state.round},"phase":"{state.phase}",'
        f'"hands":{_ints_json(state.hands)},"bids":{_ints_json(state.bids)},"plays":"{_plays_str(state.plays)}",'
        f'"leader":{state.leader},"tricks_won":{_ints_json(state.tricks_won)},"scores":{_ints_json(state.scores)},'
        f'"bags":{_ints_json(state.bags)}'
    ) + _house_fields_json(state)


def _schema(seed: Seed) -> int:
    """The schema a game's document is written in: its seed's form (module docstring)."""
    return 2 if isinstance(seed, str) else 1


def _seed_json(seed: Seed) -> str:
    return f'"{seed}"' if isinstance(seed, str) else str(seed)  # a secret is hex: nothing to escape


def _house_fields_json(state: GameState) -> str:
    house = _house_fields(state)
    return "," + json.dumps(house, separators=(",", ":"))[1:-1] if house else ""


# The options every stored game names. An option declared after them is stored only when it is not its default,
# so a game that leaves a new house rule off is written as before and reads the same in a process that does not
# know the rule yet (during a rolling upgrade); a missing option reads as its default (``rules_from_dict``).
ALWAYS_STORED = frozenset(
    {
        "scoring", "win_score", "lose_score", "set_penalty", "bag_limit", "bag_penalty", "nil", "nil_value",
        "min_team_bid", "max_team_bid", "nil_tricks_count_for_team", "spades_must_be_broken", "jokers",
        "deuces_high", "blind_nil", "blind_nil_value", "blind_bids", "blind_margin", "nil_pass_cards",
        "nil_pass_blind_only", "suicide", "ten_for_200", "ten_for_200_value", "mercy_margin",
    }
)  # fmt: skip
_DEFAULTS = Rules().to_dict()


def stored_rules(rules: Rules) -> dict[str, Any]:
    """The options a stored game names (see ``ALWAYS_STORED``)."""
    return {name: value for name, value in rules.to_dict().items() if name in ALWAYS_STORED or value != _DEFAULTS[name]}


@functools.lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> str:
    """A game's rules never change: encoded once, not on every move."""
    return json.dumps(stored_rules(rules), separators=(",", ":"))


def to_dict(state: GameState) -> dict[str, Any]:
    data = {"schema": _schema(state.seed), "rules": stored_rules(state.rules), **_round_fields(state)}
    data["history"] = [json.loads(_record_json(r)) for r in state.history]
    data["winner"] = list(state.winner) if state.winner is not None else None
    return data


_HISTORY_TEXTS: dict[int, tuple[tuple[RoundRecord, ...], str]] = {}
_HISTORY_TEXTS_SIZE = 4096


def _history_json(history: tuple[RoundRecord, ...]) -> str:
    """The stored form of a game's finished rounds.

    Every state of a round shares one ``history`` tuple (moves copy the state,
    not its rounds), so the text is remembered by that tuple's identity: each
    move then re-encodes only the current round instead of hashing every
    finished one.  The entry holds the tuple, so its id can't be reused while
    remembered; the whole memo is dropped when full (cheap, thread-safe)."""
    hit = _HISTORY_TEXTS.get(id(history))
    if hit is not None and hit[0] is history:
        return hit[1]
    text = "[" + ",".join(_record_json(r) for r in history) + "]"
    if len(_HISTORY_TEXTS) >= _HISTORY_TEXTS_SIZE:
        _HISTORY_TEXTS.clear()
    _HISTORY_TEXTS[id(history)] = (history, text)
    return text


def from_dict(data: dict[str, Any]) -> GameState:
    schema = data.get("schema")
    if schema not in (1, 2):
        raise SchemaError(f"unsupported game schema {schema!r} (this engine reads 1 to {SCHEMA_VERSION})")
    seed = _stored_seed(schema, data["seed"])
    rules = rules_from_dict(data["rules"])
    deck = rules.deck
    return GameState(
        rules=rules,
        seed=seed,
        round=data["round"],
        phase=data["phase"],
        hands=tuple(data["hands"]),
        bids=tuple(data["bids"]),
        plays=_plays_tuple(data["plays"], deck),
        leader=data["leader"],
        tricks_won=tuple(data["tricks_won"]),
        scores=tuple(data["scores"]),
        bags=tuple(data["bags"]),
        history=tuple(_record(r, deck) for r in data["history"]),
        winner=tuple(data["winner"]) if data["winner"] is not None else None,
        blind=tuple(data.get("blind", (False,) * 4)),
        looked=tuple(data.get("looked", (False,) * 4)),
        passes=tuple(data.get("passes", (0,) * 4)),
    )


def _stored_seed(schema: int, seed: Any) -> Seed:
    """A document's seed, checked for its schema's form; the error never shows it (it may be a secret)."""
    fits = is_secret(seed) if schema == 2 else isinstance(seed, int) and not isinstance(seed, bool)
    if not fits:
        raise SchemaError(f"a schema {schema} game's seed has the wrong form")
    return seed


def _record(stored: list[Any], deck: Deck) -> RoundRecord:
    bids, plays, points, penalties, scores, bags, *house = stored
    blind, passes = house or ([], [])
    return RoundRecord(
        tuple(bids), _plays_tuple(plays, deck), tuple(points), tuple(penalties), tuple(scores), tuple(bags),
        tuple(blind), tuple(passes),
    )  # fmt: skip


def to_json(state: GameState) -> str:
    """Compact JSON for storage (the same text as ``json.dumps(to_dict(state))``)."""
    return _document(state, _history_json(state.history))


def to_json_parts(state: GameState) -> tuple[str, str]:
    """The storage form in two parts: the document with no finished rounds
    (``"history":[]``) and the finished rounds' JSON array.  A store can keep
    them apart and rewrite the rounds only when one ends, instead of the whole
    game on every move; :func:`from_json` joins them again."""
    return _document(state, "[]"), _history_json(state.history)


def _document(state: GameState, history_text: str) -> str:
    winner = "null" if state.winner is None else json.dumps(list(state.winner), separators=(",", ":"))
    fields = _round_fields_json(state)
    rules = _rules_json(state.rules)
    return f'{{"schema":{_schema(state.seed)},"rules":{rules},{fields},"history":{history_text},"winner":{winner}}}'


def from_json(text: str | bytes, rounds: str | bytes | None = None) -> GameState:
    """The state stored by :func:`to_json`, or by :func:`to_json_parts` as
    ``(text, rounds)``; raises :class:`SchemaError`."""
    data = json.loads(text)
    if rounds is not None:
        if data.get("history"):
            raise SchemaError("finished rounds stored twice")
        data["history"] = json.loads(rounds)
    return from_dict(data)
