"""The terminal's own words: the help and the prompt of each family, and the command words a
player may type instead of a move."""

from __future__ import annotations

from bot.render import N_

__all__ = [
    "HELP",
    "HELPS",
    "HELP_BRISCOLA",
    "HELP_SCALA40",
    "HELP_SCOPA",
    "PROMPTS",
    "PROMPT_SCALA40",
    "PROMPT_SCOPA",
    "QUIT",
    "TABLE",
    "YES",
]

HELP_SCOPA = N_(
    "Your move: the number of a move in the list, or the card as it is shown.\n"
    "  7♦         plays the 7♦ (when it can take different cards, the list shows each way)\n"
    "  7♦ 3♥ 4♠   plays the 7♦ taking the 3♥ and the 4♠\n"
    "Suits can be typed as letters: {letters}.\n"
    "Commands: v shows the table, h this help, q quits (the game is saved; Ctrl-C and "
    "Ctrl-D too)."
)
HELP_SCALA40 = N_(
    "Your move: the number of a move in the list, or the move as the list shows it "
    "(Discard: 7♦), or in short:\n"
    "  t                draws from the stock\n"
    "  p                takes the discard\n"
    "  d 7♦  (or 7♦)    discards the 7♦\n"
    "  o 7♦8♦9♦ K♥K♠K♦  opens with those melds\n"
    "  m 4♠5♠6♠         lays a meld once open\n"
    "  a3 10♦           attaches the 10♦ to meld 3\n"
    "  s3 7♦            puts the 7♦ in place of meld 3's joker and takes the joker\n"
    "Suits can be typed as letters: {letters}; the joker as *.\n"
    "Commands: v shows the table, h this help, q quits (the game is saved; Ctrl-C and "
    "Ctrl-D too)."
)
HELP_BRISCOLA = N_(
    "Type the number of a move, or the card as it is shown: A♠ plays the ace of spades. Any "
    "card may be played (no duty to follow suit); the trick goes to the highest briscola, else "
    "to the highest card of the suit led. The cards from the highest: A 3 K Q J 7 6 5 4 2; "
    "their points: A 11, 3 10, K 4, Q 3, J 2, the others 0 (120 in all: more than 60 win the "
    "deal; in chiamata the chiamante's side needs what was bid). In the chiamata auction type "
    "the number of a call, or pass; the winner then names the card (its suit is the briscola). "
    "Suits can be typed as letters: {letters}. Commands: v shows the table, h this help, q "
    "quits (the game is saved; Ctrl-C and Ctrl-D too)."
)
PROMPT_SCOPA = N_("Your move (number or card; h help, q quit): ")
PROMPT_SCALA40 = N_("Your move (number or move; h help, q quit): ")
# Per family; a family not listed is a card game read the Scopa way (a card, what it takes).
HELPS = {
    "scopa": HELP_SCOPA,
    "scala40": HELP_SCALA40,
    "briscola": HELP_BRISCOLA,
    "chiamata": HELP_BRISCOLA,
}
PROMPTS = {"scopa": PROMPT_SCOPA, "scala40": PROMPT_SCALA40}
# Words that are never a move in any game (Scala 40's "t" draws: the table is "v").
QUIT = ("q", "quit", "exit", "esci")
HELP = ("h", "help", "?", "aiuto")
TABLE = ("v", "table", "tavolo")
YES = ("y", "yes", "s", "si", "sì")
