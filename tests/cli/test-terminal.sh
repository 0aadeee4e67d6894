#!/usr/bin/env bash
# Terminal escape injection (issue 17 case 4): a document holding escape
# sequences (a window title, clear screen), backspace, the C1 control CSI
# and the right-to-left override. Text output and messages show them
# escaped (^[, ^H, <U+009B>, <U+202E>, as less does), with or without
# NO_COLOR and on a terminal; JSON carries them escaped as JSON does, the
# same strings to a parser.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

ESC=$'\033'
# The hostile strings, and what a terminal is to be shown of them.
OSC=$'\033]0;pwned\a'          # sets the window title
CLS=$'\033[2J'                 # clears the screen
BS=$'\b'
CSI1=$'\xc2\x9b'               # U+009B, CSI as a C1 control
RLO=$'\xe2\x80\xae'            # U+202E RIGHT-TO-LEFT OVERRIDE
SHOWN_OSC='^[]0;pwned^G'

# no_raw_controls DESC FILE: FILE has no control character but line
# breaks and tabs, no C1 control, no bidi override or isolate (colour
# sequences "ESC [ digits m" aside when ALLOW_SGR=1).
no_raw_controls() {
	local desc=$1 file=$2 found
	found=$(python3 - "$file" "${ALLOW_SGR:-0}" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
if sys.argv[2] == "1":      # a terminal: colour, and CR LF line ends
    data = re.sub(rb"\x1b\[[0-9;]*m", b"", data).replace(b"\r\n", b"\n")
bad = re.findall(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]", data)
print(" ".join(repr(b) for b in bad[:5]))
PY
)
	check_eq "$desc: no raw control or bidi character" "" "$found"
}

{
	printf 'Evil Page\n\nFrequently Asked Questions\n\nRules\n\n'
	printf '\xe2\x80\xa2 Title %s and %s%sX and %s and %sgnirts?\n' \
		"$OSC" "$CLS" "$BS" "$CSI1" "$RLO"
	printf '  Answer %s with %s inside.\n' "$OSC" "$RLO"
	printf '  Tags: Tag%s, Plain\n' "$CLS"
	printf '\xe2\x80\xa2 A quiet question?\n  A quiet answer.\n  Tags: Plain\n'
} >evil.txt
sed 's/inside\./inside, changed./' evil.txt >evil2.txt

rl --db e.db import --game "Evil$CLS" evil.txt
check_exit "the page imports" 0
no_raw_controls "import's report" "$OUT"
rl --db e.db search --tag Plain --format json
check_exit "search --format json" 0
check_json "JSON carries the strings exactly" \
	'any("\x1b]0;pwned\x07" in r["title"] and "\u202e" in r["title"] and "\u009b" in r["title"] for r in d["results"])'
no_raw_controls "search --format json" "$OUT"
check_out_contains "JSON escapes ESC" '\u001b]0;pwned\u0007'
check_out_contains "JSON escapes the override" '\u202e'
check_out_contains "JSON escapes the C1 control" '\u009b'
id=$(json_get '[r["id"] for r in d["results"] if "pwned" in r["title"]][0]')
rl --db e.db search --tag Plain --format ndjson
no_raw_controls "search --format ndjson" "$OUT"
check_ndjson "NDJSON carries the strings exactly" \
	'any("\x1b[2J\x08X" in r["title"] for r in rows)'

# Every text output, with and without NO_COLOR.
sleep 1.1     # imports are stamped to the second: a later version
rl --db e.db import --game "Evil$CLS" evil2.txt
check_exit "the second version imports" 0
for nc in "" 1; do
	label=${nc:+NO_COLOR=1 }
	for args in "search pwned" "search --tag Plain" "show $id" "tags" \
		"tags --counts" "changed" "history $id" "xrefs" "stats"; do
		# shellcheck disable=SC2086
		NO_COLOR=$nc rl --db e.db $args
		no_raw_controls "$label$args" "$OUT"
	done
done
rl --db e.db search pwned
check_out_contains "search shows the window title sequence escaped" "$SHOWN_OSC"
check_out_contains "search shows clear screen and backspace escaped" '^[[2J^HX'
check_out_contains "search shows the C1 control by its code point" '<U+009B>'
check_out_contains "search shows the override by its code point" '<U+202E>gnirts'
check_out_contains "search shows the game escaped" 'Evil^[[2J'
rl --db e.db show "$id"
check_out_contains "show escapes the answer" "Answer $SHOWN_OSC with <U+202E> inside"
check_out_contains "show escapes the tags" 'Tag^[[2J'
rl --db e.db changed
check_out_contains "changed escapes the word diff" \
	"$SHOWN_OSC with <U+202E> [-inside.-]{+inside, changed.+}"
rl --db e.db tags
check_out_contains "tags escapes a tag" 'Tag^[[2J'

# On a terminal, colour is the only escape sequence.
if command -v script >/dev/null 2>&1; then
	cmd=$(printf '%q ' "$RULINGS" --db e.db search pwned)
	script -qec "$cmd" /dev/null </dev/null >tty.txt 2>&1
	check_contains "on a terminal: colour" "$(cat tty.txt)" "${ESC}[1m"
	ALLOW_SGR=1 no_raw_controls "search on a terminal (colour aside)" tty.txt
	check_contains "on a terminal: the title escaped" "$(cat tty.txt)" \
		"$SHOWN_OSC"
fi

# Messages: a value, a file name and a diagnostic.
rl --db e.db search --kind "rule$CLS"
check_exit "a bad --kind is a usage error" 2
no_raw_controls "the usage error quoting the value" "$ERR"
check_err_contains "...which is shown escaped" 'rule^[[2J'
: >"empty$OSC.txt"
rl --db e.db import "empty$OSC.txt"
check_exit "an empty file named with escapes is refused" 65
no_raw_controls "the diagnostic naming the file" "$ERR"
check_err_contains "...which names it escaped" "empty$SHOWN_OSC.txt"
rl --db e.db show "9$RLO"
check_exit "show with an override in its argument: no such rule" 1
no_raw_controls "show's message" "$ERR"
check_err_contains "...which quotes it escaped" 'no rule 9<U+202E>'

finish
