-- Events in Discord: each event table is played at a table-service table in a thread of
-- the event's channel. ``channel_id`` is the thread (kept for the table's later boards),
-- ``table_id`` the table playing it (its finished match records the result in the same
-- transaction). ``announced`` is the last round announced in the event's channel
-- (``rounds + 1`` once the final standings were posted). ``computer`` is the level of the
-- computer player that evens out an odd field (NULL: none; the odd one out gets a bye);
-- ``message_id`` the event's sign-up message in its channel (kept up to date).

ALTER TABLE event_tables ADD COLUMN channel_id INTEGER;
ALTER TABLE event_tables ADD COLUMN table_id INTEGER REFERENCES tables (id) ON DELETE SET NULL;
CREATE INDEX event_tables_table ON event_tables (table_id);
ALTER TABLE events ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN computer TEXT;
ALTER TABLE events ADD COLUMN message_id INTEGER;
