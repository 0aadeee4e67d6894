-- rulings schema, version 19: card-rulings' card texts keyed "card: CARD".
--
-- A card-rulings file's abilityText is a glossary entry titled by its
-- card. It was keyed by the card alone, as a term of the game's
-- dictionary of that name is: the two were one ruling (game, kind,
-- language, key), its text the one of the document imported last. Now it
-- is keyed "card: CARD", as card-faq's card texts are; this gives the
-- rows that older imports stored the new key, so that they keep their
-- identity, versions and history, and importing the same file again
-- changes nothing.
--
-- Only glossary rulings seen in card-rulings documents and in no document
-- of another format are re-keyed: a ruling that a dictionary lists too is
-- the clash itself, one row for two texts, which no statement can split
-- back into the card's and the term's; it is left as it is (the term's),
-- and the next import of a changed card-rulings file adds the card's text
-- as its own ruling. A card-faq card text of the same game, language and
-- name ("card: CARD" already) is left alone too: the card-rulings row
-- keeps its old key, and the next changed import makes the two one.
-- (rl_key() is the library's key fold, src/utf8.c.)

UPDATE rulings SET key = rl_key('card: ' || key)
WHERE kind = 'glossary'
  AND EXISTS (SELECT 1 FROM ruling_sources s
              JOIN documents d ON d.id = s.document_id
              WHERE s.ruling_id = rulings.id AND d.format = 'card-rulings')
  AND NOT EXISTS (SELECT 1 FROM ruling_sources s
                  JOIN documents d ON d.id = s.document_id
                  WHERE s.ruling_id = rulings.id
                    AND d.format <> 'card-rulings')
  AND NOT EXISTS (SELECT 1 FROM rulings o
                  WHERE ifnull(o.game_id, 0) = ifnull(rulings.game_id, 0)
                    AND o.kind = 'glossary' AND o.lang = rulings.lang
                    AND o.key = rl_key('card: ' || rulings.key));
