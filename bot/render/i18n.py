"""Translations: gettext catalogs (domain ``tavolo``) for Italian and English.

The ``.po`` files under ``bot/render/locale/<lang>/LC_MESSAGES/`` are the source; they are
compiled with Babel when first needed (once per process and language), so an installed package
needs no build step and a catalog can never be stale. Message ids are English.

The engine's player-facing errors (``engine.errors.RuleText``: IllegalMove, MoveParseError,
RulesError, CardParseError, and the ``Problem`` reasons its helpers return) carry an English
template and params; the renderer translates the template with these catalogs and fills in the
params, so the templates are message ids here too.

Maintainers: ``pybabel extract -k N_ -k RuleText -k Problem -k IllegalMove -k MoveParseError
-k RulesError -k CardParseError --omit-header --no-location --sort-output
-o bot/render/locale/tavolo.pot bot/ engine/`` (every package: the adapters' own few words,
marked with ``N_``, and the engine's templates live in the same catalogs), then ``pybabel update
-i bot/render/locale/tavolo.pot -d bot/render/locale -D tavolo --no-fuzzy-matching
--ignore-obsolete``, translate what is new in ``it`` and copy each new id into ``en``;
``tests/render/test_rule_texts.py`` checks the catalogs against a fresh extraction.
"""

from __future__ import annotations

import gettext
import io
import logging
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

logger = logging.getLogger(__name__)

__all__ = ["DOMAIN", "LOCALES", "LOCALE_DIR", "Catalogs"]

DOMAIN = "tavolo"
LOCALES: tuple[str, ...] = ("it", "en")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class Catalogs:
    """Compiled translations per language, loaded on first use."""

    def __init__(self, locale_dir: Path = LOCALE_DIR, *, default: str = "it") -> None:
        self.locale_dir = locale_dir
        self.default = default
        self._loaded: dict[str, gettext.NullTranslations] = {}
        self._ids: dict[str, frozenset[str]] = {}

    def get(self, locale: str | None) -> gettext.NullTranslations:
        return self._translations(self._code(locale))

    def knows(self, locale: str | None, message: str) -> bool:
        """Whether ``message`` is a message id translated in ``locale``'s catalog."""
        code = self._code(locale)
        self._translations(code)
        return message in self._ids[code]

    def _code(self, locale: str | None) -> str:
        code = (locale or self.default)[:2].lower()
        return code if code in LOCALES else self.default

    def _translations(self, code: str) -> gettext.NullTranslations:
        found = self._loaded.get(code)
        if found is None:
            found = self._load(code)
            self._loaded[code] = found
        return found

    def _load(self, code: str) -> gettext.NullTranslations:
        po = self.locale_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        if not po.exists():
            if code != "en":
                logger.warning("no catalog %s: showing English", po)
            self._ids[code] = frozenset()
            return gettext.NullTranslations()
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=code, domain=DOMAIN)
        self._ids[code] = frozenset(
            m.id for m in catalog if isinstance(m.id, str) and m.id and m.string
        )
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
