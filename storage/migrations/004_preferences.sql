-- How each player wants to see their cards, and each server's defaults for its players.
-- NULL means "not chosen": a player's NULL falls back to the server's, the server's to
-- Deckhand's own default.

CREATE TABLE player_preferences (
    user_id INTEGER NOT NULL,
    cards   TEXT CHECK (cards IN ('emoji', 'text')),
    deck    TEXT CHECK (deck IN ('two-colour', 'four-colour')),
    hand    TEXT CHECK (hand IN ('dm', 'channel', 'both')),
    PRIMARY KEY (user_id)
) WITHOUT ROWID;

CREATE TABLE guild_preferences (
    guild_id INTEGER NOT NULL,
    cards    TEXT CHECK (cards IN ('emoji', 'text')),
    deck     TEXT CHECK (deck IN ('two-colour', 'four-colour')),
    hand     TEXT CHECK (hand IN ('dm', 'channel', 'both')),
    threads  INTEGER CHECK (threads IN (0, 1)),  -- 1: /table new opens a thread by default
    PRIMARY KEY (guild_id)
) WITHOUT ROWID;
