#!/usr/bin/env bash
# Versions: what a new version of a document changes (added, edited,
# withdrawn), changed over them, history, --include-withdrawn.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# Version 2 of the Defend page: one answer edited, one entry gone, one new;
# version 3: the gone entry back, the page in CRLF (no edit by itself).
python3 - "$SEED_DEFEND" <<'PY'
import sys, re
text = open(sys.argv[1], encoding="utf-8").read()
v2 = text.replace("Effects of innate powers are cumulative",
                  "Effects of innate powers always stack")
start = v2.index("• Do Defend effects stack normally")
end = v2.index("• If you use Encompassing Ward")
gone = v2[start:end]
v2 = v2[:start] + v2[end:]
v2 = v2.rstrip("\n") + "\n• Is Defend a Power?\n  No, it is a keyword.\n  Tags: Defend\n"
open("v2.txt", "w", encoding="utf-8").write(v2)
v3 = v2.replace("• If you use Encompassing Ward", gone + "• If you use Encompassing Ward")
open("v3.txt", "w", encoding="utf-8", newline="\r\n").write(v3)
PY

rl --db h.db import --no-thesaurus --game "Spirit Island" "$SEED_DEFEND"
check_out_contains "the first version is the baseline: nothing edited or withdrawn" \
	"17 entries, 17 added, 0 edited, 0 withdrawn"
rl --db h.db changed --format json
check_json "after the baseline, changed lists only the marked answer" \
	'[c["change"] for c in d["changes"]] == ["marked"]'

# imports are stamped to the second: keep version 2 in a later one
t1=$(sqlite3 h.db "SELECT imported_at FROM imports ORDER BY id DESC LIMIT 1")
sleep 1.1
rl --db h.db import --game "Spirit Island" v2.txt
check_exit "version 2 imports" 0
check_out_contains "version 2: one added, one edited, one withdrawn" \
	"17 entries, 1 added, 1 edited, 1 withdrawn"

rl --db h.db changed --format json
check_exit "changed finds the changes" 0
check_json "changed: added, edited, withdrawn and marked" \
	'sorted(c["change"] for c in d["changes"]) == ["added", "edited", "marked", "withdrawn"]'
check_json "each change has old, new, at, document and rule" \
	'all(set(c) >= {"id", "change", "kind", "title", "rule", "old", "new", "at", "document"} for c in d["changes"])'
check_json "the edit has the old and the new text" \
	'[(c["old"], c["new"]) for c in d["changes"] if c["change"] == "edited"] == [("Yes. Effects of innate powers are cumulative unless otherwise specified.", "Yes. Effects of innate powers always stack unless otherwise specified.")]'
check_json "the withdrawal has the old text and no new" \
	'all(c["new"] is None and c["old"].startswith("Yes, if you join") for c in d["changes"] if c["change"] == "withdrawn")'
check_json "the addition has the new text and no old" \
	'all(c["old"] is None and c["new"] == "No, it is a keyword." for c in d["changes"] if c["change"] == "added")'
check_json "changes name the document (the page) and a time" \
	'all(c["document"] == "Defend" and c["at"][:2] == "20" for c in d["changes"])'
edited=$(json_get '[c["id"] for c in d["changes"] if c["change"] == "edited"][0]')
withdrawn=$(json_get '[c["id"] for c in d["changes"] if c["change"] == "withdrawn"][0]')

rl --db h.db changed
check_match "text: the edit word by word" \
	'\[-are cumulative-\] \{\+always stack\+\}' "$(cat "$OUT")"
rl --db h.db changed --since 2999-01-01
check_exit "changed --since the future: nothing, exit 1" 1
rl --db h.db changed --since 2000-01-01 --format json
check_json "changed --since the past: all of them" 'len(d["changes"]) == 4'
rl --db h.db changed --between 1 2 --format json
check_json "changed --between 1 2 (import numbers): the three recorded ones" \
	'sorted(c["change"] for c in d["changes"]) == ["added", "edited", "withdrawn"]'
rl --db h.db changed --between 2 2 --format json
check_exit "changed --between 2 2: an empty range, exit 1" 1
rl --db h.db changed --document defend --format json
check_json "changed --document defend (any case)" 'len(d["changes"]) == 4'
rl --db h.db changed --document Nothing
check_exit "changed --document of another page: exit 1" 1
rl --db h.db changed --between 1
check_exit "changed --between with one value: usage error" 2

