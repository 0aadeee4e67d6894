#!/usr/bin/env bash
# A version's date (issue 12 #2): the date its document states, else the
# one given (import --date, or a directory manifest's "date ="), else the
# import time; each recorded with where it came from. The expected dates
# are read from the files here, not from the importers.
CASES=$(cd "$(dirname "${BASH_SOURCE[0]}")/../golden/cases" && pwd) || exit 2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

CR=$CASES/cr-ref-ranges.txt
# "These rules are effective as of January 16, 2026." -> 2026-01-16
stated=$(python3 - "$CR" <<'PY'
import re, sys, datetime
m = re.search(r"effective as of (\w+ \d+, \d{4})", open(sys.argv[1], encoding="utf-8").read())
print(datetime.datetime.strptime(m.group(1), "%B %d, %Y").date().isoformat())
PY
)
# the Defend page, then a version with one answer edited, then one more
python3 - "$SEED_DEFEND" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
v2 = text.replace("Effects of innate powers are cumulative",
                  "Effects of innate powers always stack")
open("v2.txt", "w", encoding="utf-8").write(v2)
mkdir = __import__("os").makedirs
mkdir("dump/deeper", exist_ok=True)
open("dump/deeper/v3.txt", "w", encoding="utf-8").write(
    v2.replace("always stack", "always stack, once each"))
PY
# dated card rulings: the newest is not the last; a day that does not exist
# and a date that is no date are not the document's date
cat >cards.json <<'EOF'
{ "Red": [
    { "card": "Alpha", "ruling": "Alpha one.", "date": "2016-03-14T07:00:00.000Z" },
    { "card": "Beta", "ruling": "Beta one.", "date": "2016-04-02T23:30:00.000Z" },
    { "card": "Gamma", "ruling": "Gamma one.", "date": "2016-03-20T07:00:00.000Z" },
    { "card": "Delta", "ruling": "Delta one.", "date": "2016-04-31T07:00:00.000Z" },
    { "card": "Eps", "ruling": "Eps one.", "date": "2017-xx" },
    { "card": "Zeta", "ruling": "Zeta one." } ] }
EOF
newest=$(python3 - <<'PY'
import json, datetime
days = []
for e in json.load(open("cards.json"))["Red"]:
    try:
        days.append(datetime.date.fromisoformat(e.get("date", "")[:10]).isoformat())
    except ValueError:
        pass
print(max(days))
PY
)

S="Spirit Island"
rl --db d.db import --no-thesaurus --game "$S" --date 2025-01-10 "$SEED_DEFEND"
check_exit "import --date: imported" 0
check_err_empty "...a past date is no warning"
# a date after today (2062 typed for 2026): the version is the newest for
# years, and every later one dated by its import goes before it; said
rl --db future.db import --no-thesaurus --game "$S" --date 2999-01-01 "$SEED_DEFEND"
check_exit "import --date after today: imported" 0
check_err_contains "...with a warning" \
	"warning: --date 2999-01-01 is after today ($(date -u +%Y-%m-%d)): a version of these documents imported before that day without --date will be older than this one, its texts not made current"
rl --db d.db import --game "$S" --date 2025-02-20 v2.txt
rl --db d.db import --date 2000-01-01 "$CR"
check_exit "import --date of a document that states its own: imported" 0
check_err_contains "... and the date given, not used, is said" \
	"warning: the document states its date, $stated; the date given, 2000-01-01, is not used for it"
rl --db d.db import --game Codex cards.json
rl --db d.db documents --format json
check_json "--date: each FAQ version has the date given, source 'given'" \
	"[(v['date'], v['date_source']) for x in d['documents'] if x['title'] == 'Defend' for v in x['versions']] == [('2025-01-10', 'given'), ('2025-02-20', 'given')]"
check_json "...and its import time apart" \
	"all(v['imported_at'][:2] == '20' and 'T' in v['imported_at'] for x in d['documents'] for v in x['versions'])"
check_json "the date a rulebook states wins over --date" \
	"[(v['date'], v['date_source']) for x in d['documents'] if x['format'] == 'comprehensive-rules' for v in x['versions']] == [('$stated', 'document')]"
