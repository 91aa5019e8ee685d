"""Settings from the environment and ``.env`` (every key is listed in ``.env.example``)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Deckhand's configuration. Environment variables win over ``.env``."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    db: Path = Field(default=Path("data/deckhand.db"), alias="DECKHAND_DB")
    dev_guild: int | None = Field(default=None, alias="DECKHAND_DEV_GUILD")
    log_level: str = Field(default="INFO", alias="DECKHAND_LOG_LEVEL")
