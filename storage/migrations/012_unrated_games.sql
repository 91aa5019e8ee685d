-- Unrated games: a hint was used at the table (bot.services.tables.hints), so its game is
-- recorded like any other but counts toward no league's ratings or standings. Kept on
-- the table from the first hint (a restart or another process keeps it) and on its match.

ALTER TABLE tables ADD COLUMN unrated INTEGER NOT NULL DEFAULT 0 CHECK (unrated IN (0, 1));
ALTER TABLE matches ADD COLUMN unrated INTEGER NOT NULL DEFAULT 0 CHECK (unrated IN (0, 1));
