#!/usr/bin/env bash
# The real card rulings: the three versions of the Codex rulings file
# (/work/shared/corpora/codex-rulings, see its PROVENANCE.md), read in place —
# they are never copied into the repository. They are imported in date order,
# with --game Codex, into one database, and what rulings stores is compared
# with an independent reading of the raw files by python3 (json.load for the
# content; its own scan of the raw text for the line of each entry's "{"):
#
#   (a) per version, the current (card, ruling) pairs, each ruling's
#       category, date, author, title and source line, and the glossary
#       (one abilityText a card);
#   (b) the import's "N entries, A added, E edited, W withdrawn": added are
#       the new pairs and glossary cards, withdrawn the pairs and glossary
#       cards gone, edited the glossary cards whose abilityText changed;
#   (c) changed --between each two consecutive imports lists exactly those;
#   (d) the 2016-03-24 version's entry without a card is a warning at the
#       line of its "{", and the only message; the others import silently;
#   (e) history of each withdrawn ruling: its baseline, then its withdrawal;
#   (f) search --tag 'Manufactured Truth' finds the entry HEAD fixed (the
#       card-less one, given its card) after the last import, not before.
#
#   bash tests/cli/test-corpus-codex.sh BUILD/rulings /work/shared/corpora
#
# The corpora folder comes from $RULINGS_CORPORA or the second argument.
# Skipped (exit 77) when it has no codex-rulings folder or there is no
# sqlite3 shell.
CORPORA=${RULINGS_CORPORA:-${2:-}}
CX_DIR=${CORPORA:+$CORPORA/codex-rulings}
if [ -z "$CX_DIR" ] || [ ! -d "$CX_DIR" ]; then
	echo "no corpus folder ${CX_DIR:-(none given)}: skipped"
	exit 77
fi
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "no sqlite3 shell: skipped"
	exit 77
fi
CX_DIR=$(cd "$CX_DIR" && pwd) || exit 2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# The versions, in date order (the date is in the name: rulings_DATE_COMMIT).
files=()
for f in "$CX_DIR"/rulings_*.json; do
	[ -f "$f" ] && files+=("$f")
done
check_eq "the corpus has the three versions PROVENANCE.md lists" 3 "${#files[@]}"
[ "${#files[@]}" = 3 ] || finish

# ---- the independent reading ------------------------------------------------
# expect.json: per version, the pairs (card, ruling, section, date, author,
# line), the glossary {card: [text, section, line]}, the entries left out
# for having no card [section, line], the entry counts; per consecutive
# pair, what changed.
if ! python3 - "$T/expect.json" "${files[@]}" >"$T/.py.out" 2>&1 <<'PY'
import json, sys, unicodedata

def entry_lines(text):
    """{(section, index): line of the value's first character} for every
    value of every section, from the raw text: a scan of its own (strings
    and escapes skipped, brackets counted), no JSON library."""
    out, stack = {}, []
    line, i, n = 1, 0, len(text)
    section, index, want_value, last_string = None, -1, False, None
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if len(stack) == 2 and want_value:      # a value of a section
            index += 1
            out[(section, index)] = line
            want_value = False
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            last_string = json.loads(text[i:j + 1])
            i = j + 1
            continue
        if c in "{[":
            stack.append(c)
            if len(stack) == 2 and c == "[":
                index, want_value = -1, True
        elif c in "}]":
            stack.pop()
        elif c == ":" and len(stack) == 1:
            section = last_string
        elif c == "," and len(stack) == 2:
            want_value = True
        i += 1
    return out

