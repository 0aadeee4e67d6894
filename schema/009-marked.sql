-- rulings schema, version 9: when a source's own marker appeared.
--
-- A source may mark an answer as changed ("Changed answer:"); rulings.changed
-- says whether its current text carries the mark. marked_import is the
-- import whose version of the document first carried it: `rulings changed`
-- reports the mark at that version only, not again at every later version
-- that still carries it. NULL while the ruling carries no mark.
ALTER TABLE rulings ADD COLUMN marked_import INTEGER;

-- An older database did not record when a mark appeared: the earliest
-- version of the ruling it knows stands in for it, so that no mark already
-- there before is reported as new.
UPDATE rulings SET marked_import =
  (SELECT min(import_id) FROM ruling_versions WHERE ruling_id = rulings.id)
WHERE changed = 1;
