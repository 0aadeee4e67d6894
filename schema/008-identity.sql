-- rulings schema, version 8: a file that says whose it is, full-text tables
-- that any SQLite client keeps true, and identity through utf8proc.
--
-- The database's PRAGMA application_id is 0x52554C47 ("RULG"), set by
-- rulings when it creates or upgrades a database (src/db.c); a file with
-- another one is not opened.
--
-- Triggers again keep the full-text tables in step with rulings when
-- another program (the sqlite3 shell, Python, a GUI) inserts, updates or
-- deletes rulings: it must load the rulings_fts extension, which provides
-- the rl_stem tokenizer and rl_importing(); without it the statement fails
-- (no such function, no such tokenizer) and nothing is changed. rulings'
-- own imports feed the tables themselves, in bulk (schema/007-bulk.sql):
-- while they write, rl_importing() is 1 and the triggers stand aside.
--
-- The stored fold columns and keys are computed again with the new
-- folding, and the full-text tables rebuilt if a ruling holds U+02BC (now
-- a separator, as ' is): src/refold.c, run after this file. Rulings and
-- tags that have become equal are merged.

-- (This file makes the three triggers whole again wherever it runs.
-- Schema 16 gives them again, under another name for the function, and
-- `rulings reindex` runs that file's, not this one.)
DROP TRIGGER IF EXISTS rulings_fts_insert;
DROP TRIGGER IF EXISTS rulings_fts_update;
DROP TRIGGER IF EXISTS rulings_fts_delete;

CREATE TRIGGER rulings_fts_insert AFTER INSERT ON rulings
WHEN NOT rl_importing() BEGIN
  INSERT INTO rulings_fts_en(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'en';
  INSERT INTO rulings_fts_fr(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'fr';
  INSERT INTO rulings_fts_ru(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang = 'ru';
  INSERT INTO rulings_fts_xx(rowid, title, body)
    SELECT new.id, new.title, new.body WHERE new.lang NOT IN ('en', 'fr', 'ru');
END;

CREATE TRIGGER rulings_fts_update AFTER UPDATE OF id, title, body, lang
ON rulings WHEN NOT rl_importing() BEGIN
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

-- The delete trigger of version 2, as it was: rulings itself deletes no
-- ruling but when it merges two (src/refold.c).
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
