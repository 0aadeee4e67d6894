-- rulings schema, version 15: champion lists per game for the terms the
-- thesaurus binds to a game (src/topk.c; issue 16).
--
-- A concept under a "[Game]" line of the thesaurus widens a word to its
-- equivalents for that game's rulings only (`power` finds Spirit Island's
-- "Pouvoir"). The lists of schema 14 are over all games, so under that
-- condition they could not prove a search's best rulings, and every
-- match was scored. For each full-text table, each single-word term of
-- such a concept (as the table's index holds it) that has a list there,
-- and each game of the concept's name, topk_glists holds the 512 rows of
-- that game of highest g0 (the same weight as topk_lists'), and
-- topk_gterms the game's rows holding the term (docs) and the g0 of its
-- best row left out (tau, 0 when the list holds them all). They are
-- built with the other lists, and again when a thesaurus is imported.
-- No row for a (table, term, game): the search takes every row of the
-- term there (src/topk.c).

CREATE TABLE IF NOT EXISTS topk_gterms (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  game_id INTEGER NOT NULL,
  docs INTEGER NOT NULL,        -- the game's rows holding it when built
  tau REAL NOT NULL,            -- no row of the game outside the list
                                -- weighed more
  PRIMARY KEY (tbl, term, game_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS topk_glists (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  game_id INTEGER NOT NULL,
  g0 REAL NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (tbl, term, game_id, g0 DESC, rid)
) WITHOUT ROWID;

-- A ruling moved to another game leaves one game's lists and may belong
-- in another's: noted as changed, like an edit (scored beside the lists
-- until they are built again).
DROP TRIGGER IF EXISTS topk_update;
CREATE TRIGGER topk_update AFTER UPDATE OF id, title, body, lang, game_id
ON rulings
WHEN old.id IS NOT new.id OR old.title IS NOT new.title
  OR old.body IS NOT new.body OR old.lang IS NOT new.lang
  OR old.game_id IS NOT new.game_id BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (old.id);
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);
END;
