#!/usr/bin/env bash
# faults.sh RULINGS DBCHECK — allocation and write failure loops over an
# import and a search (needs a build with -Dfault_injection=true; see
# src/cli/fault.c and tests/README.md).
#
# Each loop runs the same command with RULINGS_FAIL_ALLOC=N (or
# RULINGS_FAIL_WRITE=N) for N = 1, 2, ... until a run ends without meeting
# its failure (K, printed: the allocations or writes the command makes).
# The loops: import-new imports every document in data/ into a new
# database (one transaction each; a failed one leaves the others imported),
# import-more one document into a database holding another, search runs a
# search, changed lists the changes between two versions of a document as
# JSON (each change's ruling read as it stands: the output is whole or the
# run fails), parse/FORMAT parses the sample of each format of
# importers/formats.def with --format FORMAT (no database; its output must
# be the normal one when it succeeds), detect/FORMAT the same without
# --format (every format's probe reads it). Every run that meets its failure
# must
#   - exit with status 70 (out of memory / internal) or 74 (i/o), after a
#     message of its own, or 0 with the normal result when SQLite copes
#     with the failure itself; not crash, not leak (under ASan+LSan a leak
#     or a memory error is a different exit status), not hang;
#   - leave the database passing PRAGMA integrity_check and the full-text
#     indexes' integrity-check, holding exactly the state before the
#     command or after it; for import-new, exactly the state that importing
#     the documents it holds (and only those) gives: each document is
#     imported whole or not at all.
# The run that does not meet its failure must succeed as a normal run does.
#
# Cost: every N up to FAULTS_DENSE (default 200), then N grows by
# FAULTS_STEP percent (default 3) a step: about 350 runs for an import of
# 30,000 allocations. FAULTS_DENSE=1000000 walks every N (slow).
# FAULTS_ONLY=NAME runs one kind of loop (import-new, import-more, search,
# changed, parse, detect) or one loop (import-new/write,
# parse/xml-interchange). FAULTS_DBCHECK=PATH: the checker to use instead of
# DBCHECK (one of another build of the same source: tests/run-all gives the
# sanitizer build's loops the normal build's, a cheaper process to start).
# FAULTS_PERSIST=1: every allocation from the N-th on fails, not only the
# N-th; FAULTS_FULL=1: failed writes are SQLITE_FULL (disk full).
#
# The runs of a loop are made by a fork server (RULINGS_FAULT_SERVER=1,
# src/cli/fault.c): rulings starts once a loop, with the loop's command
# line and environment, and forks a child for each N, in which nothing of
# rulings ran before the failure is set: the same allocations and writes
# are counted as in a new process (the same K), LeakSanitizer checks each
# child at its exit, a crash is the child's signal (status 128 + it), a
# hang is killed after 120 s (SIGALRM, 142). Under ASan a process start is
# most of a run's CPU; the server saves it. FAULTS_SERVER=0: one process a
# run instead (as before; `timeout 120`, a hang 124).
set -u
RULINGS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DBCHECK=${FAULTS_DBCHECK:-$2}
DBCHECK=$(cd "$(dirname "$DBCHECK")" && pwd)/$(basename "$DBCHECK")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=$ROOT/data
DENSE=${FAULTS_DENSE:-200}
STEP=${FAULTS_STEP:-3}
ONLY=${FAULTS_ONLY:-}
SERVER=${FAULTS_SERVER:-1}

