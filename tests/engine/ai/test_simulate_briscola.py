"""``tavolo simulate`` for Briscola and Briscola chiamata: sides, seats swapped, chiamata roles."""

from __future__ import annotations

import pytest

from bot import simulate

pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")


def test_briscola_deals_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "briscola", "--players", "random,random", "--deals", "--games", "6"]
    assert simulate.main([*argv, "--quiet"]) == 0
    out, _ = capsys.readouterr()
    assert "briscola: 6 deals" in out and "as dealer side" in out
    # the card points of a deal add up to 120
    averages = [float(line.rsplit(" ", 1)[1]) for line in out.splitlines() if "average" in line]
    assert sum(averages) == pytest.approx(120.0)


def test_briscola_four_players_are_two_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    args = simulate.build_parser().parse_args(
        ["--game", "briscola", "--seats", "4", "--players", "random,random", "--games", "2"]
    )
    jobs, labels = simulate.make_jobs(args)
    assert len(labels) == 2 and [j.labels for j in jobs][:2] == [
        ("random#1", "random#2"),
        ("random#2", "random#1"),
    ]
    result = simulate.play(jobs[0])
    assert len(result.points) == 2 and result.winner in (0, 1)


def test_chiamata_deals_report_the_callers(capsys: pytest.CaptureFixture[str]) -> None:
    players = ",".join(["random"] * 5)
    argv = ["--game", "chiamata", "--players", players, "--deals", "--games", "5", "--quiet"]
    assert simulate.main(argv) == 0
    out, _ = capsys.readouterr()
    assert "chiamata: 5 deals" in out and "as caller" in out and "as other" in out


def test_chiamata_needs_five_players() -> None:
    args = simulate.build_parser().parse_args(["--game", "chiamata", "--players", "random,easy"])
    with pytest.raises(ValueError, match="give 5 players"):
        simulate.make_jobs(args)


def test_levels_name_the_briscola_players() -> None:
    from bot.simulate_briscola import engine_name

    assert engine_name("hard") == "briscola-hard"
    assert engine_name("greedy") == "briscola-easy"
    assert engine_name("random") == "random"
    assert engine_name("briscola-medium") == "briscola-medium"
