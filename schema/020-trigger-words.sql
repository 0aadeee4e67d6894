-- rulings schema, version 20: the full-text triggers' message true for
-- any install.
--
-- The triggers of schema/016-plain-sql.sql named their function
--   load the rulings_fts extension to write to rulings
--   (LIBDIR/rulings/rulings_fts.so; man rulings)
-- with "LIBDIR" as it is: a word of the manual, not a directory any
-- install has. The name cannot be the real path: it is stored in every
-- database, which moves between installs, and the extension of each must
-- give the function by the same name. It is now
--   load the rulings_fts extension to write to rulings
--   (rulings_fts.so, installed with rulings; man rulings, FILES)
-- and the manual's FILES section says where rulings_fts.so is. rulings
-- and the extension still give the function by schema 16's name (and by
-- schema 8's, rl_importing), for a user's own trigger copied from those.
--
-- Run as schema/016-plain-sql.sql is (src/db_schema.c,
-- rl_schema_triggers): a trigger of one of these names is replaced only
-- when its text is one the schema's migrations gave it; a user's own is
-- left in place.

CREATE TRIGGER rulings_fts_insert AFTER INSERT ON rulings
WHEN NOT "load the rulings_fts extension to write to rulings (rulings_fts.so, installed with rulings; man rulings, FILES)"() BEGIN
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
ON rulings WHEN NOT "load the rulings_fts extension to write to rulings (rulings_fts.so, installed with rulings; man rulings, FILES)"() BEGIN
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
WHEN "load the rulings_fts extension to write to rulings (rulings_fts.so, installed with rulings; man rulings, FILES)"() IS NOT NULL BEGIN
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
