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
        description="postgresql:// URL the service and the CLI connect with (the app role's); "
        "unset means the embedded server in <data_dir>/pg",
    )
    migration_database_url: str | None = Field(
        default=None,
        description="postgresql:// URL of the role that owns the schema, for migrations; "
        "unset means database_url's role (the embedded server: its superuser)",
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