check_json "card rulings: the newest dated ruling's day ($newest)" \
	"[(v['date'], v['date_source']) for x in d['documents'] if x['title'] == 'card rulings' for v in x['versions']] == [('$newest', 'document')]"
rl --db d.db changed --format json --game "$S"
check_json "changed: the FAQ's change carries the date given" \
	"sorted((c['change'], c['date']) for c in d['changes'] if c['change'] != 'marked') == [('edited', '2025-02-20')] and all(c['date'] == '2025-01-10' for c in d['changes'] if c['change'] == 'marked')"

# ---- a directory manifest's date -------------------------------------------
printf 'game = %s\n[deeper/*.txt]\ndate = 2025-03-05\n' "$S" >dump/.rulings
rl --db d.db import --dry-run dump
check_out_contains "(the manifest names the game)" "would import dump/deeper/v3.txt"
cp d.db m.db
rl --db m.db import dump
check_exit "a manifest's date: imported" 0
check_err_empty "...a past date is no warning"
rl --db m.db documents --format json --game "$S"
check_json "...the version has the manifest's date, source 'given'" \
	"[(v['date'], v['date_source']) for v in d['documents'][0]['versions']][-1] == ('2025-03-05', 'given')"
rl --db d.db import --date 2025-04-01 dump
rl --db d.db documents --format json --game "$S"
check_json "--date wins over a manifest's date" \
	"[(v['date'], v['date_source']) for v in d['documents'][0]['versions']][-1] == ('2025-04-01', 'given')"
# a manifest's date after today is warned about as --date's is, at the
# manifest's line, once for all the documents it dates
mkdir -p fut
cp "$SEED_SPEED" "$SEED_DEFEND" fut/
printf 'game = %s\n\n[*.txt]\ndate = 2999-01-01\n' "$S" >fut/.rulings
rl --db fut.db import --no-thesaurus fut
check_exit "a manifest's date after today: imported" 0
check_err_contains "...with a warning at the manifest's line" \
	"rulings: fut/.rulings:4: warning: date 2999-01-01 is after today ($(date -u +%Y-%m-%d)): a version of the documents it dates imported before that day without a date given will be older than this one, its texts not made current"
check_eq "...once, for its two documents" 1 "$(grep -c 'is after today' "$ERR")"
rl --db fut2.db import --no-thesaurus --date 2025-04-01 fut
check_exit "...not used under --date" 0
check_err_empty "...and then not warned about"

# ---- time options mean the versions' dates (issue 12 #3) --------------------
# Two rulebook releases (their dates read from the files here), imported
# before two FAQ versions of older dates: import order is not date order.
CR2=$CASES/cr-duplicate-rule.txt
stated2=$(python3 - "$CR2" <<'PY'
import re, sys, datetime
m = re.search(r"effective as of (\w+ \d+, \d{4})", open(sys.argv[1], encoding="utf-8").read())
print(datetime.datetime.strptime(m.group(1), "%B %d, %Y").date().isoformat())
PY
)
# the rules of the first release that the second no longer has
gone=$(python3 - "$CR" "$CR2" <<'PY'
import re, sys
# numbered rules and their sections ("7. Additional Rules", "701. Keyword
# Actions"), the contents' lines naming the same numbers
rules = [set(re.findall(r"^(\d+(?:\.\d+[a-z]?)?)\.? \S", open(f, encoding="utf-8").read(), re.M))
         for f in sys.argv[1:]]
print(len(rules[0] - rules[1]))
PY
)
today=$(date -u +%Y-%m-%d)
rl --db t.db import --no-thesaurus --allow-withdraw "$CR" "$CR2"
rl --db t.db import --game "$S" --date 2025-01-10 "$SEED_DEFEND"
rl --db t.db import --game "$S" --date 2025-02-20 v2.txt
check_exit "(the versions import)" 0
rl --db t.db changed --format json
check_json "changed: newest version first by date, not by import" \
	"[c['date'] for c in d['changes']] == sorted((c['date'] for c in d['changes']), reverse=True) and d['changes'][0]['date'] == '$stated2'"
