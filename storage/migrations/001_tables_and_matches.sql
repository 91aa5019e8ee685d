-- Tables (one per channel while open), their append-only action logs, finished matches.

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    channel_id    INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,          -- 0 = offline (terminal) play
    league_id     INTEGER,                   -- named league chosen at creation; NULL = guild default
    game          TEXT    NOT NULL,
    options       TEXT    NOT NULL,          -- JSON, validated by the engine
    host_id       INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'aborted')),
    seed          INTEGER NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0, -- number of actions applied
    seats         TEXT    NOT NULL,          -- JSON list of seat occupants
    snapshot      TEXT,                      -- JSON envelope of the engine state (NULL in lobby)
    deadline      REAL,                      -- turn timer: when the current turn times out
    reminded      INTEGER NOT NULL DEFAULT 0, -- 1 once the half-time reminder went out
    turn_timer    INTEGER NOT NULL DEFAULT 300, -- seconds a human has per turn; 0 = no timer
    quarantine    TEXT,                      -- why the snapshot could not be loaded; NULL = fine
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    started_at    REAL,
    finished_at   REAL
);
-- At most one open table per channel; finished/aborted ones stay as history.
CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_status ON tables (status, updated_at);

CREATE TABLE table_actions (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,             -- the version this action produced (1, 2, …)
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    by_user    INTEGER,                      -- NULL when a computer player (or timer) acted
    timed_out  INTEGER NOT NULL DEFAULT 0,   -- 1 when the computer moved for an absent player
    at         REAL    NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;

CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER REFERENCES tables (id) ON DELETE SET NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    league_id   INTEGER,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL    NOT NULL
);
CREATE INDEX matches_guild_time ON matches (guild_id, finished_at);

CREATE TABLE match_seats (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER,                       -- NULL for a computer player
    bot_level TEXT,                          -- NULL for a human
    name      TEXT    NOT NULL,
    team      INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    rank      INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat),
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))
) WITHOUT ROWID;
CREATE INDEX match_seats_user ON match_seats (user_id, match_id);
