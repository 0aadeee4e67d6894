#!/usr/bin/env bash
# Exit statuses: usage errors (2), help (0), nothing found (1), write
# failures on standard output (74).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db s.db

# usage_case DESC ARGS...: exit 2, a message on stderr, nothing on stdout.
usage_case() {
	local desc=$1
	shift
	rl "$@"
	check_exit "$desc: exit 2" 2
	check_match "$desc: a 'rulings: ...' message on stderr" '^rulings: ' "$(cat "$ERR")"
	check_out_empty "$desc: nothing on stdout"
}

# ---- usage errors ---------------------------------------------------------------
usage_case "no command" --db s.db
usage_case "unknown command" --db s.db frobnicate
usage_case "unknown global option" --bogus stats
usage_case "missing value of --db" --db
usage_case "unknown option of search" --db s.db search --bogus defend
usage_case "unknown short option of tags" --db s.db tags -z
usage_case "unknown option of import" --db s.db import --bogus "$SEED_SPEED"
usage_case "unknown option of parse" parse --bogus "$SEED_SPEED"
usage_case "unknown option of show" --db s.db show --bogus 1
usage_case "unknown option of stats" --db s.db stats --bogus
usage_case "unknown option of tags" --db s.db tags --bogus
usage_case "unknown option of changed" --db s.db changed --bogus
usage_case "missing value of search --tag" --db s.db search --tag
usage_case "missing value of search --limit" --db s.db search defend --limit
usage_case "missing value of search --category" --db s.db search --category
usage_case "missing value of changed --tag" --db s.db changed --tag
usage_case "missing value of import --game" --db s.db import --game
usage_case "missing value of show --format" --db s.db show 1 --format
usage_case "missing value of stats --format" --db s.db stats --format
usage_case "show without ID" --db s.db show
usage_case "show abc" --db s.db show abc
usage_case "show 1.5x!" --db s.db show '1.5x!'
usage_case "show #1.5" --db s.db show '#1.5'
usage_case "bad search --format" --db s.db search defend --format xml
usage_case "bad show --format" --db s.db show 1 --format yaml
usage_case "bad stats --format" --db s.db stats --format ndjson
usage_case "bad tags --format" --db s.db tags --format csv
usage_case "bad changed --format" --db s.db changed --format xml
usage_case "bad search --kind" --db s.db search --kind ruling
usage_case "bad changed --kind" --db s.db changed --kind nonsense
usage_case "bad --limit (letters)" --db s.db search defend --limit abc
usage_case "bad --limit (negative)" --db s.db search defend --limit -1
usage_case "bad --limit (trailing junk)" --db s.db search defend --limit 5x
usage_case "bad --limit (empty)" --db s.db search defend --limit ''
usage_case "search with neither words nor filters" --db s.db search
usage_case "search '' (an empty word)" --db s.db search ''
usage_case "search with blank words" --db s.db search ' ' $'\t\n'
usage_case "stats with an operand" --db s.db stats extra
usage_case "tags with an operand" --db s.db tags extra
usage_case "import without paths" --db s.db import
usage_case "import --lang that is not a code" --db s.db import --lang English "$SEED_SPEED"
usage_case "import --format unknown" --db s.db import --format pdf "$SEED_SPEED"
usage_case "parse without a file" parse

rl --db s.db frobnicate
check_err_contains "an unknown command is named" "frobnicate"
rl --db s.db search --limit abc defend
check_err_contains "a bad --limit value is named" "abc"
check_err_contains "usage errors point to --help" "--help"

# A usage error must not touch the database: nothing is imported.
rl --db untouched.db import --bogus "$SEED_SPEED"
rl --db untouched.db search --lang any
check_exit "a rejected import (unknown option) imports nothing" 1 74

# ---- help -------------------------------------------------------------------------
rl --help
check_exit "rulings --help exits 0" 0
check_match "rulings --help prints the usage" '^usage: rulings' "$(cat "$OUT")"
check_out_contains "rulings --help lists the commands" "search"
check_err_empty "rulings --help prints nothing on stderr"
rl -h
check_exit "rulings -h exits 0" 0
for cmd in import parse search show tags stats changed; do
	rl "$cmd" --help
	check_exit "rulings $cmd --help exits 0" 0
	check_match "rulings $cmd --help prints its usage" "^usage: rulings .*$cmd" "$(cat "$OUT")"
done
# --help needs no database and works beside other arguments.
rl --db "$T/no/such/dir/x.db" search --help
check_exit "search --help needs no database" 0
rl search --tag Defend --help
check_exit "search --tag X --help still shows help" 0
rl --version
check_exit "rulings --version exits 0" 0
check_match "rulings --version prints the version" '^rulings [0-9]+\.[0-9]+' "$(cat "$OUT")"

# ---- found (0) and nothing found (1) ------------------------------------------------
rl --db s.db show 99999
check_exit "show 99999 exits 1" 1
rl --db s.db search zzyzzyva
check_exit "search with no match exits 1" 1
rl --db s.db search defend
check_exit "search with matches exits 0" 0
rl --db s.db search '' --tag Defend
check_exit "search '' --tag T: the filter alone, exit 0" 0
rl --db s.db stats
check_exit "stats exits 0" 0

# ---- write failures on standard output ---------------------------------------------
write_case() {
	local desc=$1 how=$2
	shift 2
	if [ "$how" = closed ]; then
		"$RULINGS" "$@" >&- 2>"$ERR"
	else
		"$RULINGS" "$@" >/dev/full 2>"$ERR"
	fi
	STATUS=$?
	check_exit "$desc: exit 74" 74
	check_err_contains "$desc: 'write failure on standard output'" \
		"write failure on standard output"
}
write_case "stats >&-" closed --db s.db stats
write_case "stats >/dev/full" full --db s.db stats
write_case "stats --format json >/dev/full" full --db s.db stats --format json
write_case "search >&-" closed --db s.db search defend
write_case "search --limit 0 --format json >/dev/full" full --db s.db search --tag Defend --limit 0 --format json
write_case "search --format ndjson >/dev/full" full --db s.db search --tag Defend --format ndjson
write_case "show >&-" closed --db s.db show 1
write_case "tags >/dev/full" full --db s.db tags
write_case "changed >/dev/full" full --db s.db changed
write_case "--help >/dev/full" full --help
write_case "parse >/dev/full" full parse "$SEED_SPEED"
write_case "import >/dev/full" full --db full.db import "$SEED_SPEED"

# A closed stdout must not end up as the database's file descriptor.
"$RULINGS" --db s.db stats >&- 2>/dev/null
rl --db s.db stats --format json
check_json "the database is intact after writing to a closed stdout" 'd["rulings"] == 35'

# Output into a pipe whose reader has gone (closed before rulings starts,
# so no race): SIGPIPE, no message (the manual's EXIT STATUS).
check_eq "output into a closed pipe ends by SIGPIPE, silently" "-13 ''" \
	"$(python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
print(p.returncode, repr(p.stderr.decode()))' "$RULINGS" --db s.db search Defend)"

finish
