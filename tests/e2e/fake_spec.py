"""Request bodies checked against Discord's official OpenAPI schemas (``spec/requests.json``).

The spec encodes types, lengths, counts and enums; ``fake_rest`` adds the documented limits
the spec leaves out. A body the schema refuses is a 400 with code 50035, as Discord's is.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from tests.e2e.fake_state import ApiError

SPEC = Path(__file__).with_name("spec") / "requests.json"


def shape(template: str) -> str:
    """A path template with its placeholders unnamed (the fake and the spec name them apart)."""
    return re.sub(r"\{\w+\}", "{}", template)


@cache
def _validators() -> dict[str, Draft202012Validator]:
    data = json.loads(SPEC.read_text())
    components = data["components"]
    return {
        route: Draft202012Validator({**schema, "components": components})
        for route, schema in data["routes"].items()
    }


def check_body(method: str, template: str, body: Any) -> None:
    """Refuse ``body`` for the route if the spec's schema does (naming the deepest cause)."""
    validator = _validators().get(f"{method} {shape(template)}")
    if validator is None:
        return
    error = best_match(validator.iter_errors(body))
    while error is not None and error.context:
        error = best_match(error.context)
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "body"
        raise ApiError(
            400, 50035, "Invalid Form Body",
            {"_errors": [{"code": "SCHEMA", "message": f"{where}: {error.message[:300]}"}]},
        )
