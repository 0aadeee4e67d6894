-- rulings schema, version 18: each listed term's rows per game and kind
-- (src/topk.c; issue 16).
--
-- A search of one common word with --game or --kind counted its total by
-- joining every match to rulings: 733k rows for `power` at 1M rulings,
-- 0.2-0.9 s, where the rows themselves take 20 ms. For each term that has
-- a list in a full-text table (topk_terms), topk_gdocs holds how many of
-- the table's rows holding it are of each game (game_id, 0 for none) and
-- kind, counted as the lists' build reads the term's rows. A total of one
-- word sums them over the game and kind asked (src/search.c); they are
-- exact while no ruling changed since the build (topk_dirty empty) and
-- when they add up to the term's topk_terms.docs, else the search joins
-- as before. Withdrawn rulings are counted here and subtracted by the
-- search, as for the total without a filter. An older database upgraded
-- has none until its lists are built again (an import that rebuilds
-- them, or `rulings reindex`).

CREATE TABLE IF NOT EXISTS topk_gdocs (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  game_id INTEGER NOT NULL,     -- 0: rulings of no game
  kind TEXT NOT NULL,
  docs INTEGER NOT NULL,        -- the table's rows of that game and kind
                                -- holding the term when built
  PRIMARY KEY (tbl, term, game_id, kind)
) WITHOUT ROWID;

-- A ruling whose kind changes (an UPDATE by whoever writes) leaves one
-- kind's counts: noted as changed, as a move to another game is.
DROP TRIGGER IF EXISTS topk_update;
CREATE TRIGGER topk_update AFTER UPDATE OF id, title, body, lang, game_id, kind
ON rulings
WHEN old.id IS NOT new.id OR old.title IS NOT new.title
  OR old.body IS NOT new.body OR old.lang IS NOT new.lang
  OR old.game_id IS NOT new.game_id OR old.kind IS NOT new.kind BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (old.id);
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);
END;
