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

CREATE TABLE topk_state (
  tbl TEXT PRIMARY KEY,
  rows INTEGER NOT NULL,        -- the table's rows when built
  avgdl REAL NOT NULL           -- its average length in tokens then
) WITHOUT ROWID;

CREATE TABLE topk_terms (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,           -- as the index holds it (stemmed)
  docs INTEGER NOT NULL,        -- rows holding it when built
  tau REAL NOT NULL,            -- no row outside its list weighed more
  PRIMARY KEY (tbl, term)
) WITHOUT ROWID;

CREATE TABLE topk_lists (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  g0 REAL NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (tbl, term, g0 DESC, rid)
) WITHOUT ROWID;

-- Rulings whose text changed (added, edited, deleted) since the lists were
-- built. rulings' own imports record theirs (src/store_stmt.c); these
-- triggers record the changes another program makes.
CREATE TABLE topk_dirty (rid INTEGER PRIMARY KEY);

CREATE TRIGGER topk_insert AFTER INSERT ON rulings
WHEN NOT rl_importing() BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);
END;
CREATE TRIGGER topk_update AFTER UPDATE OF id, title, body, lang ON rulings
WHEN NOT rl_importing() BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (old.id);
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (new.id);
END;
CREATE TRIGGER topk_delete AFTER DELETE ON rulings BEGIN
  INSERT OR IGNORE INTO topk_dirty (rid) VALUES (old.id);
END;
