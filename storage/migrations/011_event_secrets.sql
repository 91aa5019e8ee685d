-- Event secrets: a new event's boards and tables are dealt from seeds derived from a
-- 128-bit secret with a keyed hash (bot.services.events.seeds), so no finished game's
-- seed leads to any other deal of the event. Hex; never shown. NULL: an event made
-- before, dealt from its 31-bit ``seed`` as it always was (``seed`` is 0 beside a secret).

ALTER TABLE events ADD COLUMN secret TEXT;
