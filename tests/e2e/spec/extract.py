"""Refresh ``requests.json`` from Discord's official OpenAPI spec.

``python -m tests.e2e.spec.extract PATH/TO/openapi.json`` (the spec is
github.com/discord/discord-api-spec, ``specs/openapi.json``, MIT licensed). It keeps the
JSON request-body schema of every route the fake serves, with the component schemas they
reference, so the fake validates bodies without the network. One deliberate widening:
Discord accepts a snowflake as a JSON integer as well as a string (discord.py sends both),
so ``SnowflakeType`` admits non-negative integers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.e2e.fake_rest import ROUTES
from tests.e2e.fake_spec import shape

OUT = Path(__file__).with_name("requests.json")
REF = "#/components/schemas/"


def _refs(node: Any, schemas: dict[str, Any], found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        if ref.startswith(REF) and ref[len(REF):] not in found:
            found.add(ref[len(REF):])
            _refs(schemas[ref[len(REF):]], schemas, found)
        for value in node.values():
            _refs(value, schemas, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, schemas, found)


def extract(spec: dict[str, Any]) -> dict[str, Any]:
    """``{"routes": {"METHOD shape": schema}, "components": {"schemas": {...}}}``."""
    by_shape = {shape(path): ops for path, ops in spec["paths"].items()}
    routes: dict[str, Any] = {}
    for method, template, _, _ in ROUTES:
        op = by_shape.get(shape(template), {}).get(method.lower())
        body = (op or {}).get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            routes[f"{method} {shape(template)}"] = body["schema"]
    schemas = spec["components"]["schemas"]
    found: set[str] = set()
    _refs(routes, schemas, found)
    kept = {name: schemas[name] for name in sorted(found)}
    kept["SnowflakeType"] = {
        "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]
    }
    source = f"discord/discord-api-spec specs/openapi.json, API version {spec['info']['version']}"
    return {"source": source, "routes": routes, "components": {"schemas": kept}}


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    OUT.write_text(json.dumps(extract(spec), indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
