-- rulings schema, version 17: languages in small letters.
--
-- Before b19e79e (manifests) and fc08a5c (a page's "Language:" line, an
-- interchange file's lang attribute), a language written "FR" was stored
-- as written: its rulings went to the full-text table of other languages,
-- not stemmed as French, and neither --lang fr nor lang:fr found them.
-- Documents and imports take the small letters here; rulings, whose
-- language is part of their identity (game, kind, language, key), are
-- done by src/refold.c (rl_refold) after this file, when one needs it:
-- each moves to its language's full-text table, and where a ruling of
-- "fr" with the same game, kind and key is there already, the two are
-- merged into one as the upgrade to schema 8 merged rulings that the new
-- folding made equal (the current one kept, a withdrawn one merged into
-- it; its sources, tags, versions, changes, aliases and errata kept).

UPDATE documents SET lang = lower(lang) WHERE lang <> lower(lang);
UPDATE imports SET lang = lower(lang) WHERE lang <> lower(lang);
