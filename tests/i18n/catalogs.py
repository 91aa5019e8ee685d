"""What the i18n tests share: the template, read once."""

from __future__ import annotations

from functools import cache

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n.catalogs import DOMAIN, pot_path


@cache
def pot() -> Catalog:
    """The committed template of every message."""
    with pot_path().open("rb") as f:
        return read_po(f, domain=DOMAIN)
