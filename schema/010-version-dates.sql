-- rulings schema, version 10: every version of a document has a date.
--
-- imports.date is the date of the version an import stored: the date the
-- document states ("Дата добавления: 2014-10-31"; date_source 'document'),
-- else the import's own time (date_source 'imported'). documents.date stays
-- the latest version's stated date.
ALTER TABLE imports ADD COLUMN date TEXT;
ALTER TABLE imports ADD COLUMN date_source TEXT
  CHECK (date_source IN ('document', 'given', 'imported'));

-- An older database kept only the latest version's stated date.
UPDATE imports SET date = imported_at, date_source = 'imported';
UPDATE imports SET date = d.date, date_source = 'document'
  FROM documents d
  WHERE d.id = imports.document_id AND d.date IS NOT NULL
    AND imports.id = (SELECT max(id) FROM imports i
                      WHERE i.document_id = imports.document_id);
