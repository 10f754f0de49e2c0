"""``tavolo simulate`` (bot.simulate): seats swapped, fixed seeds, figures on stdout."""

from __future__ import annotations

import pytest

from bot import simulate


def test_seats_are_swapped_over_the_same_seeds() -> None:
    args = simulate.build_parser().parse_args(["--game", "scopone", "--players", "medium,easy"])
    args.games = 4
    jobs, labels = simulate.make_jobs(args)
    assert labels == ["medium", "easy"]
    assert [(j.seed, j.labels) for j in jobs] == [
        (1, ("medium", "easy")),
        (1, ("easy", "medium")),
        (2, ("medium", "easy")),
        (2, ("easy", "medium")),
    ]


def test_wilson_interval() -> None:
    low, high = simulate.wilson(70, 100)
    assert 0.60 < low < 0.61 and 0.78 < high < 0.79
    assert simulate.wilson(0, 0) == (0.0, 1.0)


def test_a_small_run_prints_rates(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "scopa", "--players", "hard,easy", "--games", "2", "--iterations", "10"]
    assert simulate.main(argv) == 0
    out, err = capsys.readouterr()
    assert "hard: " in out and "95% CI" in out and "as first dealer" in out
    assert "2/2" in err  # the progress bar


def test_deals_with_three_players_and_same_names(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "scopa", "--seats", "3", "--players", "easy,easy,random", "--deals"]
    assert simulate.main([*argv, "--games", "3", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "easy#1: " in out and "easy#2: " in out and "random: " in out and err == ""
    results = [
        simulate.play(job)
        for job in simulate.make_jobs(simulate.build_parser().parse_args([*argv, "--games", "3"]))[
            0
        ]
    ]
    # The same seed three times, rotated: every player got every hand once.
    assert {r.job.seed for r in results} == {1}
    assert sorted(r.points for r in results)[0] is not None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "hard"], "give 2 players"),
        (["--players", "hard,wizard"], "no computer player 'wizard'"),
        (["--games", "0"], "at least 1"),
    ],
)
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        simulate.main(["--game", "scopa", *argv])
    assert message in capsys.readouterr().err


def test_scala40_matches(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "scala40", "--players", "scala40,random", "--games", "2", "--quiet"]
    assert simulate.main(argv) == 0
    out = capsys.readouterr().out
    assert "scala40: 2 games" in out and "random: " in out
    with pytest.raises(SystemExit):
        simulate.main(["--game", "scala40", "--players", "scala40,random", "--deals"])
    assert "--deals is for the Scopa family" in capsys.readouterr().err
