-- Provisional players: a player is provisional in a league season (and game) until they
-- have played this many counted games; standings list them apart, below every
-- established player (see bot.services.leagues).

ALTER TABLE leagues ADD COLUMN provisional_games INTEGER NOT NULL DEFAULT 5
    CHECK (provisional_games >= 0);