rl --db t.db changed --since "$stated2" --format json
check_json "--since the second release's day: its changes only ($gone withdrawn)" \
	"{c['date'] for c in d['changes']} == {'$stated2'} and sum(c['change'] == 'withdrawn' for c in d['changes']) == $gone"
rl --db t.db changed --since "$today"
check_exit "--since today: no version is dated today" 1
rl --db t.db changed --until 2025-02-20 --format json
check_json "--until a day: the versions dated up to its end" \
	"sorted((c['change'], c['date']) for c in d['changes']) == [('edited', '2025-02-20'), ('marked', '2025-01-10')]"
rl --db t.db changed --between "$stated" "$stated2" --format json
check_json "--between two dates: the versions after the first day up to the second" \
	"{c['date'] for c in d['changes']} == {'$stated2'}"
rl --db t.db changed --between 2025-01-10 2025-02-20 --format json
check_json "...the FAQ's edit, not the mark of the version dated on the first day" \
	"[(c['change'], c['date']) for c in d['changes']] == [('edited', '2025-02-20')]"
rl --db t.db changed --imported-since "$today" --format json
check_json "--imported-since today: every change, by its import time" \
	"len({c['date'] for c in d['changes']}) == 3 and all(c['imported_at'][:10] == '$today' for c in d['changes'])"
rl --db t.db changed --imported-until 2025-12-31
check_exit "--imported-until a day before the imports: nothing" 1
rl --db t.db changed --since 2025-01-01 --imported-until "$today" --format json
check_json "...both kinds of time at once" "len(d['changes']) > $gone"
rl --db t.db changed --until 2025-01-09
check_exit "--until a day before every version: nothing" 1
rl --db t.db changed --imported-since 2025-13-01
check_exit "--imported-since a month 13: usage error" 2

rl --db t.db search --as-of "$stated" exchanged --format json
check_json "search --as-of the first release's day: its rule" \
	"[r['rule'] for r in d['results']] == ['701.12c']"
rl --db t.db search --as-of 2025-12-31 trample --format json
check_json "--as-of between the releases: the glossary's Trample" \
	"len(d['results']) == 1"
rl --db t.db search --as-of "$stated2" exchanged
check_exit "--as-of the second release's day: that rule is gone" 1
rl --db t.db search --as-of 2025-11-13 trample
check_exit "--as-of the day before the first release: nothing" 1
rl --db t.db search --tag Defend --as-of 2025-02-19 --format json
check_json "--as-of before the FAQ's second version: the first's text" \
	"any('are cumulative' in r['text'] for r in d['results']) and not any('always stack' in r['text'] for r in d['results'])"
rl --db t.db search --tag Defend --as-of 2025-02-20 --format json
check_json "--as-of its day: the second's text" \
	"any('always stack' in r['text'] for r in d['results'])"

# show --as-of: one ruling's title and text of then
rl --db t.db search --as-of "$stated" exchanged --format json
rule_id=$(json_get "d['results'][0]['id']")
rl --db t.db changed --game "$S" --format json
faq_id=$(json_get "[c['id'] for c in d['changes'] if c['change'] == 'edited'][0]")
rl --db t.db show --as-of 2025-02-19 "#$faq_id" --format json
check_json "show --as-of before the FAQ's edit: the first text" \
	"'are cumulative' in d['text'] and 'always stack' not in d['text']"
rl --db t.db show "#$faq_id" --format json
check_json "...show without: the text as it stands" "'always stack' in d['text']"
rl --db t.db show --as-of 2024-12-31 "#$faq_id"
check_exit "show --as-of before its first version: exit 1" 1
check_err_contains "...it did not stand then" "ruling $faq_id did not stand at 2024-12-31T23:59:59Z"
rl --db t.db show --as-of 2025-12-31 "#$rule_id"
check_exit "show --as-of between the releases: the rule withdrawn since stood" 0
check_not_contains "...not marked withdrawn" "$(head -2 "$OUT")" "withdrawn"
rl --db t.db show "#$rule_id"
check_contains "...show without: withdrawn" "$(head -2 "$OUT")" "withdrawn"
rl --db t.db show --as-of "$stated2" "#$rule_id"
check_exit "show --as-of the day of the release that withdrew it: exit 1" 1
rl --db t.db show --as-of 2025-02-30 "#$rule_id"
check_exit "show --as-of a day February lacks: usage error" 2

