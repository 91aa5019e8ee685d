-- Ratings over time, stored as matches are counted (bot.services.leagues), so charts and
-- pages read numbers instead of replaying a season.

-- A counted match's place among its league season's games of its game (1, 2, …): the
-- order its ratings were computed in. Numbered here for the matches counted so far.
ALTER TABLE league_matches ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE league_matches SET number = r.n FROM (
    SELECT league_id AS l, match_id AS m,
           ROW_NUMBER() OVER (PARTITION BY league_id, season, game ORDER BY match_id) AS n
    FROM league_matches
) AS r
WHERE league_matches.league_id = r.l AND league_matches.match_id = r.m;
CREATE UNIQUE INDEX league_matches_number ON league_matches (league_id, season, game, number);

-- Every human's rating after each of their counted matches.
CREATE TABLE league_ratings (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season    INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    games     INTEGER NOT NULL,              -- the player's n-th counted game of the season
    number    INTEGER NOT NULL,              -- the match's league_matches.number
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    PRIMARY KEY (league_id, season, game, user_id, games)
) WITHOUT ROWID;

-- Seasons' games counted before this migration, whose ratings over time are computed from
-- their matches in the background, a few hundred matches per transaction, up to
-- ``through`` (LeagueService.backfill); the row goes once they all are.
CREATE TABLE league_ratings_pending (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season    INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    through   INTEGER NOT NULL,
    PRIMARY KEY (league_id, season, game)
) WITHOUT ROWID;
INSERT INTO league_ratings_pending (league_id, season, game, through)
    SELECT league_id, season, game, MAX(number) FROM league_matches
    GROUP BY league_id, season, game;
