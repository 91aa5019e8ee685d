-- Publication on the standings web page (`deckhand web`): a league is shown only once an
-- admin published it, and the site's opaque links are keyed by one secret per database.

ALTER TABLE leagues ADD COLUMN published INTEGER NOT NULL DEFAULT 0;  -- 1 = on the web page

CREATE TABLE site_keys (
    name   TEXT NOT NULL PRIMARY KEY,      -- 'slugs': the key of the site's opaque links
    secret TEXT NOT NULL                   -- hex; made once, on the first publication
) WITHOUT ROWID;
