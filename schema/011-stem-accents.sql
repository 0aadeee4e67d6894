-- rulings schema, version 11: words stemmed as written, accents kept.
--
-- The rl_stem tokenizer's version 2 (src/stemtok.c) stems each word before
-- folding its accents, then folds the stem: the French stemmer sees the
-- endings it knows ("défaussée", "épuisée"), so every inflection of a verb
-- or adjective meets at one stem. Version 1, which folded first, stays for
-- the tables that declare it, so that a database is read with the tokenizer
-- its index was made with; here the four full-text tables are made again
-- with version 2 and rebuilt from the rulings (the content tables, views
-- over rulings, and the triggers that name these tables are unchanged).
DROP TABLE rulings_fts_en;
DROP TABLE rulings_fts_fr;
DROP TABLE rulings_fts_ru;
DROP TABLE rulings_fts_xx;

CREATE VIRTUAL TABLE rulings_fts_en USING fts5(title, body,
  content = 'rulings_text_en', content_rowid = 'id', tokenize = 'rl_stem 2 en');
CREATE VIRTUAL TABLE rulings_fts_fr USING fts5(title, body,
  content = 'rulings_text_fr', content_rowid = 'id', tokenize = 'rl_stem 2 fr');
CREATE VIRTUAL TABLE rulings_fts_ru USING fts5(title, body,
  content = 'rulings_text_ru', content_rowid = 'id', tokenize = 'rl_stem 2 en');
CREATE VIRTUAL TABLE rulings_fts_xx USING fts5(title, body,
  content = 'rulings_text_xx', content_rowid = 'id', tokenize = 'rl_stem 2 none');

INSERT INTO rulings_fts_en(rulings_fts_en) VALUES ('rebuild');
INSERT INTO rulings_fts_fr(rulings_fts_fr) VALUES ('rebuild');
INSERT INTO rulings_fts_ru(rulings_fts_ru) VALUES ('rebuild');
INSERT INTO rulings_fts_xx(rulings_fts_xx) VALUES ('rebuild');
