#!/usr/bin/env bash
# The real Comprehensive Rules: the seven releases of the mtg-cr corpus
# (/work/shared/corpora/mtg-cr, see its PROVENANCE.md), read in place —
# they are never copied into the repository. For each release, what rulings
# stores is compared with what the file holds, read independently by
# corpus-cr.py (its own decoding of the bytes, its own line splitting, table
# of contents, rule numbers, glossary blocks and rule references):
#
#   (a) the rule numbers; (b) the glossary terms; (c) the encoding, each
#   rule's text character for character, "show 702.19a"; (d) every rule
#   reference is stored and resolves, or is listed by xrefs --dangling and
#   really is missing; (e) "show 510" and its back-links; then (f) the seven
#   imported one after another into one database, as versions of one
#   document, end as the latest release alone does.
#
#   bash tests/cli/test-corpus-cr.sh BUILD/rulings /work/shared/corpora
#
# The corpora folder comes from $RULINGS_CORPORA or the second argument.
# Skipped (exit 77) when it has no mtg-cr folder or there is no sqlite3
# shell.
CORPORA=${RULINGS_CORPORA:-${2:-}}
CR_DIR=${CORPORA:+$CORPORA/mtg-cr}
if [ -z "$CR_DIR" ] || [ ! -d "$CR_DIR" ]; then
	echo "no corpus folder ${CR_DIR:-(none given)}: skipped"
	exit 77
fi
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "no sqlite3 shell: skipped"
	exit 77
fi
CR_DIR=$(cd "$CR_DIR" && pwd) || exit 2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

PY=$_lib_dir/corpus-cr.py

# The encodings PROVENANCE.md gives, in rulings' names.
declare -A ENCODING=(
	[CR-2022-06-10]=utf-8-bom
	[CR-2022-07-08]=utf-8-bom
	[CR-2022-09-08]=utf-8-bom
	[CR-2022-10-07]=windows-1252
	[CR-2022-11-18]=utf-16be
	[CR-2025-11-14]=utf-8-bom
	[CR-2026-01-16]=utf-8-bom
)

# py_check DESC COMPARISON EXPECT DIR: corpus-cr.py's comparison holds;
# what it prints is shown either way (indented, it is the report).
py_check() {
	local desc=$1 msg st
	shift
	msg=$(python3 "$PY" "$@" 2>&1)
	st=$?
	if [ "$st" = 0 ]; then
		_pass "$desc"
		printf '%s\n' "$msg" | sed 's/^/    # /'
	else
		local lines
		mapfile -t lines <<<"$msg"
		_fail "$desc" "${lines[@]}"
	fi
}

# dump DB DIR: what the comparisons read, from the sqlite3 shell and rulings.
dump() {
	local db=$1 dir=$2
	mkdir -p "$dir"
	# current rulings: earlier releases' rules that are gone are withdrawn
	sqlite3 -batch "$db" "SELECT rule FROM rulings WHERE rule IS NOT NULL
		AND withdrawn_at IS NULL" >"$dir/rules.txt"
	sqlite3 -batch "$db" "SELECT title FROM rulings WHERE kind = 'glossary'
		AND withdrawn_at IS NULL" >"$dir/terms.txt"
	sqlite3 -batch -json "$db" "SELECT r.id, r.kind, r.key, r.rule, r.title,
		r.body, r.section, r.category, s.line FROM rulings r
		JOIN ruling_sources s ON s.ruling_id = r.id
		WHERE r.withdrawn_at IS NULL ORDER BY s.line" \
		>"$dir/rows.json"
	"$RULINGS" --db "$db" xrefs --format json >"$dir/xrefs.json" 2>/dev/null
	"$RULINGS" --db "$db" xrefs --dangling --format json \
		>"$dir/dangling.json" 2>/dev/null
}

files=()
for f in "$CR_DIR"/CR-*.txt; do
	[ -f "$f" ] && files+=("$f")
done
check_eq "the corpus has the seven releases PROVENANCE.md lists" 7 "${#files[@]}"

