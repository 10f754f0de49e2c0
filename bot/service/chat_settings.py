"""The ``/settings`` menu of a chat: the settings as they apply, the menu's pages, a change.

What each setting may be and where it is kept is ``bot.service.settings``; here are the use
cases: :meth:`SettingsMenu.chat_settings` (the settings now), :meth:`SettingsMenu.settings_view`
(a page of the menu, to the chat or to the user), :meth:`SettingsMenu.change_setting` (an
admin's change, checked: a game's default option must make valid rules with the chat's other
defaults), and the chat's deck style, kept where ``/style`` keeps it.
"""

from __future__ import annotations

import logging

from bot.domain.events import Audience, ChatRef, Result, UserRef
from bot.service import seats as seating
from bot.service.core import TableCore
from bot.service.games import OptionValue
from bot.service.settings import (
    GAME_OPTIONS,
    OPEN_CHOICES,
    RESET,
    STYLE_CHOICES,
    STYLE_KIND,
    TIMER_CHOICES,
    ChatSettings,
    Choice,
    SettingsView,
    SettingValue,
    decode_value,
    is_timer,
    option_spec,
)
from bot.service.tables import Refused, rule_text
from bot.service.usecase import use_case

logger = logging.getLogger(__name__)

__all__ = ["SettingsMenu"]


