"""What the message tests share."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.messages import Button, Component


def button(component: Component) -> Button:
    """``component``, which must be a button (not a select menu)."""
    assert isinstance(component, Button), component
    return component


def buttons(row: Iterable[Component]) -> list[Button]:
    """The components of ``row``, every one of them a button."""
    return [button(c) for c in row]