# search, stats and the withdrawn ruling
rl --db h.db search stack normally --format json
check_json "search no longer finds the withdrawn entry" \
	"$withdrawn not in [r['id'] for r in d['results']]"
rl --db h.db search stack normally --include-withdrawn --format json
check_json "search --include-withdrawn finds it" \
	"$withdrawn in [r['id'] for r in d['results']]"
rl --db h.db stats --format json
check_json "stats: 17 current rulings, 1 withdrawn" 'd["rulings"] == 17 and d["withdrawn"] == 1'
rl --db h.db show "#$withdrawn" --format json
check_exit "show still shows the withdrawn ruling" 0

# --as-of: the rulings and texts of the first version's time
rl --db h.db search cumulative --as-of "$t1" --format json
check_json "--as-of t1: the old text is found" \
	'[r["text"] for r in d["results"]] == ["Yes. Effects of innate powers are cumulative unless otherwise specified."]'
rl --db h.db search "always stack" --as-of "$t1"
check_exit "--as-of t1: the new text is not" 1
rl --db h.db search stack normally --as-of "$t1" --format json
check_json "--as-of t1: the since withdrawn entry stood then" \
	"$withdrawn in [r['id'] for r in d['results']]"
rl --db h.db search --tag Defend --as-of "$t1" --format json
check_json "--as-of t1 with a tag: the 17 rulings of version 1" 'd["total"] == 17'
rl --db h.db search --tag Defend --as-of 2000-01-01
check_exit "--as-of before any import: nothing" 1
rl --db h.db search defend --as-of yesterday
check_exit "--as-of with no date: usage error" 2

# history
rl --db h.db history "$edited" --format json
check_exit "history of the edited ruling" 0
check_json "history: a baseline, then the edit" \
	'[v["change"] for v in d["versions"]] == ["baseline", "edited"] and d["format_version"] == 1'
check_json "history: the texts of both versions" \
	'd["versions"][0]["text"].endswith("are cumulative unless otherwise specified.") and "always stack" in d["versions"][1]["text"]'
rl --db h.db history "$withdrawn" --format json
check_json "history of the withdrawn one ends in its withdrawal" \
	'[v["change"] for v in d["versions"]] == ["baseline", "withdrawn"] and d["versions"][1]["text"] is None'
rl --db h.db history 99999
check_exit "history of no ruling: exit 1" 1
rl --db h.db history abc
check_exit "history abc: usage error" 2

# version 3: the entry is back; CRLF line breaks are no edit
rl --db h.db import --game "Spirit Island" v3.txt
check_out_contains "version 3: the withdrawn entry is added back, nothing edited" \
	"18 entries, 1 added, 0 edited, 0 withdrawn"
rl --db h.db history "$withdrawn" --format json
check_json "its history: baseline, withdrawn, added" \
	'[v["change"] for v in d["versions"]] == ["baseline", "withdrawn", "added"]'
rl --db h.db stats --format json
check_json "stats: 18 current, 0 withdrawn" 'd["rulings"] == 18 and d["withdrawn"] == 0'

# ---- --dry-run, --document, --verbose ---------------------------------------------
rl --db dry.db import --dry-run --game "Spirit Island" "$SEED_DEFEND"
check_exit "a dry run on a new database succeeds" 0
check_out_contains "it says what would be imported" "would import"
check_eq "and creates no database" "absent" "$([ -e dry.db ] && echo present || echo absent)"
rl --db h.db stats --format json
before=$(cat "$OUT")
rl --db h.db import --dry-run --game "Spirit Island" v2.txt
check_out_contains "the bytes of version 2 again: unchanged, as they were imported" \
	"unchanged v2.txt"
# (the same text in other bytes is a version: over version 3, the entry
# would go again)
{ cat v2.txt; echo; } >v2b.txt
rl --db h.db import --dry-run --game "Spirit Island" v2b.txt
check_out_contains "a dry run of version 2 over version 3: the entry would go again" \
	"would import v2b.txt: 17 entries, 0 added, 0 edited, 1 withdrawn"
rl --db h.db stats --format json
check_eq "a dry run writes nothing" "$before" "$(cat "$OUT")"
rl --db h.db import --game "Spirit Island" --document "Defend (copy)" v2.txt
check_out_contains "--document makes another document: its first version" \
	"17 entries, 0 added, 0 edited, 0 withdrawn"
