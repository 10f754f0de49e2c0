"""Tavolo's rules engine: pure and synchronous, standard library only.

No I/O, no clock, no global random: randomness comes in as a seed.

* ``engine.cards``: cards, decks and the text notation.
* ``engine.scopa``: Scopa (2, 3, 4 players), Scopone (FIGS) and Scopone scientifico.
* ``engine.scala40``: Scala 40 (Italian rummy, 2-6 players).
* ``engine.briscola``: Briscola (2, 3, 4 players) and Briscola chiamata (5).
* ``engine.ai``: computer players behind one interface.
* ``engine.errors``: ``RuleText``, the base of the player-facing errors (an English template and
  its params, so a reader can translate them), and ``Problem``, a reason returned as a value.
"""
