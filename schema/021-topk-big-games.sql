-- rulings schema, version 21: every listed term's list of each game that
-- holds a large share of the rulings (src/topk.c; issue 16).
--
-- A search with --game of such a game (a tenth of 1M rulings in "Spirit
-- Island") read its candidates from the lists over all games, of which
-- about as large a share was of the game: `Isolate` found 52 of its
-- list's 512 rows there, scored them, and read on (20-25 ms where the
-- same word without a filter takes 12-18). The lists per game of schema
-- 15 (topk_glists) are built only for the terms the thesaurus binds to
-- a game. For each full-text table, each term that has a list there
-- (topk_terms) and each game holding at least 1/64 of the rulings and
-- less than half of them when the lists are built, topk_bterms holds the
-- game's rows holding the term (docs, 0 too) and the g0 of its best row
-- left out (tau, 0 when the list holds them all), and topk_blists those
-- 512 rows of highest g0 (the weight of topk_lists'), built in the same
-- pass as the other lists. A search filtered to that game reads its
-- candidates from them (or from topk_glists, the same lists, where the
-- thesaurus made one); rulings changed since the build (topk_dirty) are
-- scored beside them, as with the other lists. No row for a (table,
-- term, game): the lists over all games are read. An older database
-- upgraded has none until its lists are built again (an import that
-- rebuilds them, or `rulings reindex`).

CREATE TABLE IF NOT EXISTS topk_bterms (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  game_id INTEGER NOT NULL,
  docs INTEGER NOT NULL,        -- the game's rows holding it when built
  tau REAL NOT NULL,            -- no row of the game outside the list
                                -- weighed more
  PRIMARY KEY (tbl, term, game_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS topk_blists (
  tbl TEXT NOT NULL,
  term TEXT NOT NULL,
  game_id INTEGER NOT NULL,
  g0 REAL NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (tbl, term, game_id, g0 DESC, rid)
) WITHOUT ROWID;
