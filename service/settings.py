"""The one settings object, read from ``MATCHLOG_*`` environment variables."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Service and CLI configuration; pass it in, never cache it at import."""

    model_config = SettingsConfigDict(env_prefix="MATCHLOG_", extra="ignore")

    database_url: str | None = Field(
        default=None,
        description="postgresql:// URL; unset means the embedded server in <data_dir>/pg",
    )
    data_dir: Path = Field(default=Path("matchlog-data"), description="where embedded data lives")
    host: str = Field(default="127.0.0.1", description="address `matchlog serve` listens on")
    port: int = Field(default=8000, ge=0, le=65535, description="port `matchlog serve` listens on")
    pool_min_size: int = Field(default=1, ge=1)
    pool_max_size: int = Field(default=10, ge=1)
    max_body_size: int = Field(
        default=1024 * 1024,
        ge=1,
        description="largest request body accepted, in bytes; larger ones get 413 BODY_TOO_LARGE",
    )
    live_max_feeds: int = Field(
        default=1000,
        ge=1,
        description="live feeds one server process holds open at once; more get 429",
    )
    live_max_feeds_per_client: int = Field(
        default=20,
        ge=1,
        description="live feeds one client (its token, else its address) holds open; more get 429",
    )
    live_page_size: int = Field(
        default=200,
        ge=1,
        description="events a live feed reads from its backlog at a time",
    )
    live_token_check_interval: float = Field(
        default=5.0,
        gt=0,
        description="seconds between re-checks of an idle live feed's token",
    )
