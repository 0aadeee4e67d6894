-- rulings schema, version 16: a client without the rulings_fts extension
-- is told what to do.
--
-- The triggers of schema/008-identity.sql called rl_importing(), so that
-- the sqlite3 shell or Python without the extension, writing to rulings,
-- got SQLite's "no such function: rl_importing" and could not tell what
-- was wanted. They now call the same function by a name that says it:
-- such a statement fails, changing nothing, with
--   no such function: load the rulings_fts extension to write to rulings
--   (LIBDIR/rulings/rulings_fts.so; man rulings)
-- (the full-text tables need the extension's rl_stem tokenizer: without
-- it no trigger could keep them true). rulings and the extension give
-- the function under both names (src/schema.h, RL_TRIGGER_FN), so that a
-- user's own trigger that calls rl_importing() still runs.
--
-- These statements are not run as they are (src/db_schema.c,
-- rl_schema_triggers): a trigger of one of these names is replaced only
-- when its text is one the schema's migrations gave it; a user's own
-- (another text) is left in place. A missing one is created. `rulings
-- reindex` runs them again the same way.

CREATE TRIGGER rulings_fts_insert AFTER INSERT ON rulings
WHEN NOT "load the rulings_fts extension to write to rulings (LIBDIR/rulings/rulings_fts.so; man rulings)"() BEGIN
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
ON rulings WHEN NOT "load the rulings_fts extension to write to rulings (LIBDIR/rulings/rulings_fts.so; man rulings)"() BEGIN
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

-- The delete trigger runs whoever deletes (rulings itself deletes no
-- ruling but when it merges two, src/refold.c): it names the function
-- only for the message a client without the extension gets (the
-- function is never NULL).
CREATE TRIGGER rulings_fts_delete AFTER DELETE ON rulings
WHEN "load the rulings_fts extension to write to rulings (LIBDIR/rulings/rulings_fts.so; man rulings)"() IS NOT NULL BEGIN
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
