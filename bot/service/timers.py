"""Turn timers: how long a human's turn lasts before a reminder, and before the computer plays
it (``TimerSettings``; a chat may choose its own turn time in ``/settings``).

Deadlines live in the table's row (``deadline``, ``deadline_kind``: ``remind``, ``autoplay``,
``computer`` for a computer's turn left over by a process that stopped, ``lobby`` for an
unstarted lobby's expiry, ``bot.service.lobby_timer``), so they survive a restart.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TimerSettings"]


@dataclass(frozen=True, slots=True)
class TimerSettings:
    """Turn timers (seconds from the start of a human's turn; ``reminder <= 0`` = no timers)."""

    reminder: float = 60.0
    autoplay: float = 120.0
    takeover_after: int = 2  # idle turns in a row before a computer takes the seat over
    # The idle player's game counts for them: played sensibly (Scala 40's easy is a beginner).
    takeover_level: str = "medium"
    # How long a claimed timer stays with the process that claimed it (Store.claim_due): longer
    # than firing one timer takes, short enough that a dead process's timers soon come due again.
    claim_lease: float = 60.0
    # Whether a chat's own turn timer (/settings) applies: only where the timer loop runs
    # (not at the terminal, not in one-shot commands).
    chat_timers: bool = True
    # An unstarted lobby closes this many seconds after its last change (0: never).
    lobby: float = 600.0

    @property
    def enabled(self) -> bool:
        return self.reminder > 0
