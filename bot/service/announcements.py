"""What the table is told after a move, from what the engine says the move did.

The engine reports a move's events (``game.events``, :class:`engine.contract.GameEvent`); this
module turns those the chat hears about into the service's events, knowing no rule of its own:

* ``scopa`` -> ``Announcement("scopa", {seat, side})``;
* ``fuori`` -> ``Announcement("fuori", {seat, move})``;
* ``smazzata`` (Scopa) -> ``SmazzataSummary``: the engine's point breakdown per side, the match
  totals after it, and in ``data`` ``rest`` the cards left on the table and the side they went
  to (the engine's ``rest`` just before; none when the table was empty);
* ``hand`` (Scala 40) -> ``SmazzataSummary``: each seat's penalty, the scores after it, and
  ``data`` ``closer`` (None when no one closed), ``in_hand``, ``eliminated``.

Every other event (a card played, a draw, a deal...) is shown by the table view that follows,
and the end of the game by ``GameOver``, which the service builds from the outcome.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain import JSON, JSONObject
from bot.domain.events import Announcement, Event, EventHead, SmazzataSummary
from engine.contract import GameEvent

__all__ = ["announcements"]


def announcements(events: Sequence[GameEvent], *, head: EventHead, move: str) -> list[Event]:
    """The service events for one move's engine ``events``, in their order; ``head`` is the
    audience, locale and table every event carries, ``move`` the move string played."""
    out: list[Event] = []
    rest: JSONObject = {}
    for event in events:
        data = event.data
        if event.kind == "rest":  # told by the smazzata's summary that follows
            cards: list[JSON] = [str(card) for card in data["cards"]]
            rest = {"rest": {"side": int(data["side"]), "cards": cards}}
        if event.kind == "scopa":
            out.append(
                Announcement(**head, kind="scopa", data={"seat": event.seat, "side": data["side"]})
            )
        elif event.kind == "fuori":
            out.append(Announcement(**head, kind="fuori", data={"seat": event.seat, "move": move}))
        elif event.kind == "smazzata":
            out.append(
                SmazzataSummary(
                    **head,
                    number=int(data["number"]),
                    scores=tuple({str(k): int(v) for k, v in s.items()} for s in data["scores"]),
                    points=tuple(int(x) for x in data["totals"]),
                    data=rest,
                )
            )
            rest = {}
        elif event.kind == "hand":
            eliminated: list[JSON] = [int(x) for x in data["eliminated"]]
            out.append(
                SmazzataSummary(
                    **head,
                    number=int(data["number"]),
                    scores=tuple({"penalty": int(p)} for p in data["penalties"]),
                    points=tuple(int(x) for x in data["scores"]),
                    data={
                        "closer": event.seat,
                        "in_hand": bool(data["in_hand"]),
                        "eliminated": eliminated,
                    },
                )
            )
    return out
