-- rulings schema, version 1: the normalized store.
--
-- A document is one source text (an FAQ tag page, a rulebook, a glossary);
-- every import of a file is recorded against its document. A ruling is
-- stored once per game, kind, language and key (the normalized question,
-- rule number or term), however many documents it was seen in; where it
-- was seen is in ruling_sources, and which tags each page gave it is in
-- ruling_tags. rulings_fts is an external-content FTS5 index over the
-- title and body of every ruling, kept in step by triggers.

CREATE TABLE games (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE documents (
  id      INTEGER PRIMARY KEY,
  game_id INTEGER REFERENCES games(id),
  title   TEXT NOT NULL,
  format  TEXT NOT NULL,
  lang    TEXT NOT NULL
);
CREATE UNIQUE INDEX documents_identity
  ON documents(ifnull(game_id, 0), format, title);

CREATE TABLE imports (
  id          INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  path        TEXT NOT NULL,
  sha256      TEXT NOT NULL,
  size        INTEGER NOT NULL,
  format      TEXT NOT NULL,
  lang        TEXT NOT NULL,
  entries     INTEGER NOT NULL,
  imported_at TEXT NOT NULL          -- ISO 8601, UTC
);
CREATE INDEX imports_sha256 ON imports(sha256);
CREATE INDEX imports_document ON imports(document_id);

CREATE TABLE rulings (
  id       INTEGER PRIMARY KEY,
  game_id  INTEGER REFERENCES games(id),
  kind     TEXT NOT NULL CHECK (kind IN ('faq', 'errata', 'rule', 'glossary')),
  key      TEXT NOT NULL,            -- identity within game, kind, language
  lang     TEXT NOT NULL,
  rule     TEXT,                     -- rule number, for numbered rules
  title    TEXT NOT NULL,            -- question, rule heading, term
  body     TEXT NOT NULL,            -- answer, rule text, definition
  section  TEXT,
  category TEXT,
  changed  INTEGER NOT NULL DEFAULT 0 CHECK (changed IN (0, 1))
);
CREATE UNIQUE INDEX rulings_identity
  ON rulings(ifnull(game_id, 0), kind, lang, key);
CREATE INDEX rulings_rule ON rulings(rule) WHERE rule IS NOT NULL;
CREATE INDEX rulings_changed ON rulings(changed) WHERE changed = 1;

-- Where each ruling was seen: one row per ruling and document.
CREATE TABLE ruling_sources (
  ruling_id   INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  import_id   INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
  line        INTEGER NOT NULL,
  hidden_tags INTEGER,               -- "N more..." on that page; NULL if absent
  PRIMARY KEY (ruling_id, document_id)
) WITHOUT ROWID;
CREATE INDEX ruling_sources_document ON ruling_sources(document_id);

-- A tag is a name with an optional qualifier: "Wind Aspect (Lightning's
-- Swift Strike)" is name "Wind Aspect", qualifier "Lightning's Swift
-- Strike". Identity is case-insensitive (the *_fold columns hold the
-- case-folded forms, computed by the library for every script).
CREATE TABLE tags (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  qualifier TEXT NOT NULL DEFAULT '',
  name_fold TEXT NOT NULL,
  qual_fold TEXT NOT NULL DEFAULT '',
  UNIQUE (name_fold, qual_fold)
);

-- Which page gave a ruling which tag: 'listed' on the entry's Tags line,
-- or 'page', the title tag of a page the entry was seen on.
CREATE TABLE ruling_tags (
  ruling_id   INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  tag_id      INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  origin      TEXT NOT NULL CHECK (origin IN ('listed', 'page')),
  PRIMARY KEY (ruling_id, tag_id, document_id)
) WITHOUT ROWID;
CREATE INDEX ruling_tags_tag ON ruling_tags(tag_id, ruling_id);

-- Cross-references out of a ruling: to a rulebook page, a rule number, a
-- discussion, another ruling or a term. target_id is the ruling the
-- reference resolves to, when it does.
CREATE TABLE refs (
  id        INTEGER PRIMARY KEY,
  ruling_id INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  kind      TEXT NOT NULL
            CHECK (kind IN ('page', 'rule', 'discussion', 'ruling', 'term', 'url')),
  target    TEXT NOT NULL,
  target_id INTEGER REFERENCES rulings(id) ON DELETE SET NULL
);
CREATE INDEX refs_ruling ON refs(ruling_id);
CREATE INDEX refs_target ON refs(target_id) WHERE target_id IS NOT NULL;

-- Errata details, for rulings of kind 'errata'.
CREATE TABLE errata (
  ruling_id INTEGER PRIMARY KEY REFERENCES rulings(id) ON DELETE CASCADE,
  product   TEXT,
  printing  TEXT,
  document  TEXT,
  page      TEXT
);

CREATE VIRTUAL TABLE rulings_fts USING fts5(
  title, body,
  content = 'rulings', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2');

CREATE TRIGGER rulings_fts_insert AFTER INSERT ON rulings BEGIN
  INSERT INTO rulings_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER rulings_fts_delete AFTER DELETE ON rulings BEGIN
  INSERT INTO rulings_fts(rulings_fts, rowid, title, body)
    VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER rulings_fts_update AFTER UPDATE OF title, body ON rulings BEGIN
  INSERT INTO rulings_fts(rulings_fts, rowid, title, body)
    VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO rulings_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
