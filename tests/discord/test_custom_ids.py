"""Custom ids: round trips, limits, and disjoint button/select/rules patterns."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import custom_ids
from bot.custom_ids import BadCustomId, CustomId, parse
from bot.ui import items

ACTIONS = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=60
).filter(lambda s: s.strip() == s and s)


@given(table=st.integers(0, 10**18), version=st.integers(0, 10**8), action=ACTIONS)
def test_move_buttons_round_trip(table: int, version: int, action: str) -> None:
    cid = CustomId(table, version, "act", action)
    text = str(cid)
    assert len(text) <= custom_ids.MAX_LENGTH
    assert parse(text) == cid
    assert re.fullmatch(custom_ids.BUTTON_TEMPLATE, text)
    assert not re.fullmatch(custom_ids.SELECT_TEMPLATE, text)


@pytest.mark.parametrize(
    ("cid", "text"),
    [
        (CustomId(12, 7, "act", "discard QH"), "dh:12:7:act:discard QH"),
        (CustomId(12, 0, "join"), "dh:12:0:join"),
        (CustomId(3, 9, "hand"), "dh:3:9:hand"),
        (CustomId(3, 9, "bot", "normal"), "dh:3:9:bot:normal"),
        (CustomId(3, 9, "page", "2"), "dh:3:9:page:2"),
        (CustomId(3, 9, "sel", "play.1"), "dh:3:9:sel:play.1"),
        (CustomId(3, 9, "multi", "exchange"), "dh:3:9:multi:exchange"),
        (CustomId(3, 9, "rematch"), "dh:3:9:rematch"),
    ],
)
def test_known_ids(cid: CustomId, text: str) -> None:
    assert cid.text == text
    assert parse(text) == cid
    button = re.fullmatch(custom_ids.BUTTON_TEMPLATE, text) is not None
    select = re.fullmatch(custom_ids.SELECT_TEMPLATE, text) is not None
    assert button != select
    assert select == cid.is_select


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dh",
        "dh:1:2",
        "dh:x:2:act:pass",
        "dh:1:2:fly",
        "dh:1:2:act",
        "dh:1:2:join:now",
        "xx:1:2:join",
        "dh:-1:2:join",
        "dh:1:2:act:" + "a" * 100,
        "dh:1:2:act:a\nb",
        "dh:rules:gin_rummy:1",
    ],
)
def test_garbage_is_refused(text: str) -> None:
    with pytest.raises(BadCustomId):
        parse(text)


def test_too_long_cannot_be_built() -> None:
    assert custom_ids.fits(1, 1, "act", "play QH")
    assert not custom_ids.fits(10**18, 10**8, "act", "x" * 70)
    with pytest.raises(BadCustomId):
        CustomId(1, 1, "act", "x" * 100)


def test_rules_ids() -> None:
    text = custom_ids.rules_id("gin_rummy", 2)
    assert text == "dh:rules:gin_rummy:2"
    assert custom_ids.parse_rules(text) == ("gin_rummy", 2)
    assert not re.fullmatch(custom_ids.BUTTON_TEMPLATE, text)
    with pytest.raises(BadCustomId):
        custom_ids.parse_rules("dh:rules:Gin Rummy:2")
    with pytest.raises(BadCustomId):
        custom_ids.rules_id("../etc", 1)


@given(
    st.integers(min_value=1, max_value=custom_ids.MAX_OPTION_INT),
    st.integers(min_value=0, max_value=999_999),
    st.booleans(),
    st.sampled_from(custom_ids.REPLAY_BUTTONS),
)
def test_replay_ids_round_trip_within_the_limit(
    match: int, step: int, hands: bool, button: str
) -> None:
    text = custom_ids.replay_id(match, step, hands, button)
    assert len(text) <= custom_ids.MAX_LENGTH
    assert custom_ids.parse_replay(text) == (match, step, hands)
    for other in (custom_ids.BUTTON_TEMPLATE, custom_ids.SELECT_TEMPLATE,
                  custom_ids.RULES_TEMPLATE):
        assert not re.fullmatch(other, text)


@pytest.mark.parametrize(
    "text",
    ["dh:replay:1:2:x:next", "dh:replay:1:2:h:jump", "dh:replay:-1:2:h:next",
     "dh:replay:1:1234567:h:next", "dh:replay:12345678901234567:0:p:first", "dh:1:2:join"],
)
def test_what_is_not_a_replay_id_is_refused(text: str) -> None:
    with pytest.raises(BadCustomId):
        custom_ids.parse_replay(text)


def test_an_item_takes_every_id_deckhand_draws_and_none_other() -> None:
    """Clicks no item takes are answered by the fallback (``items.on_interaction``), which
    asks the same templates the items are registered with: every id Deckhand draws fits
    one, and nothing else does (which component it is on is for ``items.taken`` to check,
    against the clicked message: ``tests/e2e/test_bad_input_e2e.py``)."""
    ours = [
        CustomId(1, 0, "act", "discard QH").text,
        CustomId(2**63 - 1, 10**9 - 1, "rematch").text,
        CustomId(1, 0, "sel", "x").text,
        custom_ids.rules_id("gin_rummy", 2),
        custom_ids.event_id(7, "join"),
        custom_ids.replay_id(3, 4, True, "next"),
    ]
    made = [
        items.TableButton(parse(ours[0])), items.TableSelect(parse(ours[2])),
        items.RulesButton("gin_rummy", 2), items.EventButton(7, "join"),
        items.ReplayButton(ours[5]),
    ]
    assert [type(i) for i in made] == list(items.ITEMS)
    assert [i.template.pattern for i in made] == list(custom_ids.TEMPLATES)
    assert all(sum(bool(re.fullmatch(t, cid)) for t in custom_ids.TEMPLATES) == 1 for cid in ours)
    stray = ["dh:12345678901234567890:0:act:x", "foreign:button", "dh:lobby:join"]
    assert not any(re.fullmatch(t, cid) for t in custom_ids.TEMPLATES for cid in stray)
