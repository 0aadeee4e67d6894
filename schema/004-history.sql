-- rulings schema, version 4: every version of every ruling, and what each
-- import of a document changed.
--
-- An import of a document is a version of it. Its first import is the
-- baseline and records no change; a later one records, per ruling, added
-- (new to the database, or back after being withdrawn), edited (its text
-- differs once white space is folded) or withdrawn (no document lists it
-- any more: kept, with its last sources and tags, but hidden from search).
-- ruling_versions keeps each text a ruling had and which import gave it.

ALTER TABLE rulings ADD COLUMN withdrawn_at TEXT;   -- NULL while current
CREATE INDEX rulings_withdrawn ON rulings(withdrawn_at)
  WHERE withdrawn_at IS NOT NULL;

CREATE TABLE changes (
  id        INTEGER PRIMARY KEY,
  import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  ruling_id INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  change    TEXT NOT NULL CHECK (change IN ('added', 'edited', 'withdrawn')),
  old_title TEXT, old_body TEXT,     -- NULL for added
  new_title TEXT, new_body TEXT      -- NULL for withdrawn
);
CREATE INDEX changes_import ON changes(import_id);
CREATE INDEX changes_ruling ON changes(ruling_id);

CREATE TABLE ruling_versions (
  ruling_id INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  title     TEXT NOT NULL,
  body      TEXT NOT NULL,
  PRIMARY KEY (ruling_id, import_id)
) WITHOUT ROWID;

-- What a database of an older version holds is each ruling's first known
-- version, from the latest import that lists it.
INSERT INTO ruling_versions (ruling_id, import_id, title, body)
  SELECT r.id, max(s.import_id), r.title, r.body
  FROM rulings r JOIN ruling_sources s ON s.ruling_id = r.id
  GROUP BY r.id;