nfc = lambda s: unicodedata.normalize("NFC", s) if isinstance(s, str) else s
out_path, paths = sys.argv[1], sys.argv[2:]
versions = []
for path in paths:
    raw = open(path, encoding="utf-8").read()
    doc = json.loads(raw)
    lines = entry_lines(raw)
    pairs, glossary, nocard = {}, {}, []
    entries = with_ruling = 0
    for section, items in doc.items():
        assert isinstance(items, list), section
        for k, e in enumerate(items):
            entries += 1
            line = lines[(section, k)]
            card, ruling = nfc(e.get("card")), nfc(e.get("ruling"))
            ability = nfc(e.get("abilityText"))
            if isinstance(ruling, str) and ruling:
                with_ruling += 1
            if not isinstance(card, str) or not card:
                nocard.append([section, line])
                continue
            if isinstance(ability, str) and ability and card not in glossary:
                glossary[card] = [ability, section, line]
            if isinstance(ruling, str) and ruling:
                key = card + "\x1f" + ruling
                assert key not in pairs, "a pair twice: " + key
                pairs[key] = {"card": card, "ruling": ruling,
                              "section": section, "date": e.get("date"),
                              "author": e.get("author"), "line": line}
    versions.append({"path": path, "entries": entries,
                     "with_ruling": with_ruling, "pairs": pairs,
                     "glossary": glossary, "nocard": nocard,
                     "stored": len(pairs) + len(glossary)})

steps = []
for a, b in zip(versions, versions[1:]):
    pa, pb, ga, gb = a["pairs"], b["pairs"], a["glossary"], b["glossary"]
    added = [["added", "faq", pb[k]["card"], pb[k]["ruling"]]
             for k in pb.keys() - pa.keys()]
    added += [["added", "glossary", c, gb[c][0]] for c in gb.keys() - ga.keys()]
    gone = [["withdrawn", "faq", pa[k]["card"], pa[k]["ruling"]]
            for k in pa.keys() - pb.keys()]
    gone += [["withdrawn", "glossary", c, ga[c][0]]
             for c in ga.keys() - gb.keys()]
    edited = [["edited", "glossary", c, gb[c][0]]
              for c in ga.keys() & gb.keys() if ga[c][0] != gb[c][0]]
    steps.append({"added": len(added), "edited": len(edited),
                  "withdrawn": len(gone),
                  "changes": sorted(added + edited + gone)})
json.dump({"versions": versions, "steps": steps}, open(out_path, "w"))
print("; ".join("%s: %d entries (%d with a ruling), %d pairs, %d glossary, "
                "%d without a card" % (v["path"].rsplit("/", 1)[-1],
                v["entries"], v["with_ruling"], len(v["pairs"]),
                len(v["glossary"]), len(v["nocard"])) for v in versions))
PY
then
	_fail "the test reads the corpus" "$(cat "$T/.py.out")"
	finish
fi
sed 's/^/# /' "$T/.py.out"
EXP=$T/expect.json

# PROVENANCE.md's table: entries, and entries with a ruling
check_eq "the test's reading finds PROVENANCE.md's entry counts" \
	"527 370 545 399 545 399" \
	"$(json_get '" ".join("%d %d" % (v["entries"], v["with_ruling"]) for v in d["versions"])' "$EXP")"
check_eq "only the 2016-03-24 version has an entry without a card, in Blue" \
	'[[], [["Blue"]], []]' \
	"$(json_get '[[[s] for s, l in v["nocard"]] for v in d["versions"]]' "$EXP")"

# dump DB N: the current rulings, as rulings stores them.
dump() {
	sqlite3 -batch -json "$1" "SELECT r.kind, r.title, r.body, r.category,
		r.date, r.author, s.line, i.path, g.name AS game,
		(SELECT json_group_array(t.name) FROM ruling_tags rt
		   JOIN tags t ON t.id = rt.tag_id WHERE rt.ruling_id = r.id) AS tags
		FROM rulings r JOIN ruling_sources s ON s.ruling_id = r.id
		JOIN imports i ON i.id = s.import_id
		LEFT JOIN games g ON g.id = r.game_id
		WHERE r.withdrawn_at IS NULL" >"$T/dump$2.json"
}