# ---- refused dates -----------------------------------------------------------
printf 'game = %s\ndate = 2025-02-30\n' "$S" >dump/.rulings
echo "• Q? A." >dump/deeper/v4.txt
cp m.db before.db
rl --db m.db import dump
check_exit "a manifest's date that is no day: data error" 65
check_err_contains "...naming the manifest and its line" \
	"dump/.rulings:2: error: date '2025-02-30' is not a day of the calendar"
check_eq "...nothing stored" "$(sqlite3 before.db 'SELECT count(*) FROM imports')" \
	"$(sqlite3 m.db 'SELECT count(*) FROM imports')"
for bad in 2025-02-30 2025-01-10T10:00 20250110 yesterday ""; do
	rl --db m.db import --date "$bad" "$SEED_DEFEND"
	check_exit "import --date '$bad': usage error" 2
	check_err_contains "...says what it takes" "a date such as 2026-01-16 (YYYY-MM-DD)"
done

# ---- a day given after an import dated by its time, the same day ----------------
# The page imported without a date is dated by its import's time (today,
# 10:37); its next version, given today's date (import --date, a dump's
# day), stood at today's start: it was put before the first, the old text
# stayed current and changed showed the edit backwards. A day and a time of
# that day are one day: the later import is the newer version.
today=$(date -u +%Y-%m-%d)
rl --db sameday.db import --no-thesaurus --game "Spirit Island" "$SEED_DEFEND"
check_exit "sameday: the page, dated by its import" 0
rl --db sameday.db import --no-thesaurus --game "Spirit Island" --date "$today" v2.txt
check_exit "sameday: its next version, given today's date" 0
check_out_contains "... is an edit of the first" "1 edited"
rl --db sameday.db search --format json -n 0 'innate powers'
check_json "... and its text is the current one" \
	'any("always stack" in r["text"] for r in d["results"]) and not any("are cumulative" in r["text"] for r in d["results"])'
rl --db sameday.db changed --format json
check_json "changed: the edit from the first to the second" \
	'[(c["change"], "are cumulative" in c["old"], "always stack" in c["new"]) for c in d["changes"] if c["change"] == "edited"] == [("edited", True, True)]'
rl --db sameday.db documents --format json
check_json "documents: the first, then the one given today" \
	'[v["date_source"] for v in d["documents"][0]["versions"]] == ["imported", "given"]'
rl --db sameday.db search --as-of "$today" --format json -n 0 'innate powers'
check_json "--as-of today: the version given today, the later import" \
	'any("always stack" in r["text"] for r in d["results"])'
# and the other way: a day given first, then an import dated by its time
rl --db sameday2.db import --no-thesaurus --game "Spirit Island" --date "$today" "$SEED_DEFEND"
rl --db sameday2.db import --no-thesaurus --game "Spirit Island" v2.txt
check_out_contains "sameday, the other way: an edit of the first" "1 edited"
rl --db sameday2.db search --format json -n 0 'innate powers'
check_json "... and its text is the current one" \
	'any("always stack" in r["text"] for r in d["results"])'
# a day before the import's stays before it
yesterday=$(date -u -d yesterday +%Y-%m-%d)
rl --db sameday3.db import --no-thesaurus --game "Spirit Island" v2.txt
rl --db sameday3.db import --no-thesaurus --game "Spirit Island" --date "$yesterday" "$SEED_DEFEND"
check_out_contains "... its line says it is older, put in its place (not 0 added as if nothing)" \
	"an older version: put in its place in the history, the current texts unchanged"
rl --db sameday3.db search --format json -n 0 'innate powers'
check_json "a version given yesterday, imported after today's: older, not current" \
	'any("always stack" in r["text"] for r in d["results"])'

finish
