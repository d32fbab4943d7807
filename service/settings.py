"""The one settings object, read from ``MATCHLOG_*`` environment variables."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import annotated_types
from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from domain.errors import MalformedError

Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
"""Addresses and networks, as ``MATCHLOG_TRUSTED_PROXIES`` lists them."""


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
    read_database_url: str | None = Field(
        default=None,
        description="postgresql:// URL of the hot standby (or standbys: a multi-host URL) "
        "that serves reads (replays, timelines, standings, exports, lists, live feeds' "
        "backlogs) with a pool of its own; unset: every read goes to database_url",
    )
    read_wait: float = Field(
        default=2.0,
        ge=0,
        description="seconds a read carrying a Matchlog-Position waits for the standby to "
        "replay it before it goes to the primary",
    )
    data_dir: Path = Field(default=Path("matchlog-data"), description="where embedded data lives")
    host: str = Field(default="127.0.0.1", description="address `matchlog serve` listens on")
    port: int = Field(default=8000, ge=0, le=65535, description="port `matchlog serve` listens on")
    pool_min_size: int = Field(
        default=1, ge=1, description="database connections the server keeps open at least"
    )
    pool_max_size: int = Field(
        default=10,
        ge=1,
        description="database connections the server opens at most (live feeds' backlog "
        "reads take up to half)",
    )
    group_commit: bool = Field(
        default=True,
        description="concurrent match writes in one server process share a transaction "
        "and its commit (each is still checked and answered on its own)",
    )
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
    live_feed_lease: float = Field(
        default=30.0,
        gt=0,
        description="seconds a server process's live feeds go on counting against their "
        "clients after it last renewed its lease (every third of that): how long a "
        "killed process's feeds hold their clients' slots",
    )
    trusted_proxies: Annotated[Networks, NoDecode] = Field(
        default=(),
        description="reverse proxies (comma-separated addresses or CIDR networks) whose "
        "X-Forwarded-For is believed; from anyone else it is ignored",
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

    metrics: bool = Field(
        default=True,
        description="count requests and serve GET /metrics (admin token); off: neither",
    )
    metrics_address: str | None = Field(
        default=None,
        description="host:port where `matchlog serve` also serves the metrics, without a "
        "token (only with --workers 1); unset: only GET /metrics on the main address",
    )

    @field_validator("metrics_address")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        """Accept ``host:port`` (``[::1]:9100`` for an IPv6 host)."""
        if value is None:
            return None
        split_address(value)
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _networks(cls, value: object) -> object:
        """Read ``"10.0.0.1, 192.168.0.0/16"`` as networks (an address is a network of one)."""
        if isinstance(value, str):
            parts = (part.strip() for part in value.split(","))
            return tuple(ipaddress.ip_network(part, strict=False) for part in parts if part)
        return value


def split_address(address: str) -> tuple[str, int]:
    """Return the host and port of ``host:port``.

    >>> split_address('127.0.0.1:9100')
    ('127.0.0.1', 9100)
    >>> split_address('[::1]:9100')
    ('::1', 9100)

    Raises:
        ValueError: not ``host:port`` with a port from 0 to 65535.
    """
    host, colon, port = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"not host:port: {address!r}")
    return host, int(port)


def load_settings() -> Settings:
    """Return the settings from the environment, or say in one line which one is wrong.

    Raises:
        MalformedError (BAD_SETTING): a ``MATCHLOG_*`` variable's value cannot be used.
    """
    try:
        return Settings()
    except ValidationError as e:
        wrong = {str(error["loc"][0]): error["input"] for error in e.errors() if error["loc"]}
        raise MalformedError(
            "; ".join(f"{_wrong_setting(name)} (not {value!r})" for name, value in wrong.items())
            or str(e).splitlines()[0],
            code="BAD_SETTING",
        ) from None


def _wrong_setting(name: str) -> str:
    """Return what a setting must be, as its variable's user reads it.

    >>> _wrong_setting('port')
    'MATCHLOG_PORT must be a whole number from 0 to 65535'
    """
    field = Settings.model_fields[name]
    low = next((m.ge for m in field.metadata if isinstance(m, annotated_types.Ge)), None)
    high = next((m.le for m in field.metadata if isinstance(m, annotated_types.Le)), None)
    if field.annotation is int:
        what = "a whole number"
        if low is not None and high is not None:
            what += f" from {low} to {high}"
        elif low is not None:
            what += f" of at least {low}"
    elif field.annotation is float:
        what = "a number" + ("" if low is None else f" of at least {low}")
    elif field.annotation is bool:
        what = "true or false"
    elif field.annotation is Path:
        what = "a folder's path"
    elif name == "metrics_address":
        what = "host:port (such as 127.0.0.1:9100)"
    elif name == "trusted_proxies":
        what = "IP addresses or networks (such as 10.0.0.0/8), separated by commas"
    else:
        what = "text"
    return f"{Settings.model_config.get('env_prefix', '')}{name.upper()} must be {what}"
