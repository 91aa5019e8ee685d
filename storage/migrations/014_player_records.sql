-- Players' records, kept as matches are recorded (bot.services.leagues), so /stats and the
-- web player page read a few rows instead of counting every match again; filled here from
-- the matches so far. A seat won when no seat placed better and no other team placed the
-- same, drew when no seat placed better but another team placed the same (partners share
-- their placement, so that is their team's result).

-- Every finished match a user sat in, per guild, game and option set (the options decide
-- whether the highest or the lowest score is best).
CREATE TABLE player_games (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    options   TEXT    NOT NULL,
    played    INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    drawn     INTEGER NOT NULL,
    max_score INTEGER NOT NULL,
    min_score INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, options)
) WITHOUT ROWID;
INSERT INTO player_games
    (guild_id, user_id, game, options, played, won, drawn, max_score, min_score)
SELECT m.guild_id, s.user_id, m.game, m.options, COUNT(*),
    SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                              AND o.rank < s.rank)
              AND NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                              AND o.rank = s.rank AND o.team <> s.team)
        THEN 1 ELSE 0 END),
    SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                              AND o.rank < s.rank)
              AND EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                          AND o.rank = s.rank AND o.team <> s.team)
        THEN 1 ELSE 0 END),
    MAX(s.score), MIN(s.score)
FROM match_seats s JOIN matches m ON m.id = s.match_id
WHERE s.user_id IS NOT NULL
    AND (m.table_id IS NULL OR m.table_id NOT IN (
        -- a duplicate board that a table of it has not finished counts nowhere yet
        SELECT mine.table_id FROM events ev JOIN event_tables mine ON mine.event_id = ev.id
        WHERE ev.format = 'duplicate' AND mine.table_id IS NOT NULL AND EXISTS (
            SELECT 1 FROM event_tables o WHERE o.event_id = mine.event_id
            AND o.round = mine.round AND o.board = mine.board AND o.side_b IS NOT NULL
            AND o.scores IS NULL)))
GROUP BY m.guild_id, s.user_id, m.game, m.options;

-- Per guild, user, game and human partner (another seat of the user's team): matches
-- together, the last of them, and the partner's name there.
CREATE TABLE player_partners (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    partner_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    games      INTEGER NOT NULL,
    last_match INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, partner_id)
) WITHOUT ROWID;
INSERT INTO player_partners (guild_id, user_id, game, partner_id, name, games, last_match)
SELECT g.guild_id, g.user_id, g.game, g.partner_id, x.name, g.games, g.last_match FROM (
    SELECT m.guild_id AS guild_id, s.user_id AS user_id, m.game AS game,
           p.user_id AS partner_id, COUNT(*) AS games, MAX(p.match_id) AS last_match
    FROM match_seats s JOIN matches m ON m.id = s.match_id
    JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team AND p.seat <> s.seat
        AND p.user_id IS NOT NULL
    WHERE s.user_id IS NOT NULL
        AND (m.table_id IS NULL OR m.table_id NOT IN (
            -- a duplicate board that a table of it has not finished counts nowhere yet
            SELECT mine.table_id FROM events ev JOIN event_tables mine ON mine.event_id = ev.id
            WHERE ev.format = 'duplicate' AND mine.table_id IS NOT NULL AND EXISTS (
                SELECT 1 FROM event_tables o WHERE o.event_id = mine.event_id
                AND o.round = mine.round AND o.board = mine.board AND o.side_b IS NOT NULL
                AND o.scores IS NULL)))
    GROUP BY m.guild_id, s.user_id, m.game, p.user_id
) AS g JOIN match_seats x ON x.match_id = g.last_match AND x.user_id = g.partner_id;

-- The same per league season and game, for the matches that counted, with the results.
CREATE TABLE league_partners (
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season     INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    partner_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    last_match INTEGER NOT NULL,
    PRIMARY KEY (league_id, season, game, user_id, partner_id)
) WITHOUT ROWID;
INSERT INTO league_partners
    (league_id, season, game, user_id, partner_id, name, games, wins, draws, last_match)
SELECT g.league_id, g.season, g.game, g.user_id, g.partner_id, x.name, g.games, g.wins,
       g.draws, g.last_match FROM (
    SELECT lm.league_id AS league_id, lm.season AS season, lm.game AS game,
           s.user_id AS user_id, p.user_id AS partner_id, COUNT(*) AS games,
        SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                                  AND o.rank < s.rank)
                  AND NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                                  AND o.rank = s.rank AND o.team <> s.team)
            THEN 1 ELSE 0 END) AS wins,
        SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                                  AND o.rank < s.rank)
                  AND EXISTS (SELECT 1 FROM match_seats o WHERE o.match_id = s.match_id
                              AND o.rank = s.rank AND o.team <> s.team)
            THEN 1 ELSE 0 END) AS draws,
        MAX(p.match_id) AS last_match
    FROM league_matches lm JOIN match_seats s ON s.match_id = lm.match_id
    JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team AND p.seat <> s.seat
        AND p.user_id IS NOT NULL
    WHERE s.user_id IS NOT NULL
    GROUP BY lm.league_id, lm.season, lm.game, s.user_id, p.user_id
) AS g JOIN match_seats x ON x.match_id = g.last_match AND x.user_id = g.partner_id;

-- A player's rows of one league (their page), without a scan of the league's.
CREATE INDEX league_players_user ON league_players (league_id, user_id);
