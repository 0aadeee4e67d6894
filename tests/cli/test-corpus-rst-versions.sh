#!/usr/bin/env bash
# The three versions of the Berserk. Heroes glossary
# (/work/shared/corpora/berserk-heroes-ru/dictionary_*.rst, see its
# PROVENANCE.md), read in place — never copied into the repository —
# imported in date order into one database, in the game their words name
# («Берсерк. Герои»: "В ККИ «Берсерк. Герои» …"; no --game needed).
# What each import reports as changed is compared with an independent
# reading of the raw .rst text by python3:
#
#   - terms: the bold lines ("**Term.**") of the ".. glossary::" blocks, each
#     with the indented lines under it (and any text after the bold on its
#     own line) as its definition; the inline markup made plain as
#     rst_glossary.c documents it (:term:`X` -> X, **x** -> x, *x* -> x,
#     ``x`` -> x, `x <url>`_ -> x); a term's key is its name folded (case,
#     "ё" = "е", white space runs, final period dropped); a term seen twice
#     in one file is one entry: the first, with the second's definition
#     added as another paragraph unless the first already says it;
#   - between consecutive versions: added keys, withdrawn keys, and edited
#     keys (the title or the definition differs once runs of white space
#     are folded);
#   - the import's "N entries, A added, E edited, W withdrawn" line, and
#     changed --between 1 2 / --between 2 3 --format json (per change kind,
#     the titles; for edits, old and new texts against the raw files').
#
#   bash tests/cli/test-corpus-rst-versions.sh BUILD/rulings /work/shared/corpora
#
# The corpora folder comes from $RULINGS_CORPORA or the second argument.
# Skipped (exit 77) when it has no berserk-heroes-ru folder.
CORPORA=${RULINGS_CORPORA:-${2:-}}
BH_DIR=${CORPORA:+$CORPORA/berserk-heroes-ru}
if [ -z "$BH_DIR" ] || [ ! -d "$BH_DIR" ]; then
	echo "no corpus folder ${BH_DIR:-(none given)}: skipped"
	exit 77
fi
BH_DIR=$(cd "$BH_DIR" && pwd) || exit 2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# The versions, in date order (the date is in the name: dictionary_DATE_...).
files=()
for f in "$BH_DIR"/dictionary_*.rst; do
	[ -f "$f" ] && files+=("$f")
done
check_eq "the corpus has the three dictionary versions PROVENANCE.md lists" \
	3 "${#files[@]}"
[ "${#files[@]}" = 3 ] || finish

# ---- the independent reading ------------------------------------------------
if ! python3 - "$T/expect.json" "${files[@]}" >"$T/.py.out" 2>&1 <<'PY'
import json, re, sys

def key(name):
    """The identity of a term: case folded, "ё" as "е", typographic quotes
    and dashes as ASCII, runs of white space as one space."""
    s = name.translate({0x2018: "'", 0x2019: "'", 0x201B: "'", 0x2032: "'",
                        0x60: "'", 0x201C: '"', 0x201D: '"', 0x201E: '"',
                        0x2033: '"', 0xAB: '"', 0xBB: '"', 0x2010: "-",
                        0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "-",
                        0x2212: "-"})
    s = s.lower().replace("ё", "е")
    return " ".join(s.split())

def drop_period(s):
    s = s.strip()
    if s.endswith(".") and not s.endswith(".."):
        s = s[:-1].strip()
    return s

def plain(s):
    """Inline markup made plain, as rst_glossary.c's comment lists it."""
    s = re.sub(r":[A-Za-z0-9_.+-]+:`([^`]*?)(?:\s*<[^<>`]*>)?`",
               lambda m: m.group(1).strip(), s)
    s = re.sub(r"``(.+?)``", r"\1", s, flags=re.S)
    s = re.sub(r"`([^`]*?)(?:\s*<[^<>`]*>)?`_*", lambda m: m.group(1).strip(), s)
    s = re.sub(r"\*\*(\S(?:.*?\S)?)\*\*", r"\1", s, flags=re.S)
    s = re.sub(r"(?<![\w*])\*(?!\*)(\S(?:.*?\S)?)\*(?![\w*])", r"\1", s,
               flags=re.S)
    return s

