"""The announcements of a Briscola or chiamata move, from the events the engine's public view
lists for it (``view.events``: what the last move did, every one public).

Glossary: **chiamante** = the winner of the chiamata auction, who calls a card; **socio** = the
holder of that card, revealed when it is played; **scambio** = the swap of the briscola 2 or 7 for
the face-up card; **cappotto** = all 120 points to one side.

Announced: the call (``called``), the socio revealed (``socio``), a hand dealt again after five
passes (``redeal``), a scambio (``swap``); the end of a deal as a :class:`SmazzataSummary`
(card points, shown only now, the deal's scores and the match totals). Bids, cards and tricks
show in the table message itself.

Ratings (:func:`chiamata_rate`): pairs at 4 players are the engine's sides, rated as any pairs;
in chiamata the partnership changes every deal, so each deal is rated on its own, the socio
sharing the chiamante's result.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from bot.domain import JSON, JSONObject
from bot.domain.events import Announcement, Event, EventHead, SmazzataSummary
from bot.service.ratings import Ratings
from engine.briscola import BriscolaView, DealResult, Game
from engine.contract import GameState, GameView

__all__ = ["FAMILIES", "announce", "chiamata_rate"]

Teams = list[list[tuple[float, float] | None]]

FAMILIES = ("briscola", "chiamata")
ANNOUNCED = ("called", "socio", "redeal", "swap")


def announce(events: list[Event], head: EventHead, public: GameView) -> None:
    """Append the announcements of the move that led to the public view ``public`` (a
    Briscola view; another game's announces nothing here)."""
    if not isinstance(public, BriscolaView):
        return
    for event in public.events:
        data = dict(event.data)
        if event.kind in ANNOUNCED:
            payload: JSONObject = {"seat": event.seat}
            if event.kind == "called":
                payload.update(
                    card=str(data.get("card", "")),
                    suit=public.briscola_suit,
                    threshold=public.threshold,
                )
            elif event.kind == "socio":
                payload["alone"] = bool(data.get("alone", False))
            elif event.kind == "swap":
                payload.update(card=str(data.get("card", "")), took=str(data.get("took", "")))
            events.append(Announcement(**head, kind=event.kind, data=payload))
        elif event.kind == "deal" and isinstance(result := data.get("result"), Mapping):
            events.append(_summary(head, public, DealResult.from_dict(result)))


def _summary(head: EventHead, public: BriscolaView, deal: DealResult) -> SmazzataSummary:
    per_side = tuple(
        {"card_points": p, "score": s} for p, s in zip(deal.points, deal.scores, strict=False)
    )
    sides: list[JSON] = [[*side] for side in public.sides]
    data: JSONObject = {
        "winner": deal.winner,
        "caller": deal.caller,
        "socio": deal.socio,
        "called": None if deal.called is None else str(deal.called),
        "threshold": deal.threshold,
        "caller_points": deal.caller_points,
        "won": deal.won,
        "cappotto": deal.cappotto,
        "sides": sides,
    }
    return SmazzataSummary(
        **head,
        number=deal.number,
        scores=per_side,
        points=tuple(int(x) for x in public.scores),
        data=data,
    )


def chiamata_rate(
    game: GameState, ratings: Ratings, *, fixed: Collection[int]
) -> Callable[[Teams, Sequence[int]], list[list[tuple[float, float]]]] | None:
    """How a finished chiamata match moves the ratings: one update per deal, the chiamante and
    the socio as a team against the other three (the chiamante alone against four), so the
    socio shares the chiamante's result; ``None`` for any other game (the match's ranks then
    rate it as usual). (OpenSkill's per-player weights would give the chiamante the larger
    share, but version 6 moves a weight-2 loser less than a weight-1 one: not used.)

    The store calls it with each seat as a side of its own, in seat order; the seats in
    ``fixed`` (computers) keep their rating throughout."""
    if not isinstance(game, Game) or game.rules.variant != "chiamata":
        return None
    deals = [d for d in game.deal_results if d.caller is not None and d.won is not None]
    model = ratings.model

    def rate(before: Teams, ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
        current = [team[0] if team[0] is not None else ratings.initial for team in before]
        for deal in deals:
            partners = sorted({s for s in (deal.caller, deal.socio) if s is not None})
            others = [s for s in range(len(current)) if s not in partners]
            teams = [
                [model.rating(mu=current[s][0], sigma=current[s][1]) for s in side]
                for side in (partners, others)
            ]
            rated = model.rate(teams, ranks=[0.0, 1.0] if deal.won else [1.0, 0.0])
            for side, team in zip((partners, others), rated, strict=True):
                for seat, player in zip(side, team, strict=True):
                    if seat not in fixed:
                        current[seat] = (float(player.mu), float(player.sigma))
        return [[value] for value in current]

    return rate
