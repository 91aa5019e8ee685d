"""Settings from the environment and ``.env`` (every key is listed in ``.env.example``).

``load_settings`` is how a command reads them: a bad value is one ``SettingsError`` line
naming each setting to fix and why, never pydantic's dump (which would quote the values it
read: the first characters of ``DISCORD_TOKEN`` among them).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.web.limits import LOOPBACK, Network, networks
from i18n import _
from storage.connect import is_postgres

#: The log levels a setting may name.
LOG_LEVELS = tuple(
    logging.getLevelName(n) for n in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR)
)


class SettingsError(ValueError):
    """A setting has a value Deckhand cannot use; ``str()`` is one line saying which."""


class Settings(BaseSettings):
    """Deckhand's configuration. Environment variables win over ``.env``."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    #: A SQLite path or a ``postgresql://`` URL (a string: a ``Path`` would fold its ``//``).
    db: str | Path = Field(default="data/deckhand.db", alias="DECKHAND_DB")
    dev_guild: int | None = Field(default=None, alias="DECKHAND_DEV_GUILD")
    log_level: str = Field(default="INFO", alias="DECKHAND_LOG_LEVEL")
    shard_count: int | None = Field(default=None, ge=1, alias="DECKHAND_SHARD_COUNT")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, alias="DECKHAND_SHARD_IDS"
    )
    bot_move_delay: float = Field(default=0.8, ge=0, le=10, alias="DECKHAND_BOT_MOVE_DELAY")
    turn_timer: int = Field(default=300, ge=0, le=604800, alias="DECKHAND_TURN_TIMER")
    turn_ping_after: float = Field(
        default=30, ge=0, le=86400, alias="DECKHAND_TURN_PING_AFTER"
    )
    sync_commands: bool = Field(default=True, alias="DECKHAND_SYNC_COMMANDS")
    #: Upload the card faces as application emojis at start-up (``on``/``off``); off, the
    #: bot makes no emoji requests and shows cards as text.
    card_emojis: bool = Field(default=True, alias="DECKHAND_CARD_EMOJIS")
    #: Interactions one user may make per second, sustained (a burst of 4 × this first).
    user_rate: float = Field(default=2.0, gt=0, le=1000, alias="DECKHAND_USER_RATE")
    #: Where ``deckhand web`` is reachable (e.g. ``https://cards.example.org``); when set,
    #: ``/league standings`` links to a published league's page there.
    web_url: str | None = Field(default=None, alias="DECKHAND_WEB_URL")
    #: The reverse proxies whose ``X-Forwarded-For`` (or ``Forwarded``) ``deckhand web``
    #: believes (``bot.web.limits``): addresses or networks; empty, this machine's loopback.
    web_proxies: Annotated[tuple[Network, ...], NoDecode] = Field(
        default=LOOPBACK, alias="DECKHAND_WEB_PROXIES"
    )

    @field_validator("log_level")
    @classmethod
    def _log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("dev_guild", "shard_count", "web_url", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("web_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError("DECKHAND_WEB_URL starts with https:// (or http://)")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("DECKHAND_SHARD_IDS needs DECKHAND_SHARD_COUNT (all shards)")
            if not all(0 <= i < self.shard_count for i in self.shard_ids):
                raise ValueError("every DECKHAND_SHARD_IDS must be below DECKHAND_SHARD_COUNT")
            if set(self.shard_ids) != set(range(self.shard_count)) and not is_postgres(self.db):
                raise ValueError(
                    "a process that runs only some shards shares its database with the "
                    "others: DECKHAND_DB must be a postgresql:// URL"
                )
        return self

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the guild's shard (Discord's ``(guild_id >> 22) %
        shard_count``), and so its tables' timers and computer moves. Without shard
        settings one process owns every guild."""
        if self.shard_count is None:
            return True
        shard = (guild_id >> 22) % self.shard_count
        return self.shard_ids is None or shard in self.shard_ids

    @field_validator("web_proxies", mode="before")
    @classmethod
    def _proxy_list(cls, value: object) -> object:
        return networks(value) if isinstance(value, str) else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p for p in value.replace(" ", "").split(",") if p]
            return tuple(int(p) for p in parts) or None
        return value


def _problem(error: object) -> str:
    """One pydantic error as "NAME: why", without the value read."""
    assert isinstance(error, dict)
    where = ".".join(str(part) for part in error.get("loc", ()))
    why = str(error.get("msg", "is not valid")).removeprefix("Value error, ")
    return f"{where}: {why}" if where else why


def load_settings() -> Settings:
    """The settings of this environment and its ``.env``; ``SettingsError`` names what
    to fix."""
    try:
        return Settings()
    except ValidationError as exc:
        problems = "; ".join(_problem(e) for e in exc.errors())
        raise SettingsError(
            _(
                "A setting is wrong ({problems}): fix it in .env or the environment "
                "(.env.example explains every setting).",
                problems=problems,
            )
        ) from None
