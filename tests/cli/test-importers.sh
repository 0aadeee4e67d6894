#!/usr/bin/env bash
# The importers end to end, for what the golden files cannot show: what a
# database and an export make of it.
#   - an absurd page range imports (it hung, memory growing), the
#     reference kept as written, a warning at FILE:LINE
#   - a tag arrives in one canonical form however it is written: one tag in
#     the database, one page in an export, each entry once on it
#   - an XML document is never read as a text format
#   - a glossary's letters are sections, not tags, and a re-import of a file
#     stored when they were tags takes those tags away
#
#   bash tests/cli/test-importers.sh BUILD/rulings
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

ROOT=$(cd "$_lib_dir/../.." && pwd)
CASES=$ROOT/tests/golden/cases

# ---- ranges (issue 17 #1) ---------------------------------------------------
printf 'P\n\nFAQ\n\nG\n\n\xe2\x80\xa2 Q?\n  See [p. 9223372036854775807]\n  Tags: P\n' >p.txt
rl --db p.db import p.txt
check_exit "a page number past any integer imports" 0
check_err_contains "... with a warning at the file and line" \
	"p.txt:7: warning: page reference '9223372036854775807' is not a range"
rl --db p.db show 1 --format json
check_json "... the reference kept as written" \
	"[(r['kind'], r['target']) for r in d['refs']] == [('page', '9223372036854775807')]"

# ---- tag identity (issue 17 #12) ---------------------------------------------
rl --db tags.db import "$CASES/xml-tag-identity.txt"
check_exit "xml-tag-identity imports" 0
rl --db tags.db tags --counts --format json
check_json "A (B) written as a name and as name + qualifier is one tag" \
	"sorted((t['name'], t['count']) for t in d['tags']) == [('A (B)', 1), ('x (y) (z)', 2)]"
rl --db tags.db export --all --format html -o site
check_exit "the tags export" 0
# (and a page per game: test-export-books.sh)
check_eq "one page a tag, and the index" 3 "$(ls site/*.html | grep -v '/game-\|/changes\.html$' | wc -l)"
page=$(ls site/x-y-z-*.html)
python3 - "$page" >ids.txt <<'PY'
import re, sys
ids = re.findall(r'\bid="([^"]+)"', open(sys.argv[1], encoding='utf-8').read())
print(len(ids), len(set(ids)))
PY
check_eq "x + 'y) (z' and 'x (y)' + z: one page, no id twice" "2 2" "$(cat ids.txt)"

# ---- XML is XML (issue 17 #13) ------------------------------------------------
rl --db look.db import "$CASES/xml-faq-lookalike.txt"
check_exit "an interchange file holding a tag page's marks imports" 0
check_out_contains "... as xml-interchange" "(xml-interchange, en)"
rl --db look.db import "$CASES/xml-root-lookalike.txt"
check_exit "another XML document holding an entry is refused" 65
check_err_contains "... as of no known format (no faq-tags page)" "not a document format rulings recognizes"

# ---- glossary letters are structure (issue 14 point 2) -----------------------
mkdir -p Glossaire/D
cp "$CASES/mdgloss-basic.txt" Glossaire/D/Degats.md
rl parse -g mc Glossaire/D/Degats.md
check_exit "a Markdown glossary file in a letter folder parses" 0
check_json "... the letter is its section, no tag" \
	"[(e['section'], e['tags']) for e in d['entries']] == [('D', [])]"

rl --db gloss.db import -g berserk "$CASES/rstgloss-basic.txt"
check_exit "an RST glossary imports" 0
rl --db gloss.db tags
check_out_empty "... its letter headings are no tags"
rl --db gloss.db search --kind glossary --format json
check_json "... but the section of the terms under them" \
	"sorted((r['title'], r['section'], r['tags']) for r in d['results']) == [('Активируемая способность', 'А', []), ('Атака', 'А', []), ('Способность', 'У', []), ('Удар', 'У', [])]"
if command -v sqlite3 >/dev/null; then
	# the database as an import by the first revision of rst-glossary
	# left it: the same bytes, letters as tags (the tag tables need no
	# extension)
	sqlite3 gloss.db "UPDATE imports SET format = 'rst-glossary';
		INSERT INTO tags (name, name_fold) VALUES ('У', 'у');
		INSERT INTO ruling_tags SELECT r.id, t.id, s.document_id, 'listed'
		  FROM rulings r JOIN ruling_sources s ON s.ruling_id = r.id, tags t
		  WHERE r.section = 'У';"
	check_eq "(a database from before: the letter a tag)" "У" \
		"$("$RULINGS" --db gloss.db tags 2>&1)"
	rl --db gloss.db import -g berserk "$CASES/rstgloss-basic.txt"
	check_exit "the same file imported again" 0
	check_out_contains "... is read again, not unchanged" "imported "
	rl --db gloss.db tags
	check_out_empty "... and its letter tags are gone"
	rl --db gloss.db import -g berserk "$CASES/rstgloss-basic.txt"
	check_out_contains "... a third import is unchanged" "unchanged "
else
	echo "skip - re-import of a letter-tagged database: no sqlite3 shell"
fi

finish
