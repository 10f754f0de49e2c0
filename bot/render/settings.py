"""The settings menu of a chat (``/settings``) and the sources line of ``/rules``, in words.

``render_settings(renderer, event)`` turns a :class:`bot.service.settings.SettingsView` into a
:class:`bot.render.Message`: the settings as they apply now and buttons to change them. Button
data is ``cfg:@<page>`` (show a page) or ``cfg:<key>=<value>`` (set; ``*`` = back to the
default), at most 64 bytes; adapters give it back to ``TableService.change_setting`` /
``settings_view`` through :func:`parse_settings_data`.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping

from bot.render.kit import Translator
from bot.render.texts import DEFAULT_STYLE, GAME_NAMES, STYLE_LABELS, Button, Message
from bot.service.settings import (
    GAME_OPTIONS,
    OPEN_CHOICES,
    RESET,
    SETTINGS_PREFIX,
    STYLE_CHOICES,
    TIMER_CHOICES,
    ChatSettings,
    SettingsView,
    encode_value,
    option_spec,
)

__all__ = [
    "OPTION_LABELS",
    "option_label",
    "parse_settings_data",
    "render_settings",
    "settings_data",
    "sources_text",
    "value_label",
]

MAX_DATA_BYTES = 64


def N_(message: str) -> str:
    """Marks a string for extraction, translated later."""
    return message


# Rule options in words (the option keys are the engines').
OPTION_LABELS = {
    "target": N_("Points to win"),
    "primiera_missing_suit": N_("Primiera when a side lacks a suit"),
    "napola": N_("Napola"),
    "re_bello": N_("Re bello"),
    "win_by_two": N_("Win by two"),
    "asso_piglia_tutto": N_("Asso piglia tutto"),
    "scopa_a_15": N_("Scopa a 15"),
    "obbligo_di_presa": N_("Obbligo di presa"),
    "fuori": N_("Fuori"),
    "elimination": N_("Score that eliminates a player"),
    "opening_points": N_("Points needed to open"),
    "jokers_per_meld": N_("Jokers allowed in one meld"),
    "close_in_hand": N_("Closing in hand without having opened"),
    "unopened_pays": N_("What a player who never opened pays"),
    "discard_attachable": N_("Discarding a card that fits a meld"),
    "dealer_fourteen": N_("Dealer gets 14 cards"),
    "first_pile_card_free": N_("First discard free to take"),
    "reentry": N_("Re-entry after elimination"),
    "max_restocks": N_("Times the stock may be remade (0: no limit)"),
    "rejoin": N_("Players who leave may come back"),
    "deal_scoring": N_("How a deal counts"),
    "swap": N_("Swap of the briscola 2 or 7"),
    "deals": N_("Number of deals"),
    "point_bids": N_("Point bids after the 2"),
    "cappotto": N_("Cappotto doubles the scores"),
    "removed_two": N_("The 2 taken out at 3 players"),
}
# Briscola's target when deals are won, not counted in points.
GAMES_TO_WIN = N_("Games to win")
# Option values in words (numbers are shown as they are).
VALUE_LABELS = {
    "void": N_("strict (no suit, no primiera)"),
    "lenient": N_("lenient"),
    "double": N_("pay double"),
    "bonus": N_("bonus to the closer"),
    "off": N_("no effect"),
    "sum": N_("the sum of the hand"),
    "100": N_("a flat 100"),
    "allowed": N_("allowed"),
    "forbidden": N_("forbidden"),
    "win": N_("one game to the deal's winner"),
    "points": N_("card points add up"),
    "two": N_("the 2"),
    "seven": N_("the 7"),
    "2D": N_("the 2 of Coins"),
    "2C": N_("the 2 of Cups"),
    "2S": N_("the 2 of Swords"),
    "2B": N_("the 2 of Clubs"),
}
# Where one option names a value otherwise (Briscola's swap "off" is no swap, not "no effect").
OPTION_VALUE_LABELS: Mapping[str, Mapping[str, str]] = {"swap": {"off": N_("no swap")}}
LANGUAGE_NAMES = {"it": N_("Italiano"), "en": N_("English")}
OPEN_LABELS = {"all": N_("everyone"), "admins": N_("admins only")}
SOURCE_LABELS = {
    "game": N_("game default"),
    "chat": N_("chat setting"),
    "command": N_("this table's command"),
}


def settings_data(action: str) -> str:
    """A settings button's data; ``ValueError`` past Telegram's 64 bytes."""
    data = SETTINGS_PREFIX + action
    if len(data.encode()) > MAX_DATA_BYTES:
        raise ValueError(f"settings button data too long: {data!r}")
    return data


def parse_settings_data(data: str) -> tuple[str, str | None]:
    """``cfg:@timer`` -> ``("timer", None)`` (a page); ``cfg:timer=30`` -> ``("timer", "30")``
    (a change); ``ValueError`` for data that is not a settings button."""
    if not data.startswith(SETTINGS_PREFIX):
        raise ValueError(f"not a settings button: {data!r}")
    body = data[len(SETTINGS_PREFIX) :]
    if body.startswith("@") and len(body) > 1:
        return body[1:], None
    key, sep, value = body.partition("=")
    if not sep or not key:
        raise ValueError(f"not a settings button: {data!r}")
    return key, value


def option_label(
    name: str, t: gettext.NullTranslations, options: Mapping[str, object] | None = None
) -> str:
    """An option's name in words; with the table's ``options``, the words that fit them (a
    Briscola match won deal by deal counts games, not points)."""
    if name == "target" and options is not None and options.get("deal_scoring") == "win":
        return t.gettext(GAMES_TO_WIN)
    return t.gettext(OPTION_LABELS.get(name, name))


def shown_options(options: Mapping[str, object], players: int | None) -> dict[str, object]:
    """The options worth showing at a table of ``players`` (``None``: unknown, all of them):
    Briscola's 2 taken out matters only at 3 players."""
    return {
        k: v
        for k, v in options.items()
        if not (k == "removed_two" and players is not None and players != 3)
    }