summary=()
for f in "${files[@]}"; do
	name=$(basename "$f" .txt)
	db=$T/$name.db
	dir=$T/$name
	exp=$T/$name.expect.json
	mkdir -p "$dir"
	echo "# ---- $name"

	if ! python3 "$PY" expect "$f" "$exp" 2>"$T/.py.err"; then
		_fail "$name: the test reads the file" "$(cat "$T/.py.err")"
		continue
	fi
	want_enc=${ENCODING[$name]:-}
	check_eq "$name: the test's own decoding finds PROVENANCE.md's encoding" \
		"${want_enc:-(not in PROVENANCE.md)}" "$(json_get 'd["encoding"]' "$exp")"

	# (c) the encoding rulings detects
	rl parse "$f"
	check_exit "$name: parse succeeds" 0
	check_json "$name: parse detects the encoding $want_enc, the format, the date" \
		"d['encoding'] == '$want_enc' and d['format'] == 'comprehensive-rules' and d['date'] == '${name#CR-}' and d['game'] == 'Magic: The Gathering'"

	rl --db "$db" import "$f"
	check_exit "$name: import succeeds" 0
	dump "$db" "$dir"

	# (a) the rule numbers
	py_check "$name: (a) the DB's rule numbers are the file's" \
		rules-canonical "$exp" "$dir"
	py_check "$name: (a) rule numbers written with a slip are rules too" \
		rules-slips "$exp" "$dir"
	# (b) the glossary
	py_check "$name: (b) one glossary entry per term block, its definition kept" glossary "$exp" "$dir"
	# (c) the text, character for character
	py_check "$name: (c) every rule's text is the file's, Example: lines kept" \
		texts "$exp" "$dir"
	rl --db "$db" show 702.19a
	check_exit "$name: (c) show 702.19a succeeds" 0
	check_out_contains "$name: (c) show 702.19a: the curly apostrophe" \
		"attacking creature’s combat damage"
	check_not_contains "$name: (c) show 702.19a: no mojibake" "$(cat "$OUT")" "â€"
	# (d) references
	py_check "$name: (d) every rule reference in the text is stored" \
		refs-found "$exp" "$dir"
	py_check "$name: (d) so are those in numeric ranges (\"rules 119.7–8\") and \"608.3a and b\"" \
		refs-found-forms "$exp" "$dir"
	py_check "$name: (d) no rule reference is stored that the text does not make" \
		refs-extra "$exp" "$dir"
	py_check "$name: (d) each reference resolves to its rule or is dangling (and missing)" \
		refs-resolved "$exp" "$dir"
	# (e) show 510
	rl --db "$db" show 510 --format json
	check_exit "$name: (e) show 510 succeeds" 0
	check_json "$name: (e) 510 is the section Combat Damage Step" \
		'd["rule"] == "510" and d["title"] == "Combat Damage Step" and d["kind"] == "rule"'
	check_json "$name: (e) 510's back-links include 702.19a (Trample)" \
		'any(b["rule"] == "702.19a" and "Trample" in b["title"] for b in d["backlinks"])'
	rl --db "$db" show 510
	check_match "$name: (e) show 510 as text lists 702.19a under cited by" \
		'^ +(cited by: +)?#[0-9]+ 702\.19a Trample' "$(cat "$OUT")"

	nrules=$(wc -l <"$dir/rules.txt")
	nterms=$(wc -l <"$dir/terms.txt")
	nrefs=$(json_get 'len([x for x in d["xrefs"] if x["kind"] == "rule"])' "$dir/xrefs.json")
	ndang=$(json_get 'len(d["dangling"]) if d else 0' "$dir/dangling.json")
	fr=$(json_get 'len(d["rules"])' "$exp")
	ft=$(json_get 'len(d["terms"])' "$exp")
	fx=$(json_get 'len(d["refs"])' "$exp")
	summary+=("$(printf '%s: file %s rules, %s terms, %s references; DB %s rules, %s glossary, %s references stored, %s dangling' \
		"$name" "$fr" "$ft" "$fx" "$nrules" "$nterms" "$nrefs" "$ndang")")
done