rl --db h.db import --verbose --game "Spirit Island" --document "Defend (copy)" v3.txt
check_err_contains "--verbose says how the file was read" "utf-8"
check_err_contains "--verbose says how long it took" " ms"
rl --db h.db import --document "" v3.txt
check_exit "--document with no name: usage error" 2

# ---- issue 12 #5: newest first, --reverse, --limit, a summary, a mark once --------
# version 4 of Defend: version 3 with one more answer marked as changed
python3 - <<'PY'
t = open("v3.txt", encoding="utf-8", newline="").read()
old = "\r\n  No, it is a keyword."
assert t.count(old) == 1
open("v4.txt", "w", encoding="utf-8", newline="").write(
    t.replace(old, "\r\n  Changed answer: No, it is a keyword."))
PY
prev=$(sqlite3 h.db "SELECT max(id) FROM imports")
rl --db h.db import --game "Spirit Island" v4.txt
check_out_contains "a new mark is no edit" "18 entries, 0 added, 0 edited, 0 withdrawn"
v4=$(sqlite3 h.db "SELECT max(id) FROM imports")
t2=$(sqlite3 h.db "SELECT imported_at FROM imports WHERE id = 2")
keyword=$(sqlite3 h.db "SELECT id FROM rulings WHERE body = 'No, it is a keyword.'")
rl --db h.db changed --between "$prev" "$v4" --format json
check_json "--between the versions around it: the new mark alone" \
	"[(c['change'], c['id'], c['import']) for c in d['changes']] == [('marked', $keyword, $v4)]"
rl --db h.db changed --since "$t2" --format json
check_json "--since version 2: the mark version 1 already had is not new" \
	'sorted(c["change"] for c in d["changes"]) == ["added", "added", "edited", "marked", "withdrawn"]'
check_json "...the one mark is version 4's" \
	"[c['id'] for c in d['changes'] if c['change'] == 'marked'] == [$keyword]"
rl --db h.db changed --format json
check_json "changed: the newest version's changes first" \
	"[c['import'] for c in d['changes']] == sorted((c['import'] for c in d['changes']), reverse=True) and d['changes'][0]['import'] == $v4"
all=$(json_get 'len(d["changes"])')
rl --db h.db changed --reverse --format json
check_json "--reverse: the oldest first (version 1's mark)" \
	"[c['import'] for c in d['changes']] == sorted(c['import'] for c in d['changes']) and d['changes'][0]['import'] == 1 and len(d['changes']) == $all"
rl --db h.db changed --limit 1 --format json
check_json "--limit 1: the newest change only" \
	"[(c['change'], c['id']) for c in d['changes']] == [('marked', $keyword)]"
rl --db h.db changed --limit 0 --format json
check_json "--limit 0: all of them" "len(d['changes']) == $all"
rl --db h.db changed --limit -1
check_exit "--limit -1: usage error" 2
rl --db h.db changed
check_match "text: a summary line starts each version's changes" \
	"^Defend · import $v4 · 20[0-9T:-]*Z: 1 marked\$" "$(head -n 1 "$OUT")"
check_eq "...one for each version with changes" 4 "$(grep -c '^Defend · import ' "$OUT")"
check_match "...with how many of each kind" \
	"^Defend · import 2 · [^:]*:[0-9:]*Z: 1 added, 1 edited, 1 withdrawn\$" "$(cat "$OUT")"
# --limit ending the list inside a version: its summary counts all of
# its changes, and says how many are shown (it said "1 added, 1 edited",
# the two shown, as if the version had withdrawn nothing)
rl --db h.db changed --between 1 2 --limit 2
check_match "--limit 2 inside version 2's three changes: all counted, 2 shown" \
	"^Defend · import 2 · [^:]*:[0-9:]*Z: 1 added, 1 edited, 1 withdrawn \\(2 shown: --limit 2\\)\$" "$(head -n 1 "$OUT")"
check_eq "...and two shown" 2 "$(grep -c '^#' "$OUT")"
rl --db h.db changed --between 1 2 --limit 3
check_match "--limit 3: the whole version, no '(shown)'" \
	"^Defend · import 2 · [^:]*:[0-9:]*Z: 1 added, 1 edited, 1 withdrawn\$" "$(head -n 1 "$OUT")"

finish