class SettingsMenu:
    """A chat's settings use cases (see the module docstring), given the tables."""

    def __init__(self, tables: TableCore) -> None:
        self.tables = tables

    async def chat_settings(self, chat: ChatRef) -> ChatSettings:
        """The chat's settings (``/settings``) as they apply now."""
        raw = await self.tables.kept_settings.raw(chat.platform, chat.chat_id)
        games = tuple(g for g in self.tables.registry.names if g in GAME_OPTIONS)
        defaults: dict[str, dict[str, OptionValue]] = {}
        for game in games:
            found = await self.tables.kept_settings.game_defaults(chat.platform, chat.chat_id, game)
            if found:
                defaults[game] = found
        timer = raw.get("timer")
        open_mode = raw.get("open")
        return ChatSettings(
            platform=chat.platform,
            chat_id=chat.chat_id,
            language=await self.tables.languages.chat_choice(chat.platform, chat.chat_id),
            style=await self._chat_style(chat),
            pictures=raw.get("pictures") is not False,
            timer=timer if is_timer(timer) else None,
            default_timer=int(self.tables.timers.autoplay) if self.tables.timers.enabled else 0,
            open=open_mode if isinstance(open_mode, str) and open_mode in OPEN_CHOICES else "all",
            rejoin=raw.get(seating.REJOIN) is True,
            defaults=defaults,
            languages=self.tables.languages.locales,
            games=games,
        )

    async def settings_view(
        self,
        chat: ChatRef,
        user: UserRef,
        *,
        page: str = "main",
        public: bool = True,
        saved: str | None = None,
    ) -> Result:
        """The settings menu (a :class:`SettingsView`) for the chat (``public``) or the user."""
        settings = await self.chat_settings(chat)
        if public:
            audience = Audience("chat", chat.platform, chat.chat_id)
        else:
            audience = Audience("user", user.platform, user.user_id)
        locale = await self.tables.languages.locale_for(chat, user, public=public)
        view = SettingsView(
            audience=audience,
            locale=locale,
            settings=settings,
            page=_settings_page(page, settings),
            saved=saved,
        )
        return Result([view])

    @use_case
    async def change_setting(
        self,
        chat: ChatRef,
        user: UserRef,
        key: str,
        value: SettingValue,
        *,
        is_admin: bool,
        public: bool = True,
    ) -> Result:
        """Change one setting of the chat (an admin's, or anyone's in a private chat: the
        adapter says which with ``is_admin``); ``value`` a choice or its button text
        (``settings.encode_value``), ``settings.RESET`` for the bot's default. Answers with the
        settings menu where the change shows."""
        if not is_admin:
            raise Refused("not_admin")
        page = await self._apply_setting(chat, user, key, value)
        logger.info(
            "chat %s:%s: setting %s changed by %s",
            chat.platform,
            chat.chat_id,
            key,
            user.user_id,
            extra={"platform": chat.platform},
        )
        return await self.settings_view(chat, user, page=page, public=public, saved=key)

    async def pictures_on(self, platform: str, chat_id: str) -> bool:
        """Whether the chat wants card pictures (``/settings``; on unless switched off)."""
        raw = await self.tables.kept_settings.raw(platform, chat_id)
        return raw.get("pictures") is not False

    async def set_max_open_tables(self, chat: ChatRef, count: int) -> None:
        """Let a chat hold more than one open table (an admin setting)."""
        current = await self.tables.store.chat(platform=chat.platform, chat_id=chat.chat_id)
        await self.tables.store.set_chat(
            platform=chat.platform,
            chat_id=chat.chat_id,
            locale=current.locale,
            max_open_tables=max(1, count),
        )

    async def _apply_setting(
        self, chat: ChatRef, user: UserRef, key: str, value: SettingValue
    ) -> str:
        """Validate and store one setting; the settings page to show after it."""
        key = key.strip()
        reset = value is None or value == RESET
        where = {"platform": chat.platform, "chat_id": chat.chat_id}
        if key == "lang":
            if reset:
                await self.tables.languages.reset_chat_language(chat)
                return "main"
            changed = await self.tables.languages.set_language(str(value), user=user, chat=chat)
            if changed.refusal is not None:
                raise Refused("bad_setting", changed.refusal.detail, key=key)
            return "main"
        if key == "style":
            style = "default" if reset else _choice(key, value, STYLE_CHOICES)
            await self._set_chat_style(chat, None if style == "default" else style)
            return "main"
        simple: dict[str, tuple[OptionValue, ...]] = {
            "pictures": (True, False),
            "timer": TIMER_CHOICES,
            "open": OPEN_CHOICES,
            seating.REJOIN: (True, False),
        }
        if key in simple:
            chosen = None if reset else _choice(key, value, simple[key])
            await self.tables.kept_settings.put(chosen, **where, key=key)
            return "main"
        game, _, name = key.partition(".")
        kind = self.tables.registry.get(game)
        spec = option_spec(game, name)
        if kind is None or spec is None:
            raise Refused("bad_setting", f"unknown setting {key!r}", key=key)
        if reset:
            await self.tables.kept_settings.put(None, **where, key=key)
            return f"game.{game}"
        chosen = _choice(key, value, spec.choices)
        defaults = await self.tables.kept_settings.game_defaults(chat.platform, chat.chat_id, game)
        defaults[name] = chosen
        try:
            kind.rules(kind.default_players, defaults)
        except (ValueError, TypeError) as exc:
            raise Refused("bad_setting", str(exc), key=key, **rule_text(exc)) from exc
        await self.tables.kept_settings.put(chosen, **where, key=key)
        return f"game.{game}"

    async def _chat_style(self, chat: ChatRef) -> str | None:
        getter = getattr(self.tables.store, "state_get", None)
        if getter is None:
            return None
        try:
            found = await getter(platform=chat.platform, kind=STYLE_KIND, scope=chat.chat_id)
        except ValueError:  # a chat id the adapter state cannot hold
            return None
        return found if isinstance(found, str) and found in STYLE_CHOICES else None

    async def _set_chat_style(self, chat: ChatRef, style: str | None) -> None:
        # The same entry /style writes (bot.render.pictures), so both always agree.
        platform, scope = chat.platform, chat.chat_id
        if style is None:
            await self.tables.store.state_delete(platform=platform, kind=STYLE_KIND, scope=scope)
        else:
            await self.tables.store.state_put(
                style, platform=platform, kind=STYLE_KIND, scope=scope
            )


def _choice(key: str, value: SettingValue, choices: tuple[Choice, ...]) -> Choice:
    """The choice ``value`` names (itself, or its button text); Refused("bad_setting")."""
    if isinstance(value, str):
        try:
            return decode_value(value, choices)
        except ValueError as exc:
            raise Refused("bad_setting", str(exc), key=key) from exc
    for choice in choices:
        if type(choice) is type(value) and choice == value:
            return choice
    raise Refused("bad_setting", f"{key} cannot be {value!r}", key=key)


def _settings_page(page: str, settings: ChatSettings) -> str:
    """A page of the settings menu that exists (anything else: the main page)."""
    if page in ("main", "lang", "style", "timer", "open"):
        return page
    kind, _, rest = page.partition(".")
    if kind == "game" and rest in settings.games:
        return page
    if kind == "option":
        game, _, name = rest.partition(".")
        if game in settings.games and option_spec(game, name) is not None:
            return page
    return "main"
