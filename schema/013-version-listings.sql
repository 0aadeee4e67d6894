-- rulings schema, version 13: what each version of a document listed.
--
-- A document's versions are ordered by their dates, not by the order they
-- were imported in: an older release imported after a newer one goes into
-- its place in the history. Its changes are recorded against the version
-- dated before it, and those of the version dated after it are computed
-- again against it; the current text of a ruling stays the newest
-- version's. To diff any two neighbours, each version keeps its listing:
-- which rulings it had, with which title and text, and whether it marked
-- the ruling's answer as changed. (A rowid table: its rows hold whole
-- texts, too big for the pages of a WITHOUT ROWID table's keys.)
CREATE TABLE version_rulings (
  import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  ruling_id INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  title     TEXT NOT NULL,
  body      TEXT NOT NULL,
  marked    INTEGER NOT NULL DEFAULT 0 CHECK (marked IN (0, 1)),
  PRIMARY KEY (import_id, ruling_id)
);
CREATE INDEX version_rulings_ruling ON version_rulings(ruling_id);

-- An older database: each version's listing is worked out from what its
-- document lists now and the changes recorded after that version (its
-- versions were compared in import order). A ruling the document changed
-- after version i had, at i, the old text of the first such change (none
-- if that change added it); one it did not change since is listed with
-- its current text if the document still lists it. Exact for rulings that
-- one document lists (rulebooks, glossaries); a ruling shared by several
-- FAQ pages may have been changed through another page.
INSERT OR IGNORE INTO version_rulings (import_id, ruling_id, title, body, marked)
  SELECT i.id, c.ruling_id, c.old_title, c.old_body, 0
  FROM imports i
  JOIN imports j ON j.document_id = i.document_id AND j.id > i.id
  JOIN changes c ON c.import_id = j.id
  WHERE c.change <> 'added' AND c.old_title IS NOT NULL
    AND c.old_body IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM changes c2
      JOIN imports k ON k.id = c2.import_id
      WHERE c2.ruling_id = c.ruling_id AND k.document_id = i.document_id
        AND k.id > i.id AND k.id < j.id);
INSERT OR IGNORE INTO version_rulings (import_id, ruling_id, title, body, marked)
  SELECT i.id, r.id, r.title, r.body,
         r.changed AND ifnull(r.marked_import <= i.id, 0)
  FROM imports i
  JOIN ruling_sources s ON s.document_id = i.document_id
  JOIN rulings r ON r.id = s.ruling_id
  WHERE r.withdrawn_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM changes c
      JOIN imports k ON k.id = c.import_id
      WHERE c.ruling_id = r.id AND k.document_id = i.document_id
        AND k.id > i.id);
