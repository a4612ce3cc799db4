"""The operator API: the fair-play watch's flags, listed and decided with the server's operator token (never a
player's), sent per call so one client can be a player and an operator's tool without mixing the two.

:class:`OperatorMethods` is part of :class:`spades_client.client.SpadesClient`; the models are the contract's
``FairPlayFlag``, ``FairPlayFlagsPage`` and ``DecidedFairPlayFlag``, held to it by
``tests/clients/test_models_match_spec.py`` like every other model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from spades_client.models import Body

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

OPERATOR_OPERATIONS: dict[str, tuple[str, str]] = {
    "listFairPlayFlags": ("GET", "/v1/operator/flags"),
    "decideFairPlayFlag": ("POST", "/v1/operator/flags/{flag_id}/decision"),
}


@dataclass
class FairPlayFlag(Body):
    """A flag the fair-play watch raised: ``kind`` ``sandbagging``, ``boosting`` or ``accuracy``; ``status``
    ``open``, ``cleared`` or ``confirmed``; ``player`` ``{"id", "name"}``."""

    SCHEMA: ClassVar[str] = "FairPlayFlag"
    id: str
    player: dict[str, Any]
    kind: str
    status: str
    raised_ms: int
    decided_ms: int | None
    games: list[str]
    detail: dict[str, Any]


@dataclass
class FairPlayFlagsPage(Body):
    SCHEMA: ClassVar[str] = "FairPlayFlagsPage"
    flags: list[FairPlayFlag]
    next: str | None


@dataclass
class DecidedFairPlayFlag(Body):
    """A flag as decided, with the games a confirmation removed from the ratings now."""

    SCHEMA: ClassVar[str] = "DecidedFairPlayFlag"
    flag: FairPlayFlag
    removed_games: list[str]


OPERATOR_MODELS: tuple[type[Body], ...] = (FairPlayFlag, FairPlayFlagsPage, DecidedFairPlayFlag)


class OperatorMethods:
    """The operator's operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def list_fair_play_flags(
        self: SpadesClient, operator_token: str, status: str = "open", after: str | None = None, limit: int = 50
    ) -> FairPlayFlagsPage:
        """One page of the flags of ``status``, oldest first; pass ``next`` back as ``after``."""
        params: dict[str, object] = {"status": status, "limit": limit}
        if after is not None:
            params["after"] = after
        headers = {"Authorization": f"Bearer {operator_token}"}
        return FairPlayFlagsPage.from_dict(self._call("listFairPlayFlags", params=params, headers=headers).json())

    def iter_fair_play_flags(self: SpadesClient, operator_token: str, status: str = "open") -> Iterator[FairPlayFlag]:
        """Every flag of ``status``, page after page."""
        after: str | None = None
        while True:
            page = self.list_fair_play_flags(operator_token, status, after)
            yield from page.flags
            if page.next is None:
                return
            after = page.next

    def decide_fair_play_flag(
        self: SpadesClient, operator_token: str, flag_id: str, decision: str
    ) -> DecidedFairPlayFlag:
        """``decision`` ``clear`` or ``confirm`` (a flag is decided once: :class:`~spades_client.errors.Conflict`)."""
        answer = self._call(
            "decideFairPlayFlag",
            flag_id=flag_id,
            json={"decision": decision},
            headers={"Authorization": f"Bearer {operator_token}"},
            resend_after_fault=False,
        )
        return DecidedFairPlayFlag.from_dict(answer.json())
