"""Fixtures of the site's tests: one database of real games per module (its players named
by the module's ``WORLD_NAMES``, else plainly), and a client of the site over it
(aiohttp's test server on 127.0.0.1)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.app import make_app
from storage.connect import open_database
from tests.web.world import NAMES, World, build


@pytest.fixture(scope="module")
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> World:
    names = getattr(request.module, "WORLD_NAMES", NAMES)
    return build(tmp_path_factory.mktemp("site") / "deckhand.db", names)


@pytest.fixture
async def client(world: World) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    db = await open_database(world.path)
    server = TestServer(make_app(db), host="127.0.0.1")
    async with TestClient(server) as c:
        yield c
    await db.close()
