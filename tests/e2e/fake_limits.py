"""Discord's documented limits that its OpenAPI schemas leave out (``fake_spec`` checks the
rest). Each rule refuses the way Discord does: 400 with code 50035 (Invalid Form Body),
or 50006 for a message that would be empty.
"""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.fake_state import COMPONENTS_V2, EPHEMERAL, ApiError, walk_components

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
EMBED_LIMITS = {"title": 256, "description": 4096}
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
#: The message flags a bot may set, by where the message is written.
FLAGS_ALLOWED = {
    "send": SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2,
    "reply": SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2 | EPHEMERAL,
    "deferred": EPHEMERAL,
    "edit": SUPPRESS_EMBEDS | COMPONENTS_V2,
}
COMMAND_CHARACTERS = 8000


def invalid(message: str) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"message": message}]})


def blank(text: Any) -> bool:
    """Empty or whitespace only (Discord strips before it checks)."""
    return not isinstance(text, str) or not text.strip()


def check_flags(data: dict[str, Any], where: str) -> None:
    flags = int(data.get("flags") or 0)
    if flags & ~FLAGS_ALLOWED[where]:
        raise invalid(f"flags {flags} are not allowed here ({where})")


def validate_message(data: dict[str, Any], *, where: str) -> None:
    """Refuse what Discord refuses: too long, too many, empty, bad components or mentions.
    ``where`` is "send", "reply" (interaction answer or follow-up) or "edit"."""
    if not isinstance(data, dict):
        raise invalid("body must be an object")
    check_flags(data, where)
    content = data.get("content") or ""
    if len(content) > 2000:
        raise invalid(f"content is {len(content)} characters (max 2000)")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        raise invalid("more than 10 embeds")
    if sum(_embed_size(embed) for embed in embeds) > 6000:
        raise invalid("embeds hold more than 6000 characters")
    _validate_mentions(data.get("allowed_mentions"))
    components = data.get("components") or []
    if int(data.get("flags") or 0) & COMPONENTS_V2:
        _validate_layout(data, components)
    else:
        _validate_rows(components)
    custom_ids = [c["custom_id"] for c in walk_components(components) if "custom_id" in c]
    if len(custom_ids) != len(set(custom_ids)):
        raise invalid("component custom_id values must be unique in a message")
    if any(len(cid) > 100 for cid in custom_ids):
        raise invalid("custom_id longer than 100 characters")
    has_body = (
        not blank(content) or embeds or components or data.get("attachments") or data.get("poll")
    )
    if where != "edit" and not has_body:
        raise ApiError(400, 50006, "Cannot send an empty message")


def _embed_size(embed: dict[str, Any]) -> int:
    for key, limit in EMBED_LIMITS.items():
        if len(embed.get(key) or "") > limit:
            raise invalid(f"embed {key} longer than {limit}")
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048 or len(author) > 256:
        raise invalid("embed footer longer than 2048 or author longer than 256")
    fields = embed.get("fields", [])
    if len(fields) > 25:
        raise invalid("more than 25 embed fields")
    for fld in fields:
        if blank(fld.get("name")) or blank(fld.get("value")):
            raise invalid("embed field name and value must not be empty or blank")
        if len(fld["name"]) > 256 or len(fld["value"]) > 1024:
            raise invalid("embed field too long (name 256, value 1024)")
    size = sum(len(embed.get(k) or "") for k in EMBED_LIMITS) + len(footer) + len(author)
    return size + sum(len(f["name"]) + len(f["value"]) for f in fields)


def _validate_mentions(mentions: Any) -> None:
    if not isinstance(mentions, dict):
        return
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and mentions.get(kind):
            raise invalid(f"allowed_mentions: parse:{kind} and {kind} are mutually exclusive")


#: Components v2 (components reference): at most 40 components in all, and — as
#: discord.py enforces it for Discord — 4,000 characters across the text displays.
V2_COMPONENTS = 40
V2_TEXT = 4000


def _validate_layout(data: dict[str, Any], components: list[dict[str, Any]]) -> None:
    """A components v2 message: no content or embeds (text goes in text displays), at
    most 40 components, 4,000 characters of text displays; its action rows are checked
    as in any message."""
    if not blank(data.get("content")) or data.get("embeds"):
        raise invalid("content and embeds cannot be used with the IS_COMPONENTS_V2 flag")
    every = walk_components(components)
    if len(every) > V2_COMPONENTS:
        raise invalid(f"{len(every)} components (max {V2_COMPONENTS} with IS_COMPONENTS_V2)")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > V2_TEXT:
        raise invalid(f"text displays hold {text} characters (max {V2_TEXT})")
    rows = [c for c in every if c.get("type") == 1]
    for row in rows:
        _validate_rows([row])


def check_layout_edit(flags: int, data: dict[str, Any]) -> None:
    """An edit of a message: a components v2 message takes no content or embeds, and a
    legacy message turned v2 must clear its own (the flag cannot be taken back)."""
    if flags & COMPONENTS_V2 and (not blank(data.get("content")) or data.get("embeds")):
        raise invalid("content and embeds cannot be used with the IS_COMPONENTS_V2 flag")