def value_label(value: object, t: gettext.NullTranslations, option: str | None = None) -> str:
    """A rule option's value in words: yes/no, the named choices (``option``'s own words first,
    when given), numbers as they are."""
    _ = t.gettext
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    text = str(value)
    own = OPTION_VALUE_LABELS.get(option or "", {})
    if text in own:
        return _(own[text])
    return _(VALUE_LABELS[text]) if text in VALUE_LABELS else text


def timer_label(seconds: int, t: gettext.NullTranslations) -> str:
    _ = t.gettext
    if seconds <= 0:
        return _("no time limit")
    if seconds % 3600 == 0:
        return _("{n} h").format(n=seconds // 3600)
    if seconds % 60 == 0:
        return _("{n} min").format(n=seconds // 60)
    return _("{n} s").format(n=seconds)


def sources_text(
    options: Mapping[str, object], sources: Mapping[str, str], t: gettext.NullTranslations
) -> str:
    """Where the table's options came from, one line per source that set any, e.g.
    "Chat setting: Points to win 16" (the rest: the game's defaults)."""
    _ = t.gettext
    lines = []
    for source in ("command", "chat"):
        named = [
            f"{option_label(k, t, options)} {value_label(options[k], t, k)}"
            for k in sorted(options)
            if sources.get(k) == source
        ]
        if named:
            label = _(SOURCE_LABELS[source])
            lines.append(f"{label[:1].upper()}{label[1:]}: {', '.join(named)}")
    if lines:
        lines.append(_("Every other option: the game's default."))
    else:
        lines.append(_("Every option: the game's default."))
    return "\n".join(lines)


def render_settings(renderer: Translator, event: SettingsView) -> Message:
    """The settings menu page of ``event`` (text and buttons) in the event's language."""
    t = renderer.translations(event.locale)
    s = event.settings
    page = event.page
    if page.startswith("game."):
        return _game_page(renderer, s, page.removeprefix("game."), t)
    if page.startswith("option."):
        game, _, name = page.removeprefix("option.").partition(".")
        return _option_page(renderer, s, game, name, t)
    if page in ("lang", "style", "timer", "open"):
        return _choice_page(s, page, t)
    return _main_page(renderer, s, t, saved=event.saved)


def _b(label: str, action: str) -> Button:
    return Button(label, settings_data(action))


def _back(t: gettext.NullTranslations, page: str = "main") -> Button:
    return _b(t.gettext("« Back"), "@" + page)


def _language(s: ChatSettings, t: gettext.NullTranslations) -> str:
    if s.language is None:
        return t.gettext("each player's own")
    return t.gettext(LANGUAGE_NAMES.get(s.language, s.language))


def _style(s: ChatSettings, t: gettext.NullTranslations) -> str:
    key = s.style or DEFAULT_STYLE
    return t.gettext(STYLE_LABELS.get(key, key))


def _timer(s: ChatSettings, t: gettext.NullTranslations) -> str:
    text = timer_label(s.turn_time, t)
    if s.timer is None:
        text += " " + t.gettext("(the bot's default)")
    return text


def _defaults_line(
    renderer: Translator, s: ChatSettings, game: str, t: gettext.NullTranslations
) -> str:
    chosen = s.defaults.get(game, {})
    name = _game(game, t)
    if not chosen:
        return f"{name}: " + t.gettext("the game's defaults")
    parts = [f"{option_label(k, t)} {value_label(v, t, k)}" for k, v in chosen.items()]
    return f"{name}: " + ", ".join(parts)


def _game(game: str, t: gettext.NullTranslations) -> str:
    return t.gettext(GAME_NAMES.get(game, game))


def _main_page(
    renderer: Translator, s: ChatSettings, t: gettext.NullTranslations, *, saved: str | None
) -> Message:
    _ = t.gettext
    on_off = _("on") if s.pictures else _("off")
    lines = [
        _("Settings of this chat"),
        _("Language: {value}").format(value=_language(s, t)),
        _("Deck style: {value}").format(value=_style(s, t)),
        _("Card pictures: {value}").format(value=on_off),
        _("Turn timer: {value}").format(value=_timer(s, t)),
        _("Who may open tables: {value}").format(value=_(OPEN_LABELS.get(s.open, s.open))),
        _("Players who leave may come back: {value}").format(value=value_label(s.rejoin, t)),
        _("Default options of each game:"),
        *(" · " + _defaults_line(renderer, s, game, t) for game in s.games),
    ]
    if saved is not None:
        lines.append("✓ " + _("Saved."))
    rows: list[tuple[Button, ...]] = [
        (_b(_("Language"), "@lang"), _b(_("Deck style"), "@style")),
        (
            _b(
                _("Pictures: {value}").format(value=on_off),
                f"pictures={encode_value(not s.pictures)}",
            ),
            _b(_("Turn timer"), "@timer"),
        ),
        (
            _b(_("Who may open tables"), "@open"),
            _b(
                _("Leavers come back: {value}").format(value=value_label(s.rejoin, t)),
                f"rejoin={encode_value(not s.rejoin)}",
            ),
        ),
    ]
    games = [_b(_game(g, t), f"@game.{g}") for g in s.games]
    # Two rows hold the games (Discord shows 5 rows): two a row up to four games, then three.
    per_row = 2 if len(games) <= 4 else 3
    for i in range(0, len(games), per_row):
        rows.append(tuple(games[i : i + per_row]))
    return Message("\n".join(lines), tuple(rows[:5]))


def _choice_page(s: ChatSettings, page: str, t: gettext.NullTranslations) -> Message:
    _ = t.gettext
    current: object
    if page == "lang":
        title = _("Language of this chat's public messages:")
        choices = [(code, _(LANGUAGE_NAMES.get(code, code))) for code in s.languages]
        choices.append((RESET, _("each player's own")))
        current = s.language or RESET
    elif page == "style":
        title = _("Deck style of the card pictures:")
        choices = [(style, _(STYLE_LABELS.get(style, style))) for style in STYLE_CHOICES]
        current = s.style or "default"
    elif page == "timer":
        title = _("Time for a turn (then a reminder, then the computer plays it):")
        choices = [(str(v), timer_label(v, t)) for v in TIMER_CHOICES]
        default = timer_label(s.default_timer, t)
        choices.append((RESET, _("the bot's default ({value})").format(value=default)))
        current = RESET if s.timer is None else str(s.timer)
    else:
        title = _("Who may open tables in this chat:")
        choices = [(mode, _(OPEN_LABELS[mode])) for mode in OPEN_CHOICES]
        current = s.open
    buttons = [
        _b(("✓ " if value == current else "") + label, f"{page}={value}")
        for value, label in choices
    ]
    rows = [tuple(buttons[i : i + 3]) for i in range(0, len(buttons), 3)]
    rows.append((_back(t),))
    return Message(title, tuple(rows[:5]))


def _game_page(
    renderer: Translator, s: ChatSettings, game: str, t: gettext.NullTranslations
) -> Message:
    _ = t.gettext
    chosen = s.defaults.get(game, {})
    name = _game(game, t)
    lines = [_("Default options of {game} in this chat:").format(game=name)]
    buttons = []
    for spec in GAME_OPTIONS.get(game, ()):
        label = option_label(spec.name, t, _menu_options(game, chosen))
        if spec.name in chosen:
            value = value_label(chosen[spec.name], t, spec.name)
        else:
            value = _("game default")
        lines.append(f" · {label}: {value}")
        buttons.append(_b(label, f"@option.{game}.{spec.name}"))
    lines.append(_("Options given in a table's command still win over these."))
    # Four rows hold the options (Discord shows 5 rows, one is « Back): two a row up to eight.
    per_row = 2 if len(buttons) <= 8 else 3
    if len(buttons) > 4 * per_row:
        raise ValueError(f"{game} has {len(buttons)} options, the menu shows at most 12")
    rows = [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]
    rows.append((_back(t),))
    return Message("\n".join(lines), tuple(rows))


def _menu_options(game: str, chosen: Mapping[str, object]) -> Mapping[str, object]:
    """The options an option's name depends on: a Briscola match is won in games unless the
    chat chose card points (the menu offers games: 1, 2, 3, 5)."""
    if game == "briscola":
        return {"deal_scoring": chosen.get("deal_scoring", "win")}
    return chosen


def _option_page(
    renderer: Translator, s: ChatSettings, game: str, name: str, t: gettext.NullTranslations
) -> Message:
    _ = t.gettext
    spec = option_spec(game, name)
    if spec is None:
        return _main_page(renderer, s, t, saved=None)
    chosen = s.defaults.get(game, {})
    current = encode_value(chosen[name]) if name in chosen else RESET
    title = _("{game}: {option}").format(
        game=_game(game, t), option=option_label(name, t, _menu_options(game, chosen))
    )
    choices = [(encode_value(v), value_label(v, t, name)) for v in spec.choices]
    choices.append((RESET, _("game default")))
    buttons = [
        _b(("✓ " if value == current else "") + label, f"{game}.{name}={value}")
        for value, label in choices
    ]
    rows = [tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2)]
    rows.append((_back(t, f"game.{game}"),))
    return Message(title, tuple(rows[:5]))
