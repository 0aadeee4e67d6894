-- rulings schema, version 6: indexes that keep an import's cost to what
-- its document holds. Replacing a document's links looked ruling_tags up
-- by document, and resolving references looked for the unresolved ones,
-- both by scanning the whole table: each import grew slower as the
-- database grew (bench/RESULTS.md).

CREATE INDEX ruling_tags_document ON ruling_tags(document_id);
CREATE INDEX refs_unresolved ON refs(kind) WHERE target_id IS NULL;
