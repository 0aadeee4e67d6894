-- rulings schema, version 3: other names a ruling answers to.
--
-- A glossary entry read from a file "contre-attaque.md" titled
-- "Contre-attaque" can be linked to as [[contre-attaque]] or by its title;
-- importers give such names as aliases, and references resolve by title,
-- key or alias (case and accents folded: rl_key_loose()).

CREATE TABLE ruling_aliases (
  ruling_id  INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
  alias_fold TEXT NOT NULL,
  PRIMARY KEY (ruling_id, alias_fold)
) WITHOUT ROWID;
CREATE INDEX ruling_aliases_fold ON ruling_aliases(alias_fold);
