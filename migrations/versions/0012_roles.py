"""The service's role, ``matchlog_app``: it owns nothing and may only do what the service does.

The tables stay owned by whoever runs the migrations (on the embedded server, its
superuser). The service and the CLI connect as ``matchlog_app`` (or as a login role
that is a member of it), which may read and append events but never change or
remove one: it has no UPDATE, DELETE or TRUNCATE on ``events``, and, owning no
table and being no superuser, it can neither disable the append-only triggers nor
set ``session_replication_role``. The read models, which a rebuild truncates and
recomputes, and the accounts get the statements their code runs.

The role is cluster-wide: it is created here (NOLOGIN) only if it does not exist,
so a server's administrator may create it first, with LOGIN and a password, and a
migrating role without CREATEROLE can still run this. A later migration that adds
a table grants ``matchlog_app`` what the service needs on it.

Also here: ``api_tokens.expires_at``, after which a token is refused like a revoked one.

Revision ID: 0012_roles
Revises: 0011_chain_v2
Create Date: 2026-11-26
"""

from alembic import op

revision = "0012_roles"
down_revision = "0011_chain_v2"
branch_labels = None
depends_on = None

APP_ROLE = "matchlog_app"

_GRANTS = {
    "events": "SELECT, INSERT",
    "players": "SELECT, INSERT",
    "competitions": "SELECT, INSERT",
    "api_tokens": "SELECT, INSERT, UPDATE",
    "idempotent_requests": "SELECT, INSERT",
    "matches": "SELECT, INSERT, UPDATE, DELETE, TRUNCATE",
    "match_series": "SELECT, INSERT, UPDATE, DELETE, TRUNCATE",
    "competition_standings": "SELECT, INSERT, UPDATE, DELETE, TRUNCATE",
    # Every command checks the schema's revision before it starts.
    "alembic_version": "SELECT",
}


def upgrade() -> None:
    # Two migrations (or an embedded server's first start) may race to create it.
    op.execute(
        f"""
        DO $$
        BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                CREATE ROLE {APP_ROLE} NOLOGIN;
            END IF;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;
        END
        $$
        """
    )
    for table, privileges in _GRANTS.items():
        op.execute(f"GRANT {privileges} ON {table} TO {APP_ROLE}")
    # Identity columns need no grant on their sequences; any other sequence would.
    op.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {APP_ROLE}")
    op.execute(f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO {APP_ROLE}")
    op.execute("ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz")


def downgrade() -> None:
    op.execute("ALTER TABLE api_tokens DROP COLUMN expires_at")
    # The role stays: other databases on the server may grant it privileges too.
    op.execute(f"REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM {APP_ROLE}")
    op.execute(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {APP_ROLE}")
    for table in _GRANTS:
        op.execute(f"REVOKE ALL ON {table} FROM {APP_ROLE}")