def wsfold(s):
    return " ".join(re.split(r"[ \t\n]+", s.strip(" \t\n")))

def read(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    terms = []            # [title, key, [definition lines], line]
    in_glossary = False
    bold_lines = 0
    for no, l in enumerate(lines, 1):
        nxt = lines[no] if no < len(lines) else ""
        if re.match(r"^\S", l) and re.match(r"^([-=~^*])\1{2,}\s*$", nxt):
            in_glossary = False           # a heading ends the block
            continue
        if re.match(r"^\s*\.\.\s+glossary::", l):
            in_glossary = True
            continue
        if not in_glossary:
            continue
        m = re.match(r"^(\s+)\*\*(.+?)\*\*(.*)$", l)
        if m:
            bold_lines += 1
            title = drop_period(plain(m.group(2)))
            terms.append([title, key(title), [m.group(3).strip()], no])
        elif terms and re.match(r"^\s", l):
            terms[-1][2].append(l.strip())
    entries = {}
    merged = []
    for title, k, body, no in terms:
        # lines joined by "\n", a blank line as a paragraph break
        paras, cur = [], []
        for b in body:
            if b:
                cur.append(b)
            elif cur:
                paras.append("\n".join(cur))
                cur = []
        if cur:
            paras.append("\n".join(cur))
        text = plain("\n\n".join(paras)).strip()
        if k in entries:
            first = entries[k]
            merged.append([title, no, first["line"]])
            if text and text not in first["text"]:
                first["text"] = (first["text"] + "\n\n" + text
                                 if first["text"] else text)
        else:
            entries[k] = {"title": title, "text": text, "line": no}
    return {"path": path, "bold_lines": bold_lines, "entries": entries,
            "merged": merged}

out_path, paths = sys.argv[1], sys.argv[2:]
versions = [read(p) for p in paths]
steps = []
for a, b in zip(versions, versions[1:]):
    ea, eb = a["entries"], b["entries"]
    added = sorted(eb[k]["title"] for k in eb.keys() - ea.keys())
    withdrawn = sorted(ea[k]["title"] for k in ea.keys() - eb.keys())
    edited, edited_title_only = [], []
    for k in sorted(ea.keys() & eb.keys()):
        same_text = wsfold(ea[k]["text"]) == wsfold(eb[k]["text"])
        same_title = wsfold(ea[k]["title"]) == wsfold(eb[k]["title"])
        if not (same_text and same_title):
            edited.append({"title": eb[k]["title"],
                           "old_title": ea[k]["title"],
                           "old": ea[k]["text"], "new": eb[k]["text"]})
            if same_text:
                edited_title_only.append(eb[k]["title"])
    steps.append({"added": added, "withdrawn": withdrawn, "edited": edited,
                  "edited_title_only": edited_title_only})
json.dump({"versions": versions, "steps": steps}, open(out_path, "w"),
          ensure_ascii=False)
for v in versions:
    print("%s: %d bold term lines, %d entries, merged: %s" % (
        v["path"].rsplit("/", 1)[-1], v["bold_lines"], len(v["entries"]),
        ", ".join("%s (line %d into %d)" % tuple(m) for m in v["merged"])
        or "none"))
for i, s in enumerate(steps, 1):
    print("version %d -> %d: %d added %s, %d edited %s, %d withdrawn %s" % (
        i, i + 1, len(s["added"]), s["added"], len(s["edited"]),
        [e["title"] for e in s["edited"]], len(s["withdrawn"]),
        s["withdrawn"]))
    if s["edited_title_only"]:
        print("  of the edits, title only: %s" % s["edited_title_only"])
PY
then
	_fail "the test reads the corpus" "$(cat "$T/.py.out")"
	finish
fi
sed 's/^/# /' "$T/.py.out"
EXP=$T/expect.json

# PROVENANCE.md: 199 / 202 / 213 bold term lines.
check_eq "the test's reading finds PROVENANCE.md's bold term lines" \
	"199 202 213" \
	"$(json_get '" ".join(str(v["bold_lines"]) for v in d["versions"])' "$EXP")"

# py_check DESC PYTHON ARGS...: the python program (E = expect.json, args =
# the remaining arguments) exits 0; what it prints is the failure report.
py_check() {
	local desc=$1 prog=$2 msg
	shift 2
	if msg=$(python3 -c "
import json, re, sys
E = json.load(open(sys.argv[1]))
args = sys.argv[2:]
def wsfold(s):
    return ' '.join(re.split(r'[ \t\n]+', (s or '').strip(' \t\n')))
$prog" "$EXP" "$@" 2>&1); then
		_pass "$desc"
	else
		local lines
		mapfile -t lines < <(printf '%s\n' "$msg" | head -n 40)
		_fail "$desc" "${lines[@]}"
		return 1
	fi
}

DB=$T/bh.db
for i in 0 1 2; do
	f=${files[$i]}
	v=$(basename "$f" .rst)
	n=$(json_get "len(d['versions'][$i]['entries'])" "$EXP")
	if [ "$i" = 0 ]; then
		a=$n e=0 w=0
	else
		s=$((i - 1))
		a=$(json_get "len(d['steps'][$s]['added'])" "$EXP")
		e=$(json_get "len(d['steps'][$s]['edited'])" "$EXP")
		w=$(json_get "len(d['steps'][$s]['withdrawn'])" "$EXP")
	fi
	rl --db "$DB" import --no-thesaurus "$f"
	check_exit "$v: imports" 0
	check_eq "$v: the import reports the changes the raw text holds" \
		"imported $f: $n entries, $a added, $e edited, $w withdrawn (rst-glossary, ru)" \
		"$(cat "$OUT")"
	# the only messages: the repeated terms the reading merged
	py_check "$v: the only warnings are the repeated terms, at their lines" '
v = E["versions"][int(args[0])]
want = sorted("%s:%d: warning: term %r appears again (first at line %d); its definition is added to the first'"'"'s"
              % (v["path"], m[1], m[0], m[2]) for m in v["merged"])
got = sorted(l.replace("rulings: ", "", 1) for l in open(args[1], encoding="utf-8").read().splitlines())
if got != want:
    print("expected:", want); print("actual:  ", got); sys.exit(1)
' "$i" "$ERR"
done

check_eq "the three imports are numbers 1, 2, 3" "1|2|3" \
	"$(sqlite3 -batch "$DB" 'SELECT group_concat(id, "|") FROM (SELECT id FROM imports ORDER BY id)')"

for s in 0 1; do
	from=$((s + 1)) to=$((s + 2))
	rl --db "$DB" changed --between "$from" "$to" --format json
	check_exit "changed --between $from $to: runs" 0
	cp "$OUT" "$T/changed$s.json"
	py_check "changed --between $from $to: added titles are the new terms" '
d = json.load(open(args[1], encoding="utf-8"))
st = E["steps"][int(args[0])]
got = sorted(c["title"] for c in d["changes"] if c["change"] == "added")
if got != st["added"]:
    print("missing:", sorted(set(st["added"]) - set(got)))
    print("extra:  ", sorted(set(got) - set(st["added"]))); sys.exit(1)
' "$s" "$T/changed$s.json"
	py_check "changed --between $from $to: withdrawn titles are the terms gone" '
d = json.load(open(args[1], encoding="utf-8"))
st = E["steps"][int(args[0])]
got = sorted(c["title"] for c in d["changes"] if c["change"] == "withdrawn")
if got != st["withdrawn"]:
    print("missing:", sorted(set(st["withdrawn"]) - set(got)))
    print("extra:  ", sorted(set(got) - set(st["withdrawn"]))); sys.exit(1)
' "$s" "$T/changed$s.json"
	py_check "changed --between $from $to: edited titles are the terms whose text changed" '
d = json.load(open(args[1], encoding="utf-8"))
st = E["steps"][int(args[0])]
want = sorted(e["title"] for e in st["edited"])
got = sorted(c["title"] for c in d["changes"] if c["change"] == "edited")
if got != want:
    print("missing:", sorted(set(want) - set(got)))
    print("extra:  ", sorted(set(got) - set(want))); sys.exit(1)
' "$s" "$T/changed$s.json"
	py_check "changed --between $from $to: nothing but added, edited, withdrawn" '
d = json.load(open(args[1], encoding="utf-8"))
st = E["steps"][int(args[0])]
n = len(st["added"]) + len(st["edited"]) + len(st["withdrawn"])
bad = [c for c in d["changes"] if c["change"] not in ("added", "edited", "withdrawn")]
if bad or len(d["changes"]) != n:
    print("expected %d changes, got %d; others: %s" % (n, len(d["changes"]), bad)); sys.exit(1)
' "$s" "$T/changed$s.json"
	py_check "changed --between $from $to: each edit's old and new texts are the raw files' definitions" '
d = json.load(open(args[1], encoding="utf-8"))
st = E["steps"][int(args[0])]
want = {e["title"]: e for e in st["edited"]}
bad = []
for c in d["changes"]:
    if c["change"] != "edited" or c["title"] not in want:
        continue
    e = want[c["title"]]
    if wsfold(c["old"]) != wsfold(e["old"]) or wsfold(c["new"]) != wsfold(e["new"]) \
            or c["old_title"] != e["old_title"] or c["new_title"] != e["title"]:
        bad.append(c["title"])
    if wsfold(c["old"]) == wsfold(c["new"]) and c["old_title"] == c["new_title"]:
        bad.append(c["title"] + " (old = new once white space is folded)")
if bad:
    print("differ:", bad); sys.exit(1)
' "$s" "$T/changed$s.json"
	py_check "changed --between $from $to: added carry their new text, withdrawn their old" '
d = json.load(open(args[1], encoding="utf-8"))
s = int(args[0])
va, vb = E["versions"][s]["entries"], E["versions"][s + 1]["entries"]
new = {e["title"]: e["text"] for e in vb.values()}
old = {e["title"]: e["text"] for e in va.values()}
bad = [c["title"] for c in d["changes"]
       if (c["change"] == "added" and (c["title"] not in new or wsfold(c["new"]) != wsfold(new[c["title"]])))
       or (c["change"] == "withdrawn" and (c["title"] not in old or wsfold(c["old"]) != wsfold(old[c["title"]])))]
if bad:
    print("differ:", bad); sys.exit(1)
' "$s" "$T/changed$s.json"
	py_check "changed --between $from $to: every change is of version $to's import, a glossary entry of Берсерк. Герои" '
d = json.load(open(args[1], encoding="utf-8"))
bad = [c["title"] for c in d["changes"]
       if c["import"] != int(args[0]) + 2 or c["kind"] != "glossary"
       or c["game"] != "Берсерк. Герои" or c["lang"] != "ru"]
if bad:
    print("bad:", bad); sys.exit(1)
' "$s" "$T/changed$s.json"
done

rl --db "$DB" changed --between 0 1 --format json
check_json "changed --between 0 1: the baseline import records no change" \
	"d['changes'] == []"

# The glossary as it stands after the last import: the last version's terms.
rl --db "$DB" search --kind glossary --limit 0 --format json
cp "$OUT" "$T/all.json"
py_check "after the last import the glossary is the last version's terms and texts" '
d = json.load(open(args[0], encoding="utf-8"))
want = sorted((e["title"], wsfold(e["text"])) for e in E["versions"][-1]["entries"].values())
got = sorted((r["title"], wsfold(r["text"])) for r in d["results"])
if got != want:
    print("missing:", sorted(set(want) - set(got))[:5])
    print("extra:  ", sorted(set(got) - set(want))[:5]); sys.exit(1)
' "$T/all.json"

finish