T=$(mktemp -d "${TMPDIR:-/tmp}/rulings-faults.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
export LC_ALL=C.UTF-8 HOME=$T XDG_DATA_HOME=$T/xdg
# libxml2's own leaks under allocation failure, by name (see the file; the
# names are in the stacks of the XML formats' loop, below)
export LSAN_OPTIONS=suppressions=$ROOT/tests/faults/lsan-libxml2.supp:print_suppressions=0
unset RULINGS_DB RULINGS_FAIL_ALLOC RULINGS_FAIL_WRITE \
	RULINGS_FAIL_ALLOC_PERSIST RULINGS_FAIL_WRITE_FULL RULINGS_FAULT_SERVER
extra=()
[ "${FAULTS_PERSIST:-}" = 1 ] && extra+=(RULINGS_FAIL_ALLOC_PERSIST=1)
[ "${FAULTS_FULL:-}" = 1 ] && extra+=(RULINGS_FAIL_WRITE_FULL=1)
failed=0

doc_a=$DATA/001_8e68847c21c72d28.txt    # faq-tags, the database's before
doc_b=$DATA/000_033b5c31b01b6f02.txt    # faq-tags, the document imported

state() {   # state DB OUTFILE: the checked content; non-zero when broken
	if [ ! -e "$1" ]; then
		: >"$2"
		return 0
	fi
	# the checker is a test tool, not rulings: no leak check at its exit
	# (LeakSanitizer's scan costs each ASan process ~0.1 s of CPU, and
	# the loops run the checker after every run)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$DBCHECK" "$1" >"$2" 2>"$T/check.err"
}

# Reference states.
"$RULINGS" --db before.db import --quiet "$doc_a" >/dev/null || exit 2
cp before.db more-after.db
"$RULINGS" --db more-after.db import --quiet "$doc_b" >/dev/null || exit 2
"$RULINGS" --db new-after.db import --quiet "$DATA" >/dev/null || exit 2
state before.db before.state || { cat "$T/check.err"; exit 2; }
state more-after.db more-after.state || { cat "$T/check.err"; exit 2; }
state new-after.db new-after.state || { cat "$T/check.err"; exit 2; }
: >empty.state
"$RULINGS" --db before.db search --format json defend >search.out || exit 2
# two versions of doc_a: one answer edited
sed 's/Effects of innate powers are cumulative/Effects of innate powers always stack/' \
	"$doc_a" >doc_a2.txt
cp before.db changed.db
sleep 1.1    # imports are stamped to the second
"$RULINGS" --db changed.db import --quiet --game "Spirit Island" --document Defend doc_a2.txt \
	>/dev/null || exit 2
state changed.db changed.state || { cat "$T/check.err"; exit 2; }
"$RULINGS" --db changed.db changed --format json >changed.out || exit 2

# subset_state STATE: sets want to the state that importing just the
# documents STATE holds gives, in the order they were imported (their ids
# follow it; the shipped thesaurus a new database starts with is among them
# when it is there), made once per set (subset-I.state, I the set's number
# in subsets: no md5sum, cut or subshell a run).
declare -A subsets=()
subset_state() {
	local paths
	paths=$(awk -F'|' '$1 == "imports" && !seen[$4]++ { print $4 }' "$1")
	if [ -z "$paths" ]; then
		want=empty.state
		return
	fi
	want=${subsets[$paths]:-}
	if [ -z "$want" ]; then
		want=subset-${#subsets[@]}.state
		subsets[$paths]=$want
	fi
	if [ ! -f "$want" ]; then
		rm -f subset.db
		local files=()
		mapfile -t files <<<"$paths"
		"$RULINGS" --db subset.db import --quiet --no-thesaurus "${files[@]}" \
			>/dev/null 2>&1 &&
			state subset.db "$want"
	fi
}

# The checks of standard error, with bash's builtins (a grep process cost
# ~15 ms of CPU on this machine; the three a run were a third of a forked
# run's CPU):
# injected ERR: a line of ERR tells of an injected failure
injected() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in 'rulings: fault injection: '*) return 0 ;; esac
	done <"$1"
	return 1
}
# has_message ERR: a line of ERR is a message of rulings of its own (not
# the injection's, not a warning)
has_message() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in
		'rulings: fault injection: '* | *': warning: '*) ;;
		'rulings: '*) return 0 ;;
		esac
	done <"$1"
	return 1
}

# snippet_only OUT EXPECT: the two differ only in "snippet" lines of a
# search's JSON. FTS5's snippet() of SQLite 3.40 loses the failure of
# its first allocation (a byte per phrase: the next call's result
# replaces the error) and answers the text's start; the loss of its
# count of instances the search itself catches (rl_insts, src/search.c).
# Any other line that differs is ours.
snippet_only() {
	[ "$(wc -l <"$1")" = "$(wc -l <"$2")" ] &&
		diff <(grep -v '^ *"snippet": ' "$1") \
		     <(grep -v '^ *"snippet": ' "$2") >/dev/null
}

bad() {
	failed=$((failed + 1))
	echo "FAIL - $*"
	sed 's/^/    stderr: /' err | head -n 30
}

