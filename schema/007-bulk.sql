-- rulings schema, version 7: the full-text tables are fed by rulings
-- itself (src/store.c), not by triggers, and glossary entries have an
-- index of their own.
--
-- An AFTER INSERT trigger runs its INSERTs into the FTS5 table as nested
-- statements inside a statement transaction, and FTS5 writes out its
-- in-memory pending terms at every statement savepoint: a segment per
-- ruling, merged again and again. Inserting into the FTS5 table with one
-- plain statement per ruling keeps the terms in memory until the
-- transaction commits, as a bare bulk insert does (bench/RESULTS.md).
-- The DELETE trigger stays: rulings are deleted only by hand.

DROP TRIGGER rulings_fts_insert;
DROP TRIGGER rulings_fts_update;

-- Resolving term references looks up the glossary entries of a game.
CREATE INDEX rulings_glossary ON rulings(game_id) WHERE kind = 'glossary';
