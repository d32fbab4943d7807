"""Open live feeds counted in the database: a client's cap holds across processes.

``live_feeds`` holds a row per open feed (the client it counts against and the
server process, the node, serving it); ``live_feed_nodes`` a lease per process,
renewed every third of its length. ``live_feed_open`` takes an advisory lock on
the client, counts its feeds on nodes whose lease is current and adds the new one
if the cap allows, in one call; ``live_feed_lease`` renews a node's lease and
removes the nodes (and, by the cascade, the feeds) whose lease has lapsed, so a
killed process's feeds stop counting once its lease is over. A closed feed's row
is deleted. Both tables are UNLOGGED: they describe connections, which a
PostgreSQL crash ends anyway, and an open or a close then writes no WAL.

Revision ID: 0018_live_feeds
Revises: 0017_set_append
Create Date: 2026-11-27
"""

from alembic import op

from migrations.functions import create_function

revision = "0018_live_feeds"
down_revision = "0017_set_append"
branch_labels = None
depends_on = None

APP_ROLE = "matchlog_app"


def upgrade() -> None:
    op.execute(
        """
        CREATE UNLOGGED TABLE live_feed_nodes (
            node_id    uuid        PRIMARY KEY,
            expires_at timestamptz NOT NULL
        )
        """
    )
    op.execute(
        """
        CREATE UNLOGGED TABLE live_feeds (
            feed_id    uuid        PRIMARY KEY,
            node_id    uuid        NOT NULL REFERENCES live_feed_nodes ON DELETE CASCADE,
            client_key text        NOT NULL,
            opened_at  timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute("CREATE INDEX live_feeds_client_idx ON live_feeds (client_key)")
    create_function("live_feed_open", "0018_live_feeds")
    create_function("live_feed_lease", "0018_live_feeds")
    for table in ("live_feed_nodes", "live_feeds"):
        op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {APP_ROLE}")


def downgrade() -> None:
    op.execute("DROP FUNCTION live_feed_lease(uuid, double precision)")
    op.execute("DROP FUNCTION live_feed_open(uuid, uuid, text, integer)")
    op.execute("DROP TABLE live_feeds")
    op.execute("DROP TABLE live_feed_nodes")
