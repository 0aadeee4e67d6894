#!/usr/bin/env bash
# A damaged or shrunken new version of a document must not withdraw its
# rulings (issue 18): a text that ends inside an entry is refused
# (--accept-damaged); the withdraw limit (--allow-withdraw, --max-withdraw);
# --dry-run; the refused documents in the bulk summary and the exit status;
# answers cut short as warnings.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# Versions of the Defend page (17 entries, each from a line "• ..." to the
# next): cut.txt is the page cut off in the middle of an entry, as an
# interrupted download leaves it, and late.txt too, in its last entry;
# minus-K.txt the page without its last K
# entries, each still whole; short.txt the page with one answer cut short
# and nothing else gone.
python3 - "$SEED_DEFEND" <<'PY'
import re, sys
raw = open(sys.argv[1], "rb").read()
open("cut.txt", "wb").write(raw[: len(raw) * 45 // 100])
text = raw.decode("utf-8")
answer = text.index("\n  ", text.rindex("\n• ")) + 3
open("late.txt", "w", encoding="utf-8").write(text[: answer + 20])
starts = [m.start() for m in re.finditer(r"(?m)^• ", text)]
assert len(starts) == 17, len(starts)
for k in (4, 8, 9, 10, 14):
    open("minus-%d.txt" % k, "w", encoding="utf-8").write(
        text[: starts[17 - k]])
i = text.index("Effects of innate powers are cumulative")
j = text.index("\n", i)
open("short.txt", "w", encoding="utf-8").write(
    text[:i] + "Effects of innate powers" + text[j:])
PY

G=(--game "Spirit Island")
dump() {
	sqlite3 "$1" .dump
}

rl --db d.db import "${G[@]}" "$SEED_DEFEND"
check_exit "the whole page imports" 0
cp d.db base.db
dump d.db >before.sql

# The page cut inside an entry is damaged: refused, at the entry's line,
# wherever the cut falls.
for f in cut late; do
	rl --db d.db import "${G[@]}" $f.txt
	check_exit "$f.txt: the damaged page is refused with the data status" 65
	check_match "$f.txt: the refusal is at the line of the entry it ends in" \
		"^rulings: $f\\.txt:[0-9]+: error: the file ends inside an entry begun here \\(damaged\\?\\); refused, nothing stored; it imports with --accept-damaged\$" \
		"$(cat "$ERR")"
	check_out_empty "$f.txt: a refused document prints no 'imported' line"
	dump d.db >after.sql
	check_eq "$f.txt: the refused import leaves the database as it was" "" \
		"$(diff before.sql after.sql | head -5)"
done
rl --db d.db search --tag Defend --limit 0 --format ndjson
check_exit "every ruling of the page is still found" 0
check_eq "still 17 rulings of the page in search" 17 "$(grep -c . "$OUT")"
cp base.db m.db
rl --db m.db import --accept-damaged "${G[@]}" late.txt
check_exit "--accept-damaged imports a damaged page" 0
check_match "... still saying what it withdraws" \
	"^imported late\\.txt: 17 entries, 0 added, 1 edited \\(1 cut short\\), 0 withdrawn" \
	"$(cat "$OUT")"

# Accepted as damaged, the page cut at 45% still withdraws 10 of the 17
# rulings: refused by the withdraw limit.
rl --db d.db import --accept-damaged "${G[@]}" cut.txt
check_exit "the cut page, accepted as damaged, is refused for what it withdraws" 65
check_err_contains "the refusal names the document and the counts" \
	'cut.txt: this version of "Defend" would withdraw 10 of its 17 rulings, more than half'
check_err_contains "the refusal names the options that allow it" \
	"--allow-withdraw or --max-withdraw N|P% imports it"
dump d.db >after.sql
check_eq "the refused import leaves the database as it was" "" \
	"$(diff before.sql after.sql | head -5)"

# --dry-run: the same numbers, no refusal.
rl --db d.db import --dry-run "${G[@]}" cut.txt
check_exit "a dry run of the damaged page is no failure" 0
check_out_contains "the dry run shows what the import would do" \
	"would import cut.txt: 7 entries, 0 added, 1 edited (1 cut short), 10 withdrawn"
check_err_contains "the dry run says the import would be refused" \
	"warning: the file ends inside an entry begun here (damaged?); an import would be refused without --accept-damaged"
rl --db d.db import --dry-run --accept-damaged "${G[@]}" cut.txt
check_exit "a dry run of the page over the limit is no failure" 0
check_out_contains "the dry run shows what the import would do" \
	"would import cut.txt: 7 entries, 0 added, 1 edited (1 cut short), 10 withdrawn"
check_err_contains "the dry run says the import would be refused" \
	'would withdraw 10 of its 17 rulings, more than half; an import would be refused'
dump d.db >after.sql
check_eq "the dry run writes nothing" "" "$(diff before.sql after.sql)"

# The answer cut in the middle is a warning on its ruling.
check_match "the cut answer is a warning at its entry's line" \
	'cut\.txt:[0-9]+: warning: the answer to "[^"]+.* is now only the beginning of its earlier text \(truncated\?\)' \
	"$(cat "$ERR")"

# --allow-withdraw, and --max-withdraw at its boundary.
rl --db d.db import --accept-damaged --allow-withdraw "${G[@]}" cut.txt
check_exit "--allow-withdraw imports the cut page" 0
check_out_contains "... and still says what it withdraws" "10 withdrawn"
for lim in 9:65 10:0 58%:65 59%:0; do
	cp base.db m.db
	rl --db m.db import --accept-damaged --max-withdraw "${lim%:*}" \
		"${G[@]}" cut.txt
	check_exit "--max-withdraw ${lim%:*} for 10 of 17 withdrawn" "${lim#*:}"
done
check_out_contains "within --max-withdraw the cut page is imported" "10 withdrawn"
cp base.db m.db
rl --db m.db import --accept-damaged --max-withdraw 9 --allow-withdraw \
	"${G[@]}" cut.txt
check_exit "--allow-withdraw wins over --max-withdraw" 0
for bad in -1 x 101% 5%% "" 1e3; do
	rl --db m.db import --max-withdraw "$bad" "${G[@]}" cut.txt
	check_exit "--max-withdraw '$bad' is a usage error" 2
done
check_err_contains "the usage error says what --max-withdraw takes" \
	"--max-withdraw takes a number of rulings or a percentage"

# The default limit: more than half of the document's rulings, and 5 or
# more. 8 of 17 is not more than half, 9 is; 4 is fewer than 5.
for case in 4:0 8:0 9:65 14:65; do
	cp base.db m.db
	rl --db m.db import "${G[@]}" "minus-${case%:*}.txt"
	check_exit "the default limit, ${case%:*} of 17 withdrawn" "${case#*:}"
done
# once 4 have gone, the 13 left are the document's rulings: 9 more is
# more than half of them
cp base.db m.db
rl --db m.db import "${G[@]}" minus-4.txt
rl --db m.db import "${G[@]}" minus-10.txt
check_exit "6 of the 13 left is not more than half" 0
cp base.db m.db
rl --db m.db import "${G[@]}" minus-4.txt
rl --db m.db import "${G[@]}" minus-14.txt
check_exit "10 of the 13 left is more than half" 65
check_err_contains "the count is of the rulings the document lists now" \
	"would withdraw 10 of its 13 rulings"

# A genuine new version that withdraws a few is imported as before, and
# an answer cut short without anything withdrawn is a warning only.
cp base.db m.db
rl --db m.db import "${G[@]}" minus-4.txt
check_out_contains "a version withdrawing 4 is imported" "4 withdrawn"
cp base.db m.db
rl --db m.db import "${G[@]}" short.txt
check_exit "an answer cut short alone is no failure" 0
check_out_contains "the answer cut short is counted with the edited" \
	"1 edited (1 cut short)"
check_err_contains "... and warned of" "is now only the beginning of its earlier text"

# The bulk summary: the refused documents listed, exit status 65, the
# others imported.
mkdir -p batch
cp cut.txt batch/a-cut.txt
cp "$SEED_SPEED" batch/b-speed.txt
cp base.db m.db
rl --db m.db import "${G[@]}" batch
check_exit "a run with a refused document exits 65" 65
check_out_contains "the summary counts the refused" \
	"2 documents: 1 imported, 0 unchanged, 0 skipped, 1 refused, 0 failed"
check_match "the summary lists the refused documents" \
	"refused, nothing stored:
  batch/a-cut\\.txt: the file ends inside an entry begun at line [0-9]+ \\(damaged\\?\\); as it is, it would withdraw 10 of the 17 rulings of \"Defend\"\$" \
	"$(cat "$OUT")"
rl --db m.db search Speed
check_exit "the other document of the run is imported" 0
cp base.db m.db
rl --db m.db import --bulk "${G[@]}" batch
check_exit "a bulk load with a refused document exits 65" 65
check_out_contains "the bulk load's summary counts the refused" \
	"1 imported, 0 unchanged, 0 skipped, 1 refused, 0 failed"
rl --db m.db search --tag Defend --limit 0 --format ndjson
check_eq "the bulk load left the page whole" 17 "$(grep -c . "$OUT")"

# A Comprehensive Rules release cut in the middle of a rule, when the
# corpus is beside the source root (../shared/corpora; meson passes it):
# at 85% of the file (a few rulings withdrawn), refused as damaged; at 40%
# and accepted as damaged, refused for what it withdraws.
CR=${2:-}/mtg-cr/CR-2026-01-16.txt
if [ -f "$CR" ]; then
	python3 - "$CR" <<'PY'
import re, sys
raw = open(sys.argv[1], "rb").read()
rule = re.compile(rb"[\r\n](\d{3}\.\d+[a-z]?\.? )([^\r\n]{40,})")
for name, at in (("cr-late.txt", 85), ("cr-cut.txt", 40)):
    # the middle of the first rule's text that begins after at% of the file
    m = rule.search(raw, len(raw) * at // 100)
    open(name, "wb").write(raw[: m.start(2) + len(m.group(2)) // 2])
PY
	cp "$CR" cr.txt
	rl --db cr.db import cr.txt
	check_exit "the CR release imports" 0
	dump cr.db >cr-before.sql
	rl --db cr.db import cr-late.txt
	check_exit "the CR release cut mid-rule at 85% is refused" 65
	check_match "... as damaged, at the rule's line" \
		'^rulings: cr-late\.txt:[0-9]+: error: the file ends inside a rule begun here' \
		"$(cat "$ERR")"
	dump cr.db >cr-after.sql
	check_eq "... and the database is as it was" "" \
		"$(diff cr-before.sql cr-after.sql | head -5)"
	rl --db cr.db import --accept-damaged cr-cut.txt
	check_exit "the CR release cut at 40%, accepted as damaged, is refused" 65
	check_err_contains "... for what it would withdraw" \
		'this version of "Magic: The Gathering Comprehensive Rules" would withdraw'
	dump cr.db >cr-after.sql
	check_eq "... and the database is as it was" "" \
		"$(diff cr-before.sql cr-after.sql | head -5)"
else
	echo "# skipped: the Comprehensive Rules cases ($CR not found)"
fi

finish
