-- Deckhand installed to a user's account (bot.ui.places): a table in a place its bot is
-- no member of (a DM or group DM between users, a server that did not add the bot) is
-- reached only through interaction tokens; a DM or group DM keeps its own leagues (its
-- league scope is its channel id), kept by the user who opened the first table there.

-- The tables only interaction tokens reach (any other table: the bot's token as well).
CREATE TABLE discord_tokens_only (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    PRIMARY KEY (table_id)
) WITHOUT ROWID;

-- Who keeps the leagues of a DM or group DM: the first user to open a table there.
CREATE TABLE discord_keepers (
    scope_id INTEGER NOT NULL,   -- the DM's or group DM's channel id
    user_id  INTEGER NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (scope_id)
) WITHOUT ROWID;
