# lib.sh — a small assertion library for the end-to-end tests of the
# rulings binary. Sourced by each tests/cli/test-*.sh script:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
#
# The binary comes from $RULINGS or the first argument (meson passes the
# built executable), run through $RULINGS_WRAPPER when that is set; the
# sample data from $RULINGS_DATA or ../../data.
#
# Every test script gets its own temporary directory ($T, also the working
# directory) that is removed on exit, with HOME and XDG_DATA_HOME pointing
# inside it, so nothing outside it is read or written.
#
#   rl ARGS...              run the binary; stdout in $OUT, stderr in $ERR,
#                           exit status in $STATUS
#   run CMD...              the same for any command
#   check_exit DESC CODE... $STATUS is one of the CODEs
#   check_eq DESC EXPECTED ACTUAL
#   check_contains DESC HAYSTACK NEEDLE      (and check_not_contains)
#   check_match DESC ERE STRING              (grep -E on STRING)
#   check_out_contains / check_err_contains DESC NEEDLE
#   check_out_empty / check_err_empty DESC
#   check_json DESC PYEXPR [FILE]   PYEXPR (d = the parsed JSON) is true
#   check_ndjson DESC PYEXPR [FILE] PYEXPR (rows = one object a line) is true
#   json_get PYEXPR [FILE]          prints the value (strings bare)
#   finish                          prints "N passed, N failed" and exits

set -u

_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

RULINGS=${RULINGS:-${1:-}}
if [ -z "$RULINGS" ]; then
	echo "usage: $0 PATH/TO/rulings (or set RULINGS)" >&2
	exit 2
