"""Application emojis in the fake Discord: what an application owns and what Discord refuses.

Sources (github:discord/discord-api-docs ``developers/resources/emoji.mdx`` and
``developers/topics/opcodes-and-status-codes.mdx``; github:discord/discord-api-spec
``specs/openapi.json``):

* An application owns up to 2,000 emojis (emoji.mdx, "Application-Owned Emoji"); one more is
  400 with JSON code 30008 "Maximum number of emojis reached" (opcodes table).
* A name is 2–32 characters (the spec's ``minLength``/``maxLength``, refused by
  ``fake_spec`` as 50035) of letters, digits and ``_`` (Discord's emoji naming; neither the
  spec nor the docs state the pattern, so the field error code ``STRING_TYPE_REGEX`` is the
  one Discord's form errors report for a pattern, as bots in the wild match on it).
* Names are unique within the application: a taken name is 400 50035 with the field error
  ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN`` (the code bots match on; the docs do not list it).
* ``image`` is image data: a data URI (reference.mdx, "Image Data"); anything else is 400
  50035 ``BINARY_TYPE_INVALID_DATA_URI`` "Only data uri strings can be used.". Emoji may be
  JPEG, PNG, GIF, WebP or AVIF (emoji.mdx, "Emoji Formats"; Discord sniffs the bytes), at
  most 256 KiB (emoji.mdx, Create Application Emoji: "400 Bad Request and an error message,
  but not a JSON status code", i.e. the form error 50035 ``BINARY_TYPE_MAX_SIZE``).
* An unknown emoji id is 404 10014 "Unknown emoji" (opcodes table); another application's
  emojis are 403 50001 "Missing Access", as the fake answers for its commands.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.e2e.fake_state import ApiError, User

MAX_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]+")
DATA_URI = re.compile(r"data:(?P<mime>[\w/+.-]+);base64,(?P<data>.*)", re.S)
#: The formats emoji may be uploaded in, by their first bytes.
FORMATS: dict[str, Callable[[bytes], bool]] = {
    "image/png": lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/jpeg": lambda b: b.startswith(b"\xff\xd8\xff"),
    "image/gif": lambda b: b.startswith((b"GIF87a", b"GIF89a")),
    "image/webp": lambda b: b.startswith(b"RIFF") and b[8:12] == b"WEBP",
    "image/avif": lambda b: b[4:12] in (b"ftypavif", b"ftypavis"),
}
UNKNOWN_EMOJI = ApiError(404, 10014, "Unknown Emoji")
TOO_MANY = ApiError(400, 30008, f"Maximum number of emojis reached ({MAX_EMOJIS})")


@dataclass(eq=False)
class AppEmoji:
    """One emoji the application owns, and the image it was uploaded with."""

    id: int
    name: str
    image: bytes
    user: User
    animated: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }


def form_error(field: str, code: str, message: str) -> ApiError:
    """Discord's 400 50035 naming one field's error."""
    return ApiError(
        400, 50035, "Invalid Form Body", {field: {"_errors": [{"code": code, "message": message}]}}
    )


def check_name(name: str, taken: set[str]) -> None:
    """Refuse a name of other characters than letters, digits and ``_``, or one taken."""
    if not NAME.fullmatch(name):
        raise form_error(
            "name", "STRING_TYPE_REGEX", "String value did not match validation regex."
        )
    if name in taken:
        raise form_error(
            "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken."
        )


def decode_image(image: str) -> tuple[str, bytes]:
    """The MIME type and bytes of an emoji's image data; refuse what Discord refuses."""
    not_data_uri = form_error(
        "image", "BINARY_TYPE_INVALID_DATA_URI", "Only data uri strings can be used."
    )
    found = DATA_URI.fullmatch(image)
    if found is None:
        raise not_data_uri
    try:
        data = base64.b64decode(found["data"], validate=True)
    except binascii.Error:
        raise not_data_uri from None
    if len(data) > MAX_IMAGE_BYTES:
        size = f"{MAX_IMAGE_BYTES / 1024} kb"
        raise form_error("image", "BINARY_TYPE_MAX_SIZE", f"File cannot be larger than {size}.")
    if found["mime"] not in FORMATS or not any(sniff(data) for sniff in FORMATS.values()):
        raise form_error("image", "IMAGE_INVALID", "Invalid image data")
    return found["mime"], data
