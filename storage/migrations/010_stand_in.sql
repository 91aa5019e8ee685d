-- The computer level a server chose to play for a player whose turn timer ran out, or who
-- left a running game (NULL: Deckhand's default, normal).

ALTER TABLE guild_preferences ADD COLUMN stand_in TEXT
    CHECK (stand_in IN ('random', 'normal', 'expert'));