fi
case $RULINGS in
/*) ;;
*) RULINGS=$PWD/$RULINGS ;;
esac
if [ ! -x "$RULINGS" ]; then
	echo "$0: $RULINGS is not an executable" >&2
	exit 2
fi
DATA=${RULINGS_DATA:-$_lib_dir/../../data}
DATA=$(cd "$DATA" && pwd) || exit 2

# The loadable extension rulings_fts, for the tests that need it
# (need_extension, below): $RULINGS_FTS or the second argument, made
# absolute here, before the working directory changes; EXT_BASE is the path
# without its suffix, as the README loads it.
EXT=${RULINGS_FTS:-${2:-}}
case $EXT in
'' | /*) ;;
*) EXT=$PWD/$EXT ;;
esac
EXT_BASE=${EXT%.so}

PASSED=0
FAILED=0
_finished=0
_bg_pids=()

T=$(mktemp -d "${TMPDIR:-/tmp}/rulings-cli.XXXXXX") || exit 2
OUT=$T/.out
ERR=$T/.err
STATUS=0

# Background processes a test started (by pid) are stopped on exit.
add_bg_pid() {
	_bg_pids+=("$1")
}

_cleanup() {
	local st=$?
	local p
	for p in "${_bg_pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	cd / && rm -rf "$T"
	if [ "$_finished" = 0 ]; then
		echo "error: the test script stopped early (status $st)"
		echo "$PASSED passed, $((FAILED + 1)) failed"
		[ "$st" = 0 ] && st=1
	fi
	exit "$st"
}
trap _cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$T/home" "$T/seeds"

# RULINGS_WRAPPER, when set, is put before the binary everywhere a test
# runs it (valgrind: see tests/README.md): $RULINGS becomes a small script
# that runs the wrapper with the real binary.
_real_rulings=$RULINGS
if [ -n "${RULINGS_WRAPPER:-}" ]; then
	printf '#!/bin/sh\nexec %s %q "$@"\n' "$RULINGS_WRAPPER" "$RULINGS" \
		>"$T/rulings-wrapped"
	chmod +x "$T/rulings-wrapped"
	RULINGS=$T/rulings-wrapped
fi
export HOME=$T/home
export XDG_DATA_HOME=$T/xdg
unset RULINGS_DB NO_COLOR
export LC_ALL=C.UTF-8
cd "$T" || exit 2

# The two English FAQ tag pages every query test starts from, copied so
# that the paths the database records are inside $T.
SEED_SPEED=$T/seeds/000_033b5c31b01b6f02.txt     # page tag: Speed (Fast/Slow)
SEED_DEFEND=$T/seeds/001_8e68847c21c72d28.txt    # page tag: Defend
cp "$DATA/000_033b5c31b01b6f02.txt" "$SEED_SPEED" || exit 2
cp "$DATA/001_8e68847c21c72d28.txt" "$SEED_DEFEND" || exit 2
# FAQ pages do not name their game, and a document that names none is
# refused: their directory's manifest names it (rulings(1), DIRECTORY
# MANIFESTS), as data/.rulings does for data/. The pages the scripts write
# into $T itself are Spirit Island's too; a directory of pages a script
# imports by its name needs its own manifest (faq_dir), and a test of the
# refusal uses a directory without one.
printf 'game = Spirit Island\n' >"$T/seeds/.rulings" || exit 2
cp "$T/seeds/.rulings" "$T/.rulings" || exit 2

# faq_dir DIR...: makes each DIR (and its parents), a folder of Spirit
# Island pages: its manifest names the game.
faq_dir() {
	local d
	for d in "$@"; do
		mkdir -p "$d" && cp "$T/seeds/.rulings" "$d/.rulings" || exit 2
	done
}

# ---- running ----------------------------------------------------------------

run() {
	"$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	return 0
}

rl() {
	run "$RULINGS" "$@"
}

# seed_db DB [IMPORT-OPTIONS...]: a database holding both seed pages (and
# not the thesaurus a new database otherwise starts with).
seed_db() {
	local db=$1
	shift
	"$RULINGS" --db "$db" import --quiet --no-thesaurus "$@" "$SEED_SPEED" "$SEED_DEFEND" \
		>"$T/.seed.out" 2>"$T/.seed.err"
	local st=$?
	if [ "$st" != 0 ]; then
		echo "error: seeding $db failed with status $st:"
		sed 's/^/    /' "$T/.seed.err"
		exit 1
	fi
}

# ---- reporting --------------------------------------------------------------

_pass() {
	PASSED=$((PASSED + 1))
	echo "ok - $1"
}

_fail() {
	FAILED=$((FAILED + 1))
	echo "FAIL - $1"
	shift
	local line
	for line in "$@"; do
		printf '    %s\n' "$line"
	done
}

# The last command's output, for failure reports.
_last_output() {
	printf 'status: %s\n' "$STATUS"
	printf 'stdout: %s\n' "$(head -c 600 "$OUT" | head -n 8)"
	printf 'stderr: %s\n' "$(head -c 600 "$ERR" | head -n 8)"
}

check_exit() {
	local desc=$1 code
	shift
	for code in "$@"; do
		if [ "$STATUS" = "$code" ]; then
			_pass "$desc"
			return 0
		fi
	done
	local lines
	mapfile -t lines < <(_last_output)
	_fail "$desc" "expected exit status: $*" "${lines[@]}"
	return 1
}

check_eq() {
	if [ "$2" = "$3" ]; then
		_pass "$1"
	else
		_fail "$1" "expected: $2" "actual:   $3"
		return 1
	fi
}

check_contains() {
	case $2 in
	*"$3"*) _pass "$1" ;;
	*) _fail "$1" "expected to find: $3" "in: $(printf '%s' "$2" | head -c 600)"
	   return 1 ;;
	esac
}

check_not_contains() {
	case $2 in
	*"$3"*) _fail "$1" "did not expect: $3" \
	        "in: $(printf '%s' "$2" | head -c 600)"
	        return 1 ;;
	*) _pass "$1" ;;
	esac
}

check_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		_pass "$1"
	else
		_fail "$1" "expected a line matching: $2" \
		      "in: $(printf '%s' "$3" | head -c 600)"
		return 1
	fi
}

check_out_contains() {
	check_contains "$1" "$(cat "$OUT")" "$2"
}

check_err_contains() {
	check_contains "$1" "$(cat "$ERR")" "$2"
}

check_out_empty() {
	if [ -s "$OUT" ]; then
		_fail "$1" "expected no standard output" "$(_last_output)"
		return 1
	fi
	_pass "$1"
}

check_err_empty() {
	if [ -s "$ERR" ]; then
		_fail "$1" "expected nothing on standard error" \
		      "stderr: $(head -c 600 "$ERR")"
		return 1
	fi
	_pass "$1"
}

# ---- JSON -------------------------------------------------------------------

_py_json='
import json, re, sys
mode, path, expr = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path, encoding="utf-8").read()
try:
    if mode == "ndjson":
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        rows = [json.loads(l) for l in lines]
        env = {"rows": rows, "text": text}
    else:
        d = json.loads(text)
        env = {"d": d, "text": text}
except ValueError as e:
    print("not valid %s: %s" % (mode, e))
    print("output: " + text[:400])
    sys.exit(2)
env["re"] = re
env["tagset"] = lambda r: {t.lower() for t in r["tags"]}
try:
    v = eval(expr, env)
except Exception as e:
    print("%s: %s" % (type(e).__name__, e))
    print("output: " + text[:400])
    sys.exit(2)
if sys.argv[4] == "get":
    print(v if isinstance(v, str) else json.dumps(v))
    sys.exit(0)
if v:
    sys.exit(0)
print("false: " + expr)
print("output: " + text[:400])
sys.exit(1)
'

_check_py() {
	local mode=$1 desc=$2 expr=$3 file=${4:-$OUT} msg
	if msg=$(python3 -c "$_py_json" "$mode" "$file" "$expr" check 2>&1); then
		_pass "$desc"
	else
		local lines
		mapfile -t lines <<<"$msg"
		_fail "$desc" "${lines[@]}"
		return 1
	fi
}

check_json() {
	_check_py json "$@"
}

check_ndjson() {
	_check_py ndjson "$@"
}

json_get() {
	python3 -c "$_py_json" json "${2:-$OUT}" "$1" get
}

# ---- the build under test -------------------------------------------------

# sanitized: true when the binary was built with AddressSanitizer (asked
# once: `rulings --version` names a test build's sanitizers; ldd cannot tell
# when the runtimes are linked in statically, as tests/run-all does).
sanitized() {
	if [ -z "${_sanitized:-}" ]; then
		_sanitized=no
		"$_real_rulings" --version 2>/dev/null |
			grep -q '^build: sanitize=[a-z,]*address' && _sanitized=yes
	fi
	[ "$_sanitized" = yes ]
}

# sanitizer_preload EXT: what LD_PRELOAD needs for a program that is not
# ours (the sqlite3 shell, Python) to load the extension EXT: nothing for a
# normal build; the ASan runtime for an extension linked to it (its UBSan
# runtime comes along); the compiler's shared ASan and UBSan runtimes when
# the build links them statically into its programs (an extension then
# leaves their symbols to the program).
sanitizer_preload() {
	local rt lib
	rt=$(ldd "$1" 2>/dev/null | awk '/libasan/ { print $3; exit }')
	if [ -z "$rt" ] && sanitized; then
		for lib in libasan.so libubsan.so; do
			lib=$("${CC:-cc}" -print-file-name=$lib 2>/dev/null)
			[ -f "$lib" ] && rt=${rt:+$rt:}$lib
		done
	fi
	printf '%s' "$rt"
}

# ---- the sqlite3 shell with the rulings_fts extension ----------------------

# ext_sqlite3 EXT ARGS...: the sqlite3 shell, for a database whose full-text
# tables need the extension EXT (.load). An extension built with
# AddressSanitizer (tests/run-all's second build) loads only into a process
# that has the sanitizer runtimes first: the shell, and only the shell, gets
# them preloaded.
ext_sqlite3() {
	local rt
	rt=$(sanitizer_preload "$1")
	shift
	if [ -n "$rt" ]; then
		LD_PRELOAD="$rt" sqlite3 "$@"
	else
		sqlite3 "$@"
	fi
}

# need_extension: the script needs the sqlite3 shell and the extension
# $EXT: skipped (exit 77) without the shell; a usage error (exit 2) without
# the extension.
need_extension() {
	if ! command -v sqlite3 >/dev/null 2>&1; then
		echo "no sqlite3 shell: skipped"
		_finished=1
		exit 77
	fi
	if [ -z "$EXT" ] || [ ! -f "$EXT" ]; then
		echo "usage: $0 PATH/TO/rulings PATH/TO/rulings_fts.so (or set RULINGS_FTS)" >&2
		_finished=1
		exit 2
	fi
}

# ---- the end ----------------------------------------------------------------

finish() {
	_finished=1
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
	exit $?
}
