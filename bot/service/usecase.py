"""The ritual of a use case, written once: :func:`use_case` wraps a use case's method (or
function) whose first arguments are its owner, the chat and the user, so that a
:class:`~bot.service.tables.Refused` raised anywhere in it becomes the :class:`Result` refusing
it, in the language of the one who asked. The owner is anything holding the tables (the use-case
objects, :class:`~bot.service.turns.Turns`, the service itself). Holding a table's lock is
``TableCore.table`` (a table found from the chat) or ``TableCore.held`` (a table by id)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar

from bot.domain.events import ChatRef, Result, UserRef
from bot.service.tables import Refused

if TYPE_CHECKING:
    from bot.service.core import TableCore

__all__ = ["HoldsTables", "use_case"]


class HoldsTables(Protocol):
    """The owner of a use case: it holds the tables (and through them, the languages)."""

    @property
    def tables(self) -> TableCore: ...


Owner = TypeVar("Owner", bound=HoldsTables)
P = ParamSpec("P")
UseCase = Callable[Concatenate[Owner, ChatRef, UserRef, P], Awaitable[Result]]


def use_case(method: UseCase[Owner, P]) -> UseCase[Owner, P]:
    """``method``, answering a refusal raised in it in the asker's language."""

    @functools.wraps(method)
    async def run(
        owner: Owner, chat: ChatRef, user: UserRef, /, *args: P.args, **kw: P.kwargs
    ) -> Result:
        try:
            return await method(owner, chat, user, *args, **kw)
        except Refused as refused:
            return await owner.tables.languages.refusal(refused, chat, user)

    return run