def _validate_rows(rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        raise invalid(f"{len(rows)} action rows (max 5)")
    for row in rows:
        if row.get("type") != 1:
            raise invalid("top-level components must be action rows without the components v2 flag")
        children = row.get("components", [])
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if not children or len(children) > 5 or (selects and len(children) != 1):
            raise invalid("an action row holds 1-5 buttons or exactly one select menu")
        for child in children:
            if child.get("type") == 2:
                _validate_button(child)
            elif child.get("type") == 3:
                _validate_select(child)


def _validate_button(button: dict[str, Any]) -> None:
    if len(button.get("label") or "") > 80:
        raise invalid("button label longer than 80")
    if button.get("style") == 6:
        return  # premium buttons carry a sku_id only
    if blank(button.get("label")) and not button.get("emoji"):
        raise invalid("a button needs a label or an emoji")
    link = button.get("style") == 5
    if link and (not button.get("url") or "custom_id" in button):
        raise invalid("a link button needs a url and no custom_id")
    if not link and ("custom_id" not in button or "url" in button):
        raise invalid("a non-link button needs a custom_id and no url")


def _validate_select(select: dict[str, Any]) -> None:
    options = select.get("options", [])
    if not 1 <= len(options) <= 25:
        raise invalid(f"a select menu has {len(options)} options (1-25)")
    values = [o["value"] for o in options]
    if len(values) != len(set(values)):
        raise invalid("select option values must be unique")
    for option in options:
        if blank(option.get("label")) or len(option["label"]) > 100 or len(option["value"]) > 100:
            raise invalid("select option label/value must be 1-100 characters")
        if len(option.get("description") or "") > 100:
            raise invalid("select option description longer than 100")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= high <= min(25, len(options)):
        raise invalid("select min_values/max_values out of range")
    if low == 0 and select.get("required") is True:
        raise invalid("select min_values 0 needs required:false")
    if sum(1 for o in options if o.get("default")) > high:
        raise invalid("more default options than max_values")
    if len(select.get("placeholder") or "") > 150:
        raise invalid("select placeholder longer than 150")


def validate_commands(commands: list[dict[str, Any]]) -> None:
    if len(commands) > 100:
        raise invalid("more than 100 commands")
    seen: set[tuple[str, int]] = set()
    for cmd in commands:
        key = (cmd.get("name", ""), cmd.get("type", 1))
        if key in seen or not NAME_RE.match(key[0]) or (key[0] != key[0].lower() and key[1] == 1):
            raise invalid(f"bad or duplicate command name {key[0]!r}")
        seen.add(key)
        if key[1] == 1 and not 1 <= len(cmd.get("description", "")) <= 100:
            raise invalid(f"/{key[0]}: description must be 1-100 characters")
        _validate_options(cmd.get("options", []), f"/{key[0]}")
        if _characters(cmd) > COMMAND_CHARACTERS:
            raise invalid(f"/{key[0]}: more than {COMMAND_CHARACTERS} characters in all")


def _characters(node: dict[str, Any]) -> int:
    """Names, descriptions and choice values of a command and its options, summed."""
    size = len(node.get("name", "")) + len(node.get("description", ""))
    size += sum(len(str(c.get("name", ""))) + len(str(c.get("value", ""))) for c in
                node.get("choices", []))
    return size + sum(_characters(opt) for opt in node.get("options", []))


def _validate_options(options: list[dict[str, Any]], where: str) -> None:
    if len(options) > 25:
        raise invalid(f"{where}: more than 25 options")
    optional_seen = False
    for opt in options:
        name = opt.get("name", "")
        if not NAME_RE.match(name) or name != name.lower():
            raise invalid(f"{where}: bad option name {name!r}")
        if not 1 <= len(opt.get("description", "")) <= 100:
            raise invalid(f"{where} {name}: description must be 1-100 characters")
        if len(opt.get("choices", [])) > 25:
            raise invalid(f"{where} {name}: more than 25 choices")
        if opt.get("choices") and opt.get("autocomplete"):
            raise invalid(f"{where} {name}: choices and autocomplete are exclusive")
        if opt.get("type") not in (1, 2):
            if opt.get("required") and optional_seen:
                raise invalid(f"{where} {name}: a required option after an optional one")
            optional_seen = optional_seen or not opt.get("required")
        _validate_options(opt.get("options", []), f"{where} {name}")


def validate_choices(choices: list[dict[str, Any]]) -> None:
    """An autocomplete answer: at most 25 choices, names 1-100, string values ≤ 100."""
    if len(choices) > 25:
        raise invalid("autocomplete: at most 25 choices")
    for choice in choices:
        if blank(choice.get("name")) or len(choice["name"]) > 100:
            raise invalid("autocomplete: choice names must be 1-100 characters")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            raise invalid("autocomplete: string values at most 100 characters")