# loop NAME VAR SETUP DB BEFORE AFTER CMD...: the failure loop of one
# command; SETUP makes the database it runs on.
loop() {
	local name=$1 var=$2 setup=$3 db=$4 before=$5 after=$6
	shift 6
	[ -n "$ONLY" ] && [ "$ONLY" != "${name%%/*}" ] && [ "$ONLY" != "$name" ] &&
		return 0
	local n=1 runs=0 bad_before=$failed st want expect=
	# the output of a reader must be the normal one when it succeeds
	case $db in
	sdb) expect=search.out ;;
	cdb) expect=changed.out ;;
	esac
	declare -A seen=()
	local kind=alloc srv_in= srv_out= srv_pid=
	[ "$var" = RULINGS_FAIL_WRITE ] && kind=write
	if [ "$SERVER" = 1 ]; then
		coproc SRV { exec env "${extra[@]}" RULINGS_FAULT_SERVER=1 "$@"; }
		srv_in=${SRV[1]} srv_out=${SRV[0]} srv_pid=$SRV_PID
	fi
	while :; do
		$setup
		if [ "$SERVER" = 1 ]; then
			# the request: the failure, the files of the child's
			# standard output and error; the answer: its status
			printf '%s %s out err\n' "$kind" "$n" >&"$srv_in"
			if ! read -r st <&"$srv_out"; then
				bad "$name N=$n: the fault server ended"
				break
			fi
		else
			env "${extra[@]}" "$var=$n" timeout 120 "$@" >out 2>err
			st=$?
		fi
		runs=$((runs + 1))
		if ! injected err; then
			# ran to the end without meeting failure N: K = N - 1
			if [ "$st" != 0 ]; then
				bad "$name N=$n: status $st without an injected failure"
			elif [ -n "$expect" ]; then
				cmp -s out "$expect" ||
					bad "$name N=$n: output differs from a normal run"
			elif [ "$db" = - ]; then
				cmp -s out "$after" ||
					bad "$name N=$n: output differs from a normal run"
			fi
			echo "ok - $name: K=$((n - 1)) ($runs runs; statuses:" \
			     "${!seen[*]})"
			break
		fi
		seen[$st]=1
		case $st in
		0)	# SQLite copes with some failed allocations (benign
			# ones: a cache that does not grow); then the result
			# must be the normal one
			if [ "$db" = - ] && ! cmp -s out "$after"; then
				bad "$name N=$n: succeeded with a different output"
			elif [ -n "$expect" ] && ! cmp -s out "$expect" &&
			     ! snippet_only out "$expect"; then
				bad "$name N=$n: succeeded with a different output"
			elif [ "$db" = db ] && { ! state db now.state ||
			     ! cmp -s now.state "${after/#subset/new-after.state}"; }; then
				bad "$name N=$n: succeeded but did not import"
			fi ;;
		70|74)
			has_message err || bad "$name N=$n: no error message" ;;
		*) bad "$name N=$n: exit status $st (expected 0, 70 or 74)" ;;
		esac
		# the database: checked once (dbcheck), then compared
		if [ "$db" = - ]; then
			:   # no database
		elif ! state "$db" now.state; then
			bad "$name N=$n: the database is damaged:" \
			    "$(head -c 400 "$T/check.err")"
		elif ! cmp -s now.state "$before"; then
			want=$after
			[ "$after" = subset ] && subset_state now.state
			cmp -s now.state "$want" ||
				bad "$name N=$n: the database holds neither the state" \
				    "before nor after: $(diff "$before" now.state | head -n 5)"
		fi
		if [ "$failed" -gt $((bad_before + 5)) ]; then
			echo "FAIL - $name: stopped after 5 failures"
			break
		fi
		if [ "$n" -lt "$DENSE" ]; then
			n=$((n + 1))
		else
			n=$((n + (n * STEP + 99) / 100))
		fi
	done
	if [ -n "$srv_pid" ]; then
		eval "exec $srv_in>&- $srv_out<&-"
		wait "$srv_pid" 2>/dev/null
	fi
}

setup_new() { rm -rf db; }
setup_more() { cp before.db db; }   # (cp overwrites: no rm process)
setup_search() { :; }
setup_changed() { :; }

for v in alloc write; do
	var=RULINGS_FAIL_$(echo $v | tr a-z A-Z)
	loop import-new/$v "$var" setup_new db empty.state subset \
		"$RULINGS" --db db import --quiet "$DATA"
	loop import-more/$v "$var" setup_more db before.state more-after.state \
		"$RULINGS" --db db import --quiet "$doc_b"
	cp before.db sdb
	loop search/$v "$var" setup_search sdb before.state before.state \
		"$RULINGS" --db sdb search --format json defend
	cp changed.db cdb
	loop changed/$v "$var" setup_changed cdb changed.state changed.state \
		"$RULINGS" --db cdb changed --format json
done

# The sample of each format (importers/formats.def), parsed without a
# database.
formats=$(sed -n 's/^FORMAT([a-z_]*, "\([a-z-]*\)", \([A-Z_]*\), "\([^"]*\)")$/\1 \2 \3/p' \
	"$ROOT/importers/formats.def")
[ -n "$formats" ] || { echo "no formats in importers/formats.def"; exit 2; }
mapfile -t formats <<<"$formats"
for f in "${formats[@]}"; do
	read -r format syntax sample <<<"$f"
	sample=$ROOT/$sample
	"$RULINGS" parse --format "$format" "$sample" >"parse-$format.out" \
		2>/dev/null || exit 2
	# libxml2 has no frame pointers: ASan's fast unwinder stops at its
	# first frame, and the suppressions name functions further up
	slow=()
	[ "$syntax" = RL_SYNTAX_XML ] &&
		slow=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0")
	loop "parse/$format" RULINGS_FAIL_ALLOC setup_search - - \
		"parse-$format.out" "${slow[@]}" "$RULINGS" parse --format "$format" "$sample"
done

# The same samples without --format: the format detected, every format's
# probe reading each (a probe out of memory says so; the rules-summary
# probe read its list of paragraphs after freeing it, a crash).
for f in "${formats[@]}"; do
	read -r format syntax sample <<<"$f"
	sample=$ROOT/$sample
	"$RULINGS" parse "$sample" >"detect-$format.out" 2>/dev/null || exit 2
	slow=()
	[ "$syntax" = RL_SYNTAX_XML ] &&
		slow=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0")
	loop "detect/$format" RULINGS_FAIL_ALLOC setup_search - - \
		"detect-$format.out" "${slow[@]}" "$RULINGS" parse "$sample"
done

echo "$failed failed"
[ "$failed" = 0 ]