# py_check DESC PYTHON ARGS...: the python program (reading expect.json as
# E) exits 0; what it prints is the failure report.
py_check() {
	local desc=$1 prog=$2 msg
	shift 2
	if msg=$(python3 -c "
import json, sys
E = json.load(open(sys.argv[1]))
args = sys.argv[2:]
$prog" "$EXP" "$@" 2>&1); then
		_pass "$desc"
	else
		local lines
		mapfile -t lines < <(printf '%s\n' "$msg" | head -n 30)
		_fail "$desc" "${lines[@]}"
	fi
}

# Compares the dump of version N with the expectation.
check_version() {
	local n=$1 name=$2
	py_check "$name: (a) the current (card, ruling) pairs are the file's" '
n = int(args[1])
v = E["versions"][n]
rows = [r for r in json.load(open(args[0])) if r["kind"] == "faq"]
got = {(json.loads(r["tags"])[0] if r["tags"] != "[]" else None, r["body"])
       for r in rows}
want = {(p["card"], p["ruling"]) for p in v["pairs"].values()}
for x in sorted(want - got, key=str)[:8]: print("missing:", x)
for x in sorted(got - want, key=str)[:8]: print("extra:  ", x)
if len(rows) != len(got): print("%d rows for %d pairs" % (len(rows), len(got)))
sys.exit(got != want or len(rows) != len(want))' "$T/dump$n.json" "$n"

	py_check "$name: (a) each ruling: its card as its only tag, its category, date, author, source line; game Codex" '
n = int(args[1])
v = E["versions"][n]
bad = 0
for r in json.load(open(args[0])):
    if r["kind"] != "faq":
        continue
    tags = json.loads(r["tags"])
    p = v["pairs"].get((tags[0] if tags else "") + "\x1f" + r["body"])
    if p is None:
        continue                      # reported by the pairs check
    got = (tags, r["category"], r["date"], r["author"], r["line"], r["path"],
           r["game"])
    want = ([p["card"]], p["section"], p["date"], p["author"], p["line"],
            v["path"], "Codex")
    if got != want:
        bad += 1
        if bad <= 5: print("%s: %r, want %r" % (p["card"], got, want))
sys.exit(bad != 0)' "$T/dump$n.json" "$n"

	py_check "$name: (a) each ruling is titled \"Card: \" and the start of its text" '
bad = 0
for r in json.load(open(args[0])):
    if r["kind"] != "faq":
        continue
    card = json.loads(r["tags"])[0]
    rest = r["title"][len(card) + 2:]
    cut = rest[:-1] if rest.endswith("\u2026") else rest
    if not r["title"].startswith(card + ": ") or not cut or \
       not r["body"].startswith(cut.rstrip()):
        bad += 1
        if bad <= 5: print("title %r for %r" % (r["title"], r["body"][:80]))
sys.exit(bad != 0)' "$T/dump$n.json"

	py_check "$name: (a) the glossary: one entry per card with an abilityText, the first one" '
n = int(args[1])
v = E["versions"][n]
rows = [r for r in json.load(open(args[0])) if r["kind"] == "glossary"]
got = sorted((r["title"], r["body"], r["category"], r["line"],
              json.loads(r["tags"])) for r in rows)
want = sorted((c, g[0], g[1], g[2], [c]) for c, g in v["glossary"].items())
for x in got:
    if x not in want: print("extra or wrong:", repr(x)[:200])
for x in want:
    if x not in got: print("missing:       ", repr(x)[:200])
sys.exit(got != want)' "$T/dump$n.json" "$n"
}

# ---- the imports, in date order ---------------------------------------------
db=$T/codex.db
import_ids=(0)
for n in 0 1 2; do
	f=${files[$n]}
	name=$(basename "$f" .json)
	echo "# ---- $name"
	rl --db "$db" import --no-thesaurus --game Codex "$f"
	check_exit "$name: import succeeds" 0

	# (b) the counts
	if [ "$n" = 0 ]; then
		want=$(json_get '"%d entries, %d added, 0 edited, 0 withdrawn" % (d["versions"][0]["stored"], d["versions"][0]["stored"])' "$EXP")
	else
		want=$(json_get "'%d entries, %d added, %d edited, %d withdrawn' % (d['versions'][$n]['stored'], d['steps'][$n - 1]['added'], d['steps'][$n - 1]['edited'], d['steps'][$n - 1]['withdrawn'])" "$EXP")
	fi
	check_out_contains "$name: (b) the import says \"$want\"" \
		"imported $f: $want (card-rulings, en)"

	# (d) the warnings
	nocard=$(json_get "len(d['versions'][$n]['nocard'])" "$EXP")
	if [ "$nocard" = 0 ]; then
		check_err_empty "$name: (d) no warning"
	else
		line=$(json_get "d['versions'][$n]['nocard'][0][1]" "$EXP")
		check_eq "$name: (d) the only message: the entry without a card, at the line of its \"{\" ($line)" \
			"rulings: $f:$line: warning: an entry of 'Blue' has no card; left out" \
			"$(cat "$ERR")"
		check_eq "$name: (d) that line of the file opens the entry" \
			"{" "$(sed -n "${line}p" "$f" | tr -d ' ')"
	fi

	import_ids+=("$(sqlite3 -batch "$db" 'SELECT max(id) FROM imports')")
	dump "$db" "$n"
	check_version "$n" "$name"

	# (c) changed --between the previous import and this one
	prev=${import_ids[$n]} cur=${import_ids[$((n + 1))]}
	if [ "$n" = 0 ]; then
		rl --db "$db" changed --between "$prev" "$cur" --format json
		check_exit "$name: (c) changed --between $prev $cur: the baseline records no change (exit 1)" 1
	else
		rl --db "$db" changed --between "$prev" "$cur" --format json
		check_exit "$name: (c) changed --between $prev $cur succeeds" 0
		cp "$OUT" "$T/changed$n.json"
		py_check "$name: (c) changed --between $prev $cur lists exactly what the files imply" '
n, imp = int(args[1]), int(args[2])
want = sorted(tuple(c) for c in E["steps"][n - 1]["changes"])
got = []
for c in json.load(open(args[0]))["changes"]:
    card = c["title"] if c["kind"] == "glossary" else c["tags"][0]
    text = c["old"] if c["change"] == "withdrawn" else c["new"]
    got.append((c["change"], c["kind"], card, text))
    if c["import"] != imp or c["game"] != "Codex" or c["document"] != "card rulings":
        print("wrong import, game or document:", c["import"], c["game"], c["document"])
        sys.exit(1)
got.sort()
for x in want:
    if x not in got: print("missing:", repr(x)[:160])
for x in got:
    if x not in want or got.count(x) > 1: print("extra:  ", repr(x)[:160])
print("%d changes" % len(got))
sys.exit(got != want)' "$T/changed$n.json" "$n" "$cur"
	fi

	# (f) before the last import, the fixed entry is not there yet
	if [ "$n" = 1 ]; then
		rl --db "$db" search --tag 'Manufactured Truth' --limit 0 --format json
		check_exit "$name: (f) search --tag 'Manufactured Truth' succeeds" 0
		py_check "$name: (f) search --tag 'Manufactured Truth' does not find the entry left out" '
fixed = [e for e in json.load(open(E["versions"][1]["path"]))["Blue"]
         if "card" not in e][0]["ruling"]
texts = [r["text"] for r in json.load(open(args[0]))["results"]]
print("%d results" % len(texts))
sys.exit(fixed in texts or not texts)' "$OUT"
	fi
done

# ---- (e) history of the withdrawn rulings ----------------------------------
echo "# ---- history"
gone=$(json_get '[c for c in d["changes"] if c["change"] == "withdrawn"]' "$T/changed1.json")
ids=$(json_get '" ".join(str(c["id"]) for c in d["changes"] if c["change"] == "withdrawn")' "$T/changed1.json")
check_eq "(e) as many withdrawn rulings as pairs gone" \
	"$(json_get 'd["steps"][0]["withdrawn"]' "$EXP")" "$(wc -w <<<"$ids" | tr -d ' ')"
: >"$T/histories.ndjson"
for id in $ids; do
	"$RULINGS" --db "$db" history "$id" --format json | python3 -c \
		'import json, sys; print(json.dumps(json.load(sys.stdin)))' \
		>>"$T/histories.ndjson"
done
py_check "(e) history of each withdrawn ruling: the baseline (the first file, its text), then withdrawn (the second file, no text)" '
changes = {c["id"]: c for c in json.loads(args[1])}
f0, f1 = E["versions"][0]["path"], E["versions"][1]["path"]
i0, i1 = int(args[2]), int(args[3])
bad = 0
for line in open(args[0]):
    h = json.loads(line)
    got = [(v["change"], v["import"], v["path"], v["text"]) for v in h["versions"]]
    want = [("baseline", i0, f0, changes[h["id"]]["old"]),
            ("withdrawn", i1, f1, None)]
    if got != want:
        bad += 1
        if bad <= 3: print("#%d: %r" % (h["id"], got))
sys.exit(bad != 0 or len(changes) == 0)' "$T/histories.ndjson" "$gone" \
	"${import_ids[1]}" "${import_ids[2]}"
first=${ids%% *}
rl --db "$db" history "$first"
check_exit "(e) history #$first as text" 0
check_match "(e) history #$first as text: import ${import_ids[1]}, baseline" \
	"^import ${import_ids[1]} .* baseline .*rulings_2016-03-19_f32bdce\.json\)$" "$(cat "$OUT")"
check_match "(e) history #$first as text: then import ${import_ids[2]}, withdrawn" \
	"^import ${import_ids[2]} .* withdrawn .*rulings_2016-03-24_4bf1463\.json\)$" "$(cat "$OUT")"
check_out_contains "(e) history #$first as text: the withdrawal has no text" "(withdrawn)"

# ---- (f) the fixed entry ------------------------------------------------------
echo "# ---- Manufactured Truth"
# (the same text is also a ruling on Sirus Quince, in Heroes, in every version)
py_check "(f) HEAD gives the card-less entry of 2016-03-24 the card Manufactured Truth, in Blue" '
fixed = [e for e in json.load(open(E["versions"][1]["path"]))["Blue"]
         if "card" not in e][0]["ruling"]
cards = lambda v: sorted((p["card"], p["section"]) for p in v["pairs"].values()
                         if p["ruling"] == fixed)
got = [cards(v) for v in E["versions"]]
print(got)
sys.exit(got[2] != sorted(got[1] + [("Manufactured Truth", "Blue")]))'
rl --db "$db" search --tag 'Manufactured Truth' --limit 0 --format json
check_exit "(f) search --tag 'Manufactured Truth' succeeds" 0
cp "$OUT" "$T/mt.json"
py_check "(f) search --tag 'Manufactured Truth' finds the fixed entry: its text, the card's tag, Blue, the last file at its line" '
v1, v2 = E["versions"][1], E["versions"][2]
fixed = [e for e in json.load(open(v1["path"]))["Blue"] if "card" not in e][0]["ruling"]
p = v2["pairs"]["Manufactured Truth\x1f" + fixed]
hits = [r for r in json.load(open(args[0]))["results"] if r["text"] == fixed]
if len(hits) != 1:
    print("%d results with its text" % len(hits)); sys.exit(1)
r = hits[0]
got = (r["kind"], r["game"], r["tags"], r["category"], r["date"], r["author"],
       [(s["path"], s["line"]) for s in r["sources"]])
want = ("faq", "Codex", ["Manufactured Truth"], "Blue", p["date"], p["author"],
        [(v2["path"], p["line"])])
print(got if got != want else "line %d" % p["line"])
sys.exit(got != want)' "$T/mt.json"
py_check "(f) and every ruling on the card, nothing else" '
got = sorted(r["text"] for r in json.load(open(args[0]))["results"])
want = sorted(p["ruling"] for p in E["versions"][2]["pairs"].values()
              if p["card"] == "Manufactured Truth")
print("%d results, %d rulings on the card" % (len(got), len(want)))
sys.exit(got != want)' "$T/mt.json"

# ---- the end state ------------------------------------------------------------
rl --db "$db" stats --format json
check_json "stats: the last version's rulings current, the pairs gone withdrawn, three imports" \
	"d['rulings'] == $(json_get 'd["versions"][2]["stored"]' "$EXP") and d['withdrawn'] == $(json_get 'd["steps"][0]["withdrawn"] + d["steps"][1]["withdrawn"]' "$EXP") and d['imports'] == 3"
rl --db "$db" import --game Codex "${files[2]}"
check_exit "importing the last version again succeeds" 0
check_not_contains "importing the last version again records nothing" "$(cat "$OUT")" "added"
check_eq "one document, three imports" "1|3" \
	"$(sqlite3 -batch "$db" "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM imports)")"

finish
