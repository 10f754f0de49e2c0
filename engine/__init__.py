"""Tavolo's rules engine: pure and synchronous, standard library only.

No I/O, no clock, no global random: randomness comes in as a seed.

* ``engine.cards``: cards, decks and the text notation.
* ``engine.scopa``: Scopa (2, 3, 4 players), Scopone (FIGS) and Scopone scientifico.
* ``engine.scala40``: Scala 40 (Italian rummy, 2-6 players).
* ``engine.briscola``: Briscola (2, 3, 4 players) and Briscola chiamata (5).
* ``engine.ai``: computer players behind one interface (``get_player``); each game's players
  live beside it (``engine.scopa.ai``, ``engine.scala40.ai``, ``engine.briscola.ai``).
* ``engine.contract``: what every game kind's module and games provide (``typing.Protocol``s):
  ``Rules.from_dict`` and ``Rules.options()``, ``new_game``, ``legal_moves``/``play``, ``events``,
  ``view``, ``outcome``, saving.
* ``engine.options``: ``Option``, one rule option described (kind, allowed values, default, help).
* ``engine.events``: ``Event``, the base of the typed events a move reports (``game.events``).
* ``engine.errors``: ``RuleText``, the base of the player-facing errors (an English template and
  its params, so a reader can translate them), and ``Problem``, a reason returned as a value.
"""
