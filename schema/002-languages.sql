-- rulings schema, version 2: search that understands English, French and
-- Russian word forms, document dates, and a thesaurus across languages.
--
-- One FTS5 table per language replaces rulings_fts. Each is an
-- external-content index over a view of that language's rulings and uses
-- the rl_stem tokenizer (src/stemtok.c) with that language's stemmer for
-- Latin-script words (English in the Russian table); Cyrillic words always
-- take the Russian stemmer. Rulings in other languages go to
-- rulings_fts_xx, which folds case and diacritics but stems only Cyrillic
-- words. The tokenizer is registered by rulings
-- itself; the sqlite3 shell needs the rulings_fts extension (.load) to
-- query these tables.

DROP TRIGGER rulings_fts_insert;
DROP TRIGGER rulings_fts_delete;
DROP TRIGGER rulings_fts_update;
DROP TABLE rulings_fts;

CREATE VIEW rulings_text_en AS SELECT id, title, body FROM rulings WHERE lang = 'en';
CREATE VIEW rulings_text_fr AS SELECT id, title, body FROM rulings WHERE lang = 'fr';
CREATE VIEW rulings_text_ru AS SELECT id, title, body FROM rulings WHERE lang = 'ru';
CREATE VIEW rulings_text_xx AS SELECT id, title, body FROM rulings
  WHERE lang NOT IN ('en', 'fr', 'ru');

CREATE VIRTUAL TABLE rulings_fts_en USING fts5(title, body,
  content = 'rulings_text_en', content_rowid = 'id', tokenize = 'rl_stem en');
CREATE VIRTUAL TABLE rulings_fts_fr USING fts5(title, body,
  content = 'rulings_text_fr', content_rowid = 'id', tokenize = 'rl_stem fr');
CREATE VIRTUAL TABLE rulings_fts_ru USING fts5(title, body,
  content = 'rulings_text_ru', content_rowid = 'id', tokenize = 'rl_stem en');
CREATE VIRTUAL TABLE rulings_fts_xx USING fts5(title, body,
  content = 'rulings_text_xx', content_rowid = 'id', tokenize = 'rl_stem none');

-- Each trigger adds a ruling to the table of its language and removes it
-- from the table of its old language.
CREATE TRIGGER rulings_fts_insert AFTER INSERT ON rulings BEGIN
  INSERT INTO rulings_fts_en(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'en';
  INSERT INTO rulings_fts_fr(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'fr';
  INSERT INTO rulings_fts_ru(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'ru';
  INSERT INTO rulings_fts_xx(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang NOT IN ('en', 'fr', 'ru');
END;

CREATE TRIGGER rulings_fts_delete AFTER DELETE ON rulings BEGIN
  INSERT INTO rulings_fts_en(rulings_fts_en, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'en';
  INSERT INTO rulings_fts_fr(rulings_fts_fr, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'fr';
  INSERT INTO rulings_fts_ru(rulings_fts_ru, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'ru';
  INSERT INTO rulings_fts_xx(rulings_fts_xx, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body
    WHERE old.lang NOT IN ('en', 'fr', 'ru');
END;

CREATE TRIGGER rulings_fts_update AFTER UPDATE OF title, body, lang ON rulings
BEGIN
  INSERT INTO rulings_fts_en(rulings_fts_en, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'en';
  INSERT INTO rulings_fts_fr(rulings_fts_fr, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'fr';
  INSERT INTO rulings_fts_ru(rulings_fts_ru, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body WHERE old.lang = 'ru';
  INSERT INTO rulings_fts_xx(rulings_fts_xx, rowid, title, body)
    SELECT 'delete', old.id, old.title, old.body
    WHERE old.lang NOT IN ('en', 'fr', 'ru');
  INSERT INTO rulings_fts_en(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'en';
  INSERT INTO rulings_fts_fr(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'fr';
  INSERT INTO rulings_fts_ru(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'ru';
  INSERT INTO rulings_fts_xx(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang NOT IN ('en', 'fr', 'ru');
END;

INSERT INTO rulings_fts_en(rulings_fts_en) VALUES ('rebuild');
INSERT INTO rulings_fts_fr(rulings_fts_fr) VALUES ('rebuild');
INSERT INTO rulings_fts_ru(rulings_fts_ru) VALUES ('rebuild');
INSERT INTO rulings_fts_xx(rulings_fts_xx) VALUES ('rebuild');

-- A document's own date ("Дата добавления: 2014-10-31"), when it says.
ALTER TABLE documents ADD COLUMN date TEXT;

-- The thesaurus: concepts whose terms mean the same across languages (a
-- tag, a game term). A concept belongs to a game or to all (game_id NULL)
-- and to the thesaurus document that defined it.
CREATE TABLE concepts (
  id          INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  game_id     INTEGER REFERENCES games(id),
  line        INTEGER NOT NULL
);
CREATE INDEX concepts_document ON concepts(document_id);

CREATE TABLE concept_terms (
  concept_id INTEGER NOT NULL REFERENCES concepts(id) ON DELETE CASCADE,
  term       TEXT NOT NULL,
  term_fold  TEXT NOT NULL,          -- rl_key_loose(): folded, no accents
  lang       TEXT,                   -- NULL when the thesaurus does not say
  PRIMARY KEY (concept_id, term_fold)
) WITHOUT ROWID;
CREATE INDEX concept_terms_fold ON concept_terms(term_fold);
