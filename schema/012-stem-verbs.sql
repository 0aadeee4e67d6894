-- rulings schema, version 12: French verbs' inflections meet.
--
-- The rl_stem tokenizer's version 3 (src/stemtok.c) gives each French word
-- one more form beside its Snowball stem: the root of a first-group verb's
-- paradigm ("défaussent", "défausse", "défaussée" -> "defauss"; "modifie",
-- "modifier", "modifient" -> "modifi"), in documents and in queries, so
-- that the inflections Snowball leaves apart (third person plurals in -ent,
-- verbs in -ier and -yer, words too short for its rules) find each other.
-- For other languages version 3 is version 2: only the French table is made
-- again, declared with version 3, and rebuilt from the rulings (its content
-- table, a view over rulings, and the triggers that name it are unchanged).
-- Version 2 stays for the tables that declare it, so that a database is
-- read with the tokenizer its index was made with until it is upgraded.
DROP TABLE rulings_fts_fr;

CREATE VIRTUAL TABLE rulings_fts_fr USING fts5(title, body,
  content = 'rulings_text_fr', content_rowid = 'id', tokenize = 'rl_stem 3 fr');

INSERT INTO rulings_fts_fr(rulings_fts_fr) VALUES ('rebuild');
