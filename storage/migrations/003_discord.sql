-- Discord messages of each table, and notices already given (so they are given once).

CREATE TABLE discord_messages (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('table', 'hand', 'ping')),
    user_id    INTEGER NOT NULL DEFAULT 0,   -- 0 for the public table message
    channel_id INTEGER NOT NULL,             -- the table's channel, or the user's DM channel
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, kind, user_id)
) WITHOUT ROWID;

CREATE TABLE discord_notices (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    notice   TEXT    NOT NULL,               -- e.g. 'dm_closed'
    at       REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id, notice)
) WITHOUT ROWID;
