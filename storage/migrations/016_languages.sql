-- The language each player reads Deckhand in, and each server's (NULL: not chosen; a
-- player's falls back to their Discord client's language when Deckhand has it, then to
-- the server's, then to English). ``locale`` is the Discord client's language as last seen
-- (an interaction's ``locale``, e.g. ``en-US``), for messages sent outside an interaction.
-- No CHECK: catalogs come and go without a migration; an unknown value is passed over.

ALTER TABLE player_preferences ADD COLUMN language TEXT;
ALTER TABLE player_preferences ADD COLUMN locale TEXT;
ALTER TABLE guild_preferences ADD COLUMN language TEXT;
