#!/usr/bin/env bash
# Hostile content (issue 7): tag names, questions and answers holding SQL,
# FTS5 syntax, markup, format strings and path fragments are data and
# nothing else. Imported, they come back verbatim from search, show, tags
# and changed; searching for them finds them and never fails on FTS5
# syntax; the database is intact afterwards.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# The hostile strings, one a line: each is a question (with "?" added), a
# tag, and part of an answer.
cat >strings.txt <<'EOF'
'; DROP TABLE rulings; --
Robert'); DELETE FROM tags WHERE ('1'='1
" OR 1=1 --
NEAR(fast slow, 2)
"*" AND ^start
title: body: {title body}: x
- NOT OR AND +
<script>alert("x")</script> &amp; <b>
../../etc/passwd and C:\Windows\system32
%s%n%x %99999999d $(rm -rf /) `id`
EOF

python3 - <<'PY'
lines = open("strings.txt", encoding="utf-8").read().splitlines()
out = ["Hostile Page '; DROP TABLE documents; --", "",
       "Frequently Asked Questions", "", "Category \"*\" NEAR(", ""]
for i, s in enumerate(lines):
    out.append("\u2022 Question %d: %s?" % (i, s))
    out.append("  Answer %d says %s verbatim." % (i, s))
    # tags are split at commas outside parentheses: keep them balanced
    out.append("  Tags: %s" % s.replace(",", ";"))
open("hostile.txt", "w", encoding="utf-8").write("\n".join(out) + "\n")
# A tag is a name and an optional "(qualifier)": "NEAR(a)" is shown as
# "NEAR (a)"; nothing else about a tag changes.
import re
with open("tags-expected.txt", "w", encoding="utf-8") as f:
    for s in lines:
        f.write(re.sub(r"(\S)\((?=[^()]*\)$)", r"\1 (", s.replace(",", ";")) + "\n")
# a second version: every answer changed
out2 = [l.replace("verbatim.", "verbatim, again: " + l[l.find("says ") + 5:l.rfind(" verbatim")] + ".")
        if l.startswith("  Answer") else l for l in out]
open("hostile2.txt", "w", encoding="utf-8").write("\n".join(out2) + "\n")
PY

rl --db h.db import --no-thesaurus hostile.txt
check_exit "a page of hostile strings is imported" 0
check_out_contains "...all ten entries" "10 entries"
rl --db h.db stats --format json
check_json "...and every table is still there" \
	'd["rulings"] == 10 and d["tags"] >= 10 and d["sources"] == 1'

i=0
while IFS= read -r s; do
	tag=${s//,/;}
	# verbatim through show
	id=$("$RULINGS" --db h.db search --format json --tag "$tag" 2>"$ERR" |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["results"]; print(r[0]["id"] if len(r) == 1 else "none")' 2>&1)
	check_eq "string $i: found by its tag ($tag)" yes \
		"$([[ $id =~ ^[0-9]+$ ]] && echo yes || echo "no: $id; $(cat "$ERR")")"
	rl --db h.db show "$id" --format json
	check_json "string $i: show returns title, text and tag verbatim" \
		"d['title'] == 'Question $i: ' + open('strings.txt').read().splitlines()[$i] + '?' and d['text'] == 'Answer $i says ' + open('strings.txt').read().splitlines()[$i] + ' verbatim.' and open('tags-expected.txt').read().splitlines()[$i] in d['tags']"
	# full text: the string as words, in every output format
	rl --db h.db search -- "$s"
	check_exit "string $i: search for it as words: no FTS5 error" 0 1
	check_err_empty "string $i: ...nothing on stderr"
	# (as a phrase when it holds no double quote: in the query language
	# string 9's "-rf" excludes the word rf, which its ruling holds)
	case $s in
	*'"'*) q=$s ;;
	*) q="\"$s\"" ;;
	esac
	rl --db h.db search --format json "Question $i $q"
	check_exit "string $i: search 'Question $i' + the string finds it" 0
	check_json "string $i: ...the right ruling first" "d['results'][0]['id'] == $id"
	rl --db h.db search --format ndjson --tag "$tag" -- "$s"
	check_exit "string $i: search with its tag and its words" 0 1
	check_err_empty "string $i: ...nothing on stderr"
	i=$((i + 1))
done <strings.txt

# FTS5 operators alone and broken: searched as text or "nothing to search"
for q in '*' '"' '^' 'NEAR(' 'title:' '-' 'AND' '(' ')' ':' '{' '"*"' 'x OR' \
         'NOT x' '""' "'" '\' '%' '_'; do
	rl --db h.db search -- "$q"
	check_exit "search '$q': exit 0, 1 or 2 (nothing searchable), never 70" 0 1 2
	check_not_contains "search '$q': no SQLite/FTS5 error" "$(cat "$ERR")" "fts5"
	check_not_contains "search '$q': no syntax error" "$(cat "$ERR")" "syntax error"
done

rl --db h.db tags --format json
check_json "tags lists every hostile tag verbatim" \
	"set(open('tags-expected.txt').read().splitlines()) <= set(t['name'] for t in d['tags'])"
rl --db h.db tags
check_out_contains "tags (text) shows the SQL tag as is" "'; DROP TABLE rulings; --"

rl --db h.db import hostile2.txt
check_exit "a second version of the page is imported" 0
check_out_contains "...ten answers edited" "10 edited"
rl --db h.db changed --format json
check_exit "changed lists the edits" 0
check_json "changed gives old and new texts verbatim" \
	"all(c['new'] == c['old'][:-1] + ', again: ' + c['old'][len('Answer N says '):-len(' verbatim.')] + '.' for c in d['changes'] if c['change'] == 'edited') and sum(c['change'] == 'edited' for c in d['changes']) == 10"
rl --db h.db changed --tag "'; DROP TABLE rulings; --"
check_exit "changed --tag with the SQL tag finds its edit" 0
check_out_contains "...showing it" "DROP TABLE rulings"

rl --db h.db stats --format json
check_json "after all that: ten rulings, one document" 'd["rulings"] == 10 and d["sources"] == 1'
if command -v sqlite3 >/dev/null; then
	check_eq "integrity_check" ok "$(sqlite3 h.db 'PRAGMA integrity_check')"
	check_eq "the page's title is stored as written" \
		"Hostile Page '; DROP TABLE documents; --" \
		"$(sqlite3 h.db 'SELECT title FROM documents')"
fi

finish
