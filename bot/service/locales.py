"""The languages of the service's messages, and the caches behind them.

Which language an event speaks is settled here, once, so adapters only render:

* a chat's events (tables, announcements): the chat's choice (``/lang``, ``/settings``), else
  its platform's hint (Discord: the server's preferred locale, :meth:`Languages.chat_hint`),
  else the bot's default;
* a user's events (hands, turn notices, refusals): the user's choice, else their platform's
  hint (Telegram's ``language_code``), else the chat's language, else the default.

Choices are read from the store once and kept; a change made here updates the copy and moves
the epoch on, which drops every table's cached seat languages.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from bot.domain import TableRow, TableStore
from bot.domain.events import ChatRef, Refusal, Result, UserRef
from bot.service.tables import Live, Refused

__all__ = ["Languages"]


class Languages:
    """The languages of :class:`bot.service.TableService` (``service.languages``): choices,
    hints and resolution."""

    def __init__(
        self,
        store: TableStore,
        *,
        default_locale: str,
        locales: Sequence[str],
        hints_kept: int,
    ) -> None:
        self.store = store
        self.default_locale = default_locale
        self.locales = tuple(locales)
        self._chat_locales: dict[tuple[str, str], str | None] = {}
        self._user_locales: dict[tuple[str, str], str | None] = {}
        # Platform language hints of chats (Discord: the server's preferred locale), in memory
        # for the most recent chats.
        self._chat_hints: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._hints_kept = max(hints_kept, 1)
        # Moves on with every language change anywhere: tables' cached seat languages expire.
        self._locale_epoch = 0

    async def set_language(
        self,
        locale: str,
        *,
        user: UserRef,
        chat: ChatRef | None = None,
    ) -> Result:
        """Set the language of the chat (when ``chat`` is given) or else of the user."""
        code = locale.strip().lower()[:2]
        if code not in self.locales:
            return await self.refusal(
                Refused("bad_locale", ", ".join(self.locales), locale=locale), chat, user
            )
        if chat is not None:
            current = await self.store.chat(platform=chat.platform, chat_id=chat.chat_id)
            await self.store.set_chat(
                platform=chat.platform,
                chat_id=chat.chat_id,
                locale=code,
                max_open_tables=current.max_open_tables,
            )
            self._chat_locales[(chat.platform, chat.chat_id)] = code
            self._locale_epoch += 1
        else:
            await self.store.set_user_locale(
                platform=user.platform, user_id=user.user_id, name=user.name, locale=code
            )
            self._user_locales[(user.platform, user.user_id)] = code
            self._locale_epoch += 1
        return Result()

    async def reset_chat_language(self, chat: ChatRef) -> None:
        """Forget the chat's own language: its public messages follow the hint or default."""
        current = await self.store.chat(platform=chat.platform, chat_id=chat.chat_id)
        await self.store.set_chat(
            platform=chat.platform,
            chat_id=chat.chat_id,
            locale=None,
            max_open_tables=current.max_open_tables,
        )
        self._chat_locales[(chat.platform, chat.chat_id)] = None
        self._locale_epoch += 1

    def chat_hint(self, chat: ChatRef, locale: str | None) -> None:
        """The platform's language hint for a chat (Discord: the server's preferred locale):
        the chat's public messages use it while the chat has no language of its own. Kept in
        memory for the most recent chats; adapters give it with every interaction."""
        code = self._hint(locale)
        key = (chat.platform, chat.chat_id)
        if code is None or self._chat_hints.get(key) == code:
            return
        self._chat_hints[key] = code
        self._chat_hints.move_to_end(key)
        while len(self._chat_hints) > self._hints_kept:
            self._chat_hints.popitem(last=False)
        self._locale_epoch += 1

    async def chat_locale(self, chat: ChatRef) -> str:
        """The language of the chat's public messages (its own, else its platform hint)."""
        return await self.locale_of_chat(chat.platform, chat.chat_id, None)

    async def user_locale(self, user: UserRef, *, chat: ChatRef | None = None) -> str:
        """The language of a user's private messages (their choice, else their platform hint,
        else the chat's)."""
        return await self.locale_of_user(user, None, chat=chat)

    async def locale_for(self, chat: ChatRef | None, user: UserRef, *, public: bool) -> str:
        """The language of a reply: for a public one the chat's choice first (then the
        user's, their platform's hint, the default); for a private one the user's first."""
        if not public or chat is None:
            return await self.locale_of_user(user, None, chat=chat)
        chosen = await self.chat_choice(chat.platform, chat.chat_id)
        if chosen:
            return chosen
        return await self.locale_of_user(user, None)

    async def refusal(self, r: Refused, chat: ChatRef | None, user: UserRef) -> Result:
        """The answer refusing ``r``, in the language of the one who asked."""
        locale = await self.locale_of_user(user, None, chat=chat)
        return Result(refusal=Refusal(r.code, locale, r.detail, dict(r.params)))

    async def _user_choice(self, platform: str, user_id: str) -> str | None:
        key = (platform, user_id)
        if key not in self._user_locales:
            self._user_locales[key] = await self.store.user_locale(
                platform=platform, user_id=user_id
            )
        return self._user_locales[key]

    async def chat_choice(self, platform: str, chat_id: str) -> str | None:
        """The chat's own language, ``None`` when it chose none."""
        key = (platform, chat_id)
        if key not in self._chat_locales:
            self._chat_locales[key] = (
                await self.store.chat(platform=platform, chat_id=chat_id)
            ).locale
        return self._chat_locales[key]

    def _hint(self, hint: str | None) -> str | None:
        code = (hint or "")[:2].lower()
        return code if code in self.locales else None

    def forget_chat(self, platform: str, chat_id: str) -> None:
        """Forget what is known of a chat's language (it is read again when asked)."""
        self._chat_locales.pop((platform, chat_id), None)

    async def table_locale(self, row: TableRow) -> str:
        """The language of a table's public messages (its chat's)."""
        key = (row.platform, row.chat_id)
        found = self._chat_locales.get(key)
        if found is not None:
            return found
        return await self.locale_of_chat(row.platform, row.chat_id, None)

    async def locale_of_chat(self, platform: str, chat_id: str, hint: str | None) -> str:
        """A chat's language: its choice, its platform hint, ``hint``, the default."""
        return (
            await self.chat_choice(platform, chat_id)
            or self._chat_hints.get((platform, chat_id))
            or self._hint(hint)
            or self.default_locale
        )

    async def locale_of_user(
        self, user: UserRef, row: TableRow | None, *, chat: ChatRef | None = None
    ) -> str:
        """A user's language: their choice, their hint, the table's or chat's, the default."""
        chosen = await self._user_choice(user.platform, user.user_id)
        if chosen:
            return chosen
        hint = self._hint(user.locale)
        if hint:
            return hint
        if row is not None:
            return await self.table_locale(row)
        if chat is not None:
            return await self.locale_of_chat(chat.platform, chat.chat_id, None)
        return self.default_locale

    async def seat_locale(self, live: Live, seat: int) -> str:
        """The language of a seat's private messages."""
        # Cached on the table until a language setting changes anywhere (the epoch).
        if live.locales_epoch != self._locale_epoch:
            live.locales = {}
            live.locales_epoch = self._locale_epoch
        found = live.locales.get(seat)
        if found is None:
            sitter = live.row.seats[seat]
            assert sitter is not None
            chosen = await self._user_choice(sitter.platform, sitter.user_id)
            found = chosen or self._hint(sitter.hint) or await self.table_locale(live.row)
            live.locales[seat] = found
        return found
