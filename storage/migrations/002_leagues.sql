-- Leagues, their seasons, which matches counted toward them, and the per-player totals.
-- matches/match_seats stay the source of truth; everything here can be rebuilt from them.

CREATE TABLE leagues (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,            -- 0 = offline (terminal) play
    name        TEXT    NOT NULL,
    game        TEXT,                        -- NULL = every game (ratings kept per game)
    scoring     TEXT    NOT NULL,            -- 'rating' or 'points:W/D/L'
    count_bots  INTEGER NOT NULL DEFAULT 1,  -- 0 = games with a computer seat do not count
    is_default  INTEGER NOT NULL DEFAULT 0,  -- the guild's default league (every game counts)
    season      INTEGER NOT NULL DEFAULT 1,  -- the current season
    created_at  REAL    NOT NULL
);
CREATE UNIQUE INDEX leagues_guild_name ON leagues (guild_id, name COLLATE NOCASE);
CREATE UNIQUE INDEX leagues_guild_default ON leagues (guild_id) WHERE is_default = 1;

CREATE TABLE league_seasons (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season      INTEGER NOT NULL,
    after_match INTEGER NOT NULL,            -- matches with a larger id belong to this season (or later)
    started_at  REAL    NOT NULL,
    ended_at    REAL,                        -- NULL for the current season
    PRIMARY KEY (league_id, season)
) WITHOUT ROWID;

-- Which match counted toward which league and season (derived; rebuilt from matches).
CREATE TABLE league_matches (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    season    INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    PRIMARY KEY (league_id, match_id)
) WITHOUT ROWID;
CREATE INDEX league_matches_season ON league_matches (league_id, season, match_id);
CREATE INDEX league_matches_match ON league_matches (match_id);

-- Running totals per league, season, game and human player, updated in the transaction
-- that records the match, so standings are one indexed range read.
CREATE TABLE league_players (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season      INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,            -- last known display name
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    ordinal     REAL    NOT NULL,            -- mu - 3 sigma, the conservative rating
    points      INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    score_sum   INTEGER NOT NULL,
    streak_kind TEXT    NOT NULL CHECK (streak_kind IN ('W', 'D', 'L')),
    streak_len  INTEGER NOT NULL,
    last_match  INTEGER NOT NULL,
    PRIMARY KEY (league_id, season, game, user_id)
) WITHOUT ROWID;
-- The two standings orders (see bot.services.leagues), so ranking never sorts.
CREATE INDEX league_players_by_rating
    ON league_players (league_id, season, game, ordinal DESC, wins DESC, games, user_id);
CREATE INDEX league_players_by_points
    ON league_players (league_id, season, game, points DESC, ordinal DESC, wins DESC, games, user_id);

-- Learned ratings of the computer levels (never ranked, but rated so that beating a weak
-- computer player again and again is worth less and less).
CREATE TABLE league_bot_ratings (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season    INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    bot_level TEXT    NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    PRIMARY KEY (league_id, season, game, bot_level)
) WITHOUT ROWID;