# ---- (f) the seven releases, one after another, into one database ----------
echo "# ---- all seven into one database"
all=$T/all.db
prev=
for f in "${files[@]}"; do
	name=$(basename "$f" .txt)
	rl --db "$all" import --no-thesaurus "$f"
	check_exit "(f) $name imports over the release before it" 0
	if [ -n "$prev" ]; then
		# What changed from one release to the next, from their own DBs.
		want=$(python3 - "$T/$prev/rows.json" "$T/$name/rows.json" <<'PY'
import json, sys
a = {(r["kind"], r["key"]): r for r in json.load(open(sys.argv[1]))}
b = {(r["kind"], r["key"]): r for r in json.load(open(sys.argv[2]))}
# an edit is a text that differs once runs of white space are one space
fold = lambda r: (" ".join(r["title"].split()), " ".join(r["body"].split()))
upd = sum(1 for k in a.keys() & b.keys() if fold(a[k]) != fold(b[k]))
print("%d added, %d edited, %d withdrawn" % (len(b.keys() - a.keys()), upd,
                                            len(a.keys() - b.keys())))
PY
)
		# (edits that are a prefix of the old rule are also counted apart,
		# "N edited (K cut short)": the edited count is what is compared)
		check_contains "(f) $name: the import counts what changed since $prev" \
			"$(sed 's/ edited ([0-9]* cut short)/ edited/' "$OUT")" "$want"
	fi
	prev=$name
done
latest=$(basename "${files[${#files[@]} - 1]}" .txt)
dump "$all" "$T/all"
py_check "(f) the final rule numbers are $latest's" \
	rules-canonical "$T/$latest.expect.json" "$T/all"
py_check "(f) the final glossary is $latest's" \
	glossary "$T/$latest.expect.json" "$T/all"
py_check "(f) the final references are $latest's" \
	refs-extra "$T/$latest.expect.json" "$T/all"
py_check "(f) the final references resolve, or dangle as in $latest" \
	refs-resolved "$T/$latest.expect.json" "$T/all"

# Everything stored equals what importing the latest release alone stores.
content() {
	sqlite3 -batch "$1" "SELECT kind, key, lang, ifnull(rule, '-'), title, body,
		ifnull(section, '-'), ifnull(category, '-'), changed,
		ifnull(s.line, '(no source)')
		FROM rulings r LEFT JOIN ruling_sources s ON s.ruling_id = r.id
		WHERE r.withdrawn_at IS NULL ORDER BY kind, key"
}
links() {
	sqlite3 -batch "$1" "SELECT s.kind, s.key, f.kind, f.target,
		ifnull(t.kind || ' ' || t.key, '(dangling)')
		FROM refs f JOIN rulings s ON s.id = f.ruling_id
		LEFT JOIN rulings t ON t.id = f.target_id
		WHERE s.withdrawn_at IS NULL ORDER BY 1, 2, 3, 4"
}
content "$all" >"$T/all.content"
content "$T/$latest.db" >"$T/latest.content"
if cmp -s "$T/latest.content" "$T/all.content"; then
	_pass "(f) the rulings equal those of $latest imported alone"
else
	_fail "(f) the rulings equal those of $latest imported alone" \
		"$(diff "$T/latest.content" "$T/all.content" | head -20)"
fi
links "$all" >"$T/all.links"
links "$T/$latest.db" >"$T/latest.links"
if cmp -s "$T/latest.links" "$T/all.links"; then
	_pass "(f) the references and their targets equal $latest's alone"
else
	_fail "(f) the references and their targets equal $latest's alone" \
		"$(diff "$T/latest.links" "$T/all.links" | head -20)"
fi
check_eq "(f) one document, seven imports, dated as $latest" \
	"1|7|${latest#CR-}" \
	"$(sqlite3 -batch "$all" "SELECT (SELECT count(*) FROM documents),
		(SELECT count(*) FROM imports), (SELECT date FROM documents)")"
rl --db "$all" show 702.19a
check_out_contains "(f) show 702.19a after all seven: the latest text" \
	"attacking creature’s combat damage"
check_out_contains "(f) show 702.19a after all seven: the latest source" \
	"$latest.txt"

echo "# ---- counts"
for s in "${summary[@]}"; do
	echo "# $s"
done
finish
