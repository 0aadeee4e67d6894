-- rulings schema, version 14: champion lists beside the full-text tables,
-- so that a one-word search finds its best rulings without scoring every
-- ruling that holds the word (src/topk.c; issue 16).
--
-- For each full-text table (tbl: en, fr, ru, xx) and each of its terms
-- found in more than 512 rulings, topk_lists holds the 512 rulings of the
-- highest BM25 term weight g0 = f*(k1+1) / (f + k1*(1-b+b*D/avgdl)),
-- computed with the table's average length when the lists were built
-- (topk_state.avgdl); topk_terms.tau is the weight of the best ruling left
-- out. Rulings whose text changed since (topk_dirty) are always scored.
-- The lists are derived data: `rulings reindex` rebuilds them, and so
-- does an import after which too much changed (src/topk.c says when).

CREATE TABLE IF NOT EXISTS topk_state (
  tbl TEXT PRIMARY KEY,
  rows INTEGER NOT NULL,        -- the table's rows when built
  avgdl REAL NOT NULL           -- its average length in tokens then
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS topk_terms (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,           -- as the index holds it (stemmed)
  docs INTEGER NOT NULL,        -- rows holding it when built
  tau REAL NOT NULL,            -- no row outside its list weighed more
  PRIMARY KEY (tbl, term)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS topk_lists (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  g0 REAL NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (tbl, term, g0 DESC, rid)
) WITHOUT ROWID;

-- Rulings whose text changed (added, edited, deleted) since the lists were
-- built, recorded by these triggers whoever writes (they call no function:
-- a client without the rulings_fts extension is not refused by them), and
-- by rulings' own store (src/store_stmt.c), which also rebuilds the lists.
-- The file can run again (IF NOT EXISTS): an older database made by
-- dropping what later versions added still has these tables.
CREATE TABLE IF NOT EXISTS topk_dirty (rid INTEGER PRIMARY KEY);

DROP TRIGGER IF EXISTS topk_insert;
CREATE TRIGGER topk_insert AFTER INSERT ON rulings BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);
END;
DROP TRIGGER IF EXISTS topk_update;
CREATE TRIGGER topk_update AFTER UPDATE OF id, title, body, lang ON rulings
WHEN old.id IS NOT new.id OR old.title IS NOT new.title
  OR old.body IS NOT new.body OR old.lang IS NOT new.lang BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (old.id);
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);
END;
DROP TRIGGER IF EXISTS topk_delete;
CREATE TRIGGER topk_delete AFTER DELETE ON rulings BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (old.id);
END;
