#!/usr/bin/env bash
# Colour: escape sequences only when standard output is a terminal, and never
# with NO_COLOR set. script(1) provides the terminal.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db
ESC=$'\033'

if ! command -v script >/dev/null 2>&1; then
	echo "error: script(1) is needed for the terminal tests"
	exit 1
fi

# on_tty FILE [VAR=VALUE...] -- ARGS...: runs the binary on a pseudo-terminal,
# its output (the terminal's) in FILE.
on_tty() {
	local file=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	local cmd
	cmd=$(printf '%q ' env "${envs[@]}" "$RULINGS" "$@")
	script -qec "$cmd" /dev/null </dev/null >"$file" 2>&1
	STATUS=$?
}

rl --db s.db search --tag Encompassing\ Ward --format json
ward=$(json_get 'd["results"][0]["id"]')

# ---- on a terminal ------------------------------------------------------------------
# (the snippet is of the answer: "presence" is matched there)
on_tty tty.txt -- --db s.db search encompassing ward presence
check_exit "search on a terminal succeeds" 0
check_contains "search on a terminal: escape codes" "$(cat tty.txt)" "${ESC}["
check_contains "search on a terminal: matches are highlighted (bold red)" \
	"$(cat tty.txt)" "${ESC}[1;31m"
check_contains "search on a terminal: the text is there too" "$(cat tty.txt)" "ncompassing"

on_tty tty-show.txt -- --db s.db show "$ward"
check_exit "show on a terminal succeeds" 0
check_contains "show on a terminal: escape codes" "$(cat tty-show.txt)" "${ESC}["

on_tty tty-changed.txt -- --db s.db changed
check_contains "changed on a terminal: escape codes" "$(cat tty-changed.txt)" "${ESC}["

# ---- piped -----------------------------------------------------------------------------
rl --db s.db search encompassing ward
check_exit "search piped succeeds" 0
check_not_contains "search piped: no escape codes" "$(cat "$OUT")" "$ESC"
check_contains "search piped: the same text" "$(cat "$OUT")" "ncompassing"
rl --db s.db show "$ward"
check_not_contains "show piped: no escape codes" "$(cat "$OUT")" "$ESC"
rl --db s.db changed
check_not_contains "changed piped: no escape codes" "$(cat "$OUT")" "$ESC"
"$RULINGS" --db s.db search encompassing ward > to-file.txt 2>/dev/null
check_not_contains "search to a file: no escape codes" "$(cat to-file.txt)" "$ESC"

# ---- NO_COLOR ----------------------------------------------------------------------------
on_tty nc.txt NO_COLOR=1 -- --db s.db search encompassing ward
check_exit "search on a terminal with NO_COLOR=1 succeeds" 0
check_not_contains "search on a terminal with NO_COLOR=1: no escape codes" "$(cat nc.txt)" "$ESC"
check_contains "search with NO_COLOR=1: the text is there" "$(cat nc.txt)" "ncompassing"
on_tty nc-show.txt NO_COLOR=1 -- --db s.db show "$ward"
check_not_contains "show on a terminal with NO_COLOR=1: no escape codes" "$(cat nc-show.txt)" "$ESC"
on_tty nc-changed.txt NO_COLOR=yes -- --db s.db changed
check_not_contains "changed on a terminal with NO_COLOR=yes: no escape codes" \
	"$(cat nc-changed.txt)" "$ESC"
NO_COLOR=1 rl --db s.db search encompassing ward
check_not_contains "piped with NO_COLOR=1: no escape codes" "$(cat "$OUT")" "$ESC"

# ---- JSON is never coloured ---------------------------------------------------------------
on_tty tty-json.txt -- --db s.db search encompassing ward --format json
check_not_contains "search --format json on a terminal: no escape codes" \
	"$(cat tty-json.txt)" "$ESC"
on_tty tty-ndjson.txt -- --db s.db search encompassing ward --format ndjson
check_not_contains "search --format ndjson on a terminal: no escape codes" \
	"$(cat tty-ndjson.txt)" "$ESC"
on_tty tty-showjson.txt -- --db s.db show "$ward" --format json
check_not_contains "show --format json on a terminal: no escape codes" \
	"$(cat tty-showjson.txt)" "$ESC"

# Diagnostics are plain too.
on_tty tty-err.txt -- --db s.db show abc
check_exit "a usage error on a terminal exits 2" 2
check_not_contains "a usage error on a terminal: no escape codes" "$(cat tty-err.txt)" "$ESC"

finish
