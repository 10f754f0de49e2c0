"""``Presence``: a player who interacted within ``idle_after`` seconds is looking."""

from __future__ import annotations

import pytest

from bot.service.presence import Presence


def test_looking_until_idle_after_seconds_without_an_interaction() -> None:
    now = [100.0]
    presence = Presence(idle_after=60, clock=lambda: now[0])
    assert not presence.looking("discord", "1")  # never seen
    presence.seen("discord", "1")
    now[0] += 59
    assert presence.looking("discord", "1")
    assert not presence.looking("telegram", "1")  # per platform
    now[0] += 1
    assert not presence.looking("discord", "1")
    presence.seen("discord", "2")  # the idle ones are forgotten as others come
    assert presence._seen.keys() == {("discord", "2")}


def test_idle_after_zero_means_never_looking_and_negative_is_refused() -> None:
    presence = Presence(idle_after=0)
    presence.seen("discord", "1")
    assert not presence.looking("discord", "1")
    with pytest.raises(ValueError):
        Presence(idle_after=-1)
