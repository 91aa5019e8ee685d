-- A finished table's match, found from the table (a table message drawn again after a
-- restart names its game's number for /game replay).

CREATE INDEX matches_table ON matches (table_id);
