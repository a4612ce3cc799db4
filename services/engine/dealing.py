"""Deals: the four hands of every round, a pure function of the game's seed.

A game's seed has one of two forms, and its form alone says how it deals
(:func:`deal` is the one place that decides):

* a **secret**, 64 hex digits (256 bits from :func:`secrets.token_bytes`): the
  deal of every game whose seed the server picks.  SHAKE-256 over the secret
  and the round number is the random stream (a cryptographic, deterministic
  generator); one byte at a time, with rejection so no hand is likelier than
  another, it drives a Fisher-Yates shuffle.  Nobody without the secret can
  foresee a card, and the same secret always deals the same rounds.
* an **integer** (0 to 2**63 - 1): a seed the client chose (match mode,
  tournaments, recorded decisions) and every game stored before secrets
  existed.  Python's ``random.Random`` (Mersenne Twister, whose sequence
  Python guarantees across versions) drives the shuffle, so those games and
  every recorded figure replay exactly.  Whoever chose such a seed can
  compute every deal: that is what a chosen seed is for.

Both shuffle the game's deck (``rules.deck.cards``) in index order and give
each seat thirteen consecutive cards of it.
"""

from __future__ import annotations

import functools
import hashlib
import random
import secrets

from .cards import cards_in, mask_of

Seed = int | str  # a chosen integer seed, or a secret (hex); see the module docstring
SECRET_BYTES = 32  # 256 bits: the secret of a game whose seed the server picks
_SECRET_DIGITS = 2 * SECRET_BYTES
_HEX_DIGITS = frozenset("0123456789abcdef")
_DOMAIN = b"spades deal v2\x00"  # keeps this stream apart from any other use of the secret
_FIRST_READ = 96  # stream bytes read at first: a 52-card shuffle uses about 55
_BYTE_LIMITS = tuple(256 - 256 % span if span else 0 for span in range(257))  # bytes below it map evenly onto span
HAND_CARDS = 13
SEATS = 4


def new_secret() -> str:
    """256 unpredictable bits, as a game's seed."""
    return secrets.token_bytes(SECRET_BYTES).hex()


def is_secret(seed: object) -> bool:
    """Whether ``seed`` has the form of a secret (64 lowercase hex digits)."""
    return isinstance(seed, str) and len(seed) == _SECRET_DIGITS and _HEX_DIGITS.issuperset(seed)


def deal(seed: Seed, round_no: int, deck_cards: int = (1 << 52) - 1) -> tuple[int, ...]:
    """The four 13-card hands of round ``round_no``, uniformly at random from ``seed``.
    ``deck_cards`` is the game's deck (``rules.deck.cards``)."""
    deck = list(_in_order(deck_cards))
    if isinstance(seed, str):
        _shake_shuffle(deck, seed, round_no)
    else:
        _twister_shuffle(deck, seed, round_no)
    return tuple(mask_of(deck[s * HAND_CARDS : (s + 1) * HAND_CARDS]) for s in range(SEATS))


@functools.lru_cache(maxsize=16)
def _in_order(deck_cards: int) -> tuple[int, ...]:
    return tuple(cards_in(deck_cards))


def _shake_shuffle(deck: list[int], secret: str, round_no: int) -> None:
    """Fisher-Yates over the SHAKE-256 stream of ``secret`` and ``round_no``: each index drawn from
    one byte, a byte at or above the largest multiple of the range refused (no modulo bias)."""
    if not is_secret(secret):
        raise ValueError("a secret seed is 64 lowercase hex digits")  # never the value: it may be a secret
    stream = hashlib.shake_256(_DOMAIN + bytes.fromhex(secret) + round_no.to_bytes(8, "big"))
    size = _FIRST_READ
    data = stream.digest(size)
    pos = 0
    for i in range(len(deck) - 1, 0, -1):
        span = i + 1
        limit = _BYTE_LIMITS[span]
        while True:
            if pos == size:  # rare: SHAKE's output is prefix-stable, so reading more continues the stream
                size *= 2
                data = stream.digest(size)
            byte = data[pos]
            pos += 1
            if byte < limit:
                break
        j = byte % span
        deck[i], deck[j] = deck[j], deck[i]


def _twister_shuffle(deck: list[int], seed: int, round_no: int) -> None:
    """Fisher-Yates over ``Random.random`` (the stream Python keeps stable), as every stored integer seed deals."""
    rng = random.Random(f"spades:{seed}:{round_no}")
    for i in range(len(deck) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
