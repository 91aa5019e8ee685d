-- Events (Swiss, round robin, duplicate): sign-ups, and every table of every round with
-- its seats and, once played, its result. Pairings and standings are computed from these
-- rows (bot.services.events), so an event survives a restart as it is.

CREATE TABLE events (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    format     TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'duplicate')),
    rounds     INTEGER NOT NULL,
    boards     INTEGER NOT NULL,             -- boards a round (duplicate); 1 otherwise
    options    TEXT    NOT NULL,             -- JSON game options
    seed       INTEGER NOT NULL,             -- boards' and tables' seeds come from it
    league_id  INTEGER REFERENCES leagues (id) ON DELETE SET NULL,
    status     TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round      INTEGER NOT NULL DEFAULT 0,   -- the round being played (0 before the start)
    created_by INTEGER NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX events_guild ON events (guild_id, status);

CREATE TABLE event_entrants (
    event_id  INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    joined    INTEGER NOT NULL,              -- sign-up order, from 1
    seed      INTEGER,                       -- from the start: 1 = first seed
    entrant   INTEGER,                       -- from the start: the user id, or a team number
    withdrawn INTEGER NOT NULL DEFAULT 0,    -- 1: paired no more (a bye is not given)
    PRIMARY KEY (event_id, user_id)
) WITHOUT ROWID;

CREATE TABLE event_tables (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round    INTEGER NOT NULL,
    table_no INTEGER NOT NULL,               -- from 1; byes after the tables
    board    INTEGER NOT NULL,               -- duplicate board number; 0 otherwise
    seed     INTEGER NOT NULL,               -- the game's seed (shared by a board's tables)
    side_a   INTEGER NOT NULL,               -- entrants, first-named first
    side_b   INTEGER,                        -- NULL: side_a has a bye
    seats    TEXT    NOT NULL,               -- JSON user id per seat ([] for a bye)
    scores   TEXT,                           -- JSON final score per seat; NULL until played
    points   REAL,                           -- side_a's points (not duplicate); NULL until played
    match_id INTEGER REFERENCES matches (id) ON DELETE SET NULL,
    PRIMARY KEY (event_id, round, table_no, board)
) WITHOUT ROWID;
