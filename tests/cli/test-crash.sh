#!/usr/bin/env bash
# Crash safety and concurrency (issue 7):
#   - `rulings import` killed with SIGKILL at random moments, at least 50
#     times, across a load of many documents: after every kill the database
#     passes PRAGMA integrity_check, and every document in it is whole (as
#     many rulings as a clean import of it gives, and its import recorded)
#     or absent; the next run goes on from there;
#   - readers during an import always answer, and each answer counts whole
#     documents only;
#   - a writer that cannot get the lock exits 75 after RULINGS_BUSY_TIMEOUT
#     milliseconds, with a clear message; readers go on meanwhile.
# Under AddressSanitizer (`rulings --version` says so) the load is
# smaller, so that the test stays well under a minute there too.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

if ! command -v sqlite3 >/dev/null; then
	echo "SKIP: no sqlite3 shell to check the database with"
	exit 77
fi

ndocs=24 nentries=50
if sanitized; then
	ndocs=16 nentries=30
fi
KILLS=50

# ---- the load: ndocs FAQ tag pages of nentries distinct entries ----------
python3 - "$T/docs" "$ndocs" "$nentries" <<'PY'
import os, random, sys
out, ndocs, nent = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out)
words = ("defend ravage land dahan power fast slow invader blight presence "
         "spirit energy card element fear terror explore build").split()
for d in range(ndocs):
    r = random.Random(d)
    lines = ["Crash Page %02d" % d, "", "Frequently Asked Questions", "",
             "Category %d" % d, ""]
    for e in range(nent):
        lines.append("\u2022 Does rule %d of page %d hold when %s?"
                     % (e, d, " ".join(r.choice(words) for _ in range(6))))
        for _ in range(3):
            lines.append("  " + " ".join(r.choice(words) for _ in range(40)) + ".")
            lines.append("")
        lines.append("  Tags: Crash Page %02d, Topic %d" % (d, e % 7))
    with open(os.path.join(out, "page-%02d.txt" % d), "w") as f:
        f.write("\n".join(lines) + "\n")
with open(os.path.join(out, ".rulings"), "w") as f:   # they name no game
    f.write("game = Crash\n")
PY

# The reference: a clean import, and what each document holds.
t0=$(date +%s%N)
rl --db ref.db import --quiet docs
t1=$(date +%s%N)
check_exit "a clean import of $ndocs documents" 0
full_ms=$(( (t1 - t0) / 1000000 ))
echo "# a clean import of $ndocs documents took $full_ms ms"
# (the shipped thesaurus, which a new database starts with, holds no
# rulings and is no part of the load)
per_doc='SELECT d.title, count(s.ruling_id) FROM documents d
	LEFT JOIN ruling_sources s ON s.document_id = d.id
	WHERE d.format <> '"'thesaurus'"' GROUP BY d.id ORDER BY d.title'
sqlite3 ref.db "$per_doc" >ref.counts
check_eq "...holds every document" "$ndocs" "$(wc -l <ref.counts)"
check_eq "...with all their entries" "$((ndocs * nentries))" \
	"$(sqlite3 ref.db 'SELECT count(*) FROM rulings')"

# check_whole DB: integrity, and every document in DB whole.
check_whole() {
	local db=$1 ic bad
	ic=$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)
	[ "$ic" = ok ] || { echo "integrity_check: $ic"; return 1; }
	# killed before the schema was made: then there is none at all
	if [ "$(sqlite3 "$db" "SELECT count(*) FROM sqlite_master
		WHERE name = 'documents'")" = 0 ]; then
		: >got.counts
		bad=$(sqlite3 "$db" 'PRAGMA user_version; SELECT count(*) FROM sqlite_master')
		[ "$bad" = "0
0" ] || { echo "a half-made schema: $bad"; return 1; }
		return 0
	fi
	# every document present has its import recorded and as many rulings
	# as in the reference
	bad=$(sqlite3 "$db" "SELECT title FROM documents d WHERE NOT EXISTS
		(SELECT 1 FROM imports i WHERE i.document_id = d.id)" 2>&1)
	[ -z "$bad" ] || { echo "documents without an import: $bad"; return 1; }
	sqlite3 "$db" "$per_doc" >got.counts 2>&1 || { cat got.counts; return 1; }
	bad=$(comm -23 got.counts ref.counts)
	[ -z "$bad" ] || { echo "half-imported documents: $bad"; return 1; }
	# nothing outside the documents: every ruling has a source
	bad=$(sqlite3 "$db" 'SELECT count(*) FROM rulings r WHERE NOT EXISTS
		(SELECT 1 FROM ruling_sources s WHERE s.ruling_id = r.id)')
	[ "$bad" = 0 ] || { echo "$bad rulings without a document"; return 1; }
	local docs rulings
	docs=$(wc -l <got.counts)
	rulings=$(sqlite3 "$db" 'SELECT count(*) FROM rulings')
	[ "$rulings" = $((docs * nentries)) ] ||
		{ echo "$rulings rulings for $docs documents"; return 1; }
	return 0
}

# ---- SIGKILL at random moments --------------------------------------------
# The database is kept from one kill to the next (each run recovers the
# last one's WAL and goes on) and started afresh once it is complete.
# kill_runs DB MAX-KILLS IMPORT-OPTION...: runs `import docs` into DB and
# kills it at a random moment until MAX-KILLS runs were killed (or three
# times as many ran), checking DB after each run; the counts are left in
# kills, attempts, finished, failures, partial and resets.
kill_runs() {
	local db=$1 max=$2 st msg delay_ms pid
	shift 2
	kills=0 attempts=0 finished=0 failures=0 resets=0 partial=0 n=0
	rm -f "$db" "$db-wal" "$db-shm"
	while [ "$kills" -lt "$max" ] && [ "$attempts" -lt $((max * 3)) ]; do
		attempts=$((attempts + 1))
		# a moment within the time a clean import of what is left takes
		delay_ms=$(( RANDOM % (full_ms * (ndocs - n) / ndocs + 20) ))
		"$RULINGS" --db "$db" import --quiet "$@" docs >kill.out 2>kill.err &
		pid=$!
		sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
		kill -KILL "$pid" 2>/dev/null
		{ wait "$pid"; } 2>/dev/null
		st=$?
		if [ "$st" = 137 ]; then
			kills=$((kills + 1))
		elif [ "$st" = 0 ]; then
			finished=$((finished + 1))
		else
			failures=$((failures + 1))
			echo "# import exited $st: $(head -c 300 kill.err)"
		fi
		if ! msg=$(check_whole "$db"); then
			_fail "after kill $kills (at $delay_ms ms): the database is whole" "$msg"
			break
		fi
		n=$(wc -l <got.counts)
		if [ "$n" -eq "$ndocs" ]; then
			rm -f "$db" "$db-wal" "$db-shm"
			resets=$((resets + 1))
			n=0
		elif [ "$n" -gt 0 ]; then
			partial=$((partial + 1))
		fi
	done
}

RANDOM=7
kill_runs k.db "$KILLS"
echo "# $attempts runs: $kills killed, $finished finished, $failures failed;" \
	"$partial left some documents in, $resets completed the load"
check_eq "at least $KILLS imports killed with SIGKILL" yes \
	"$([ "$kills" -ge "$KILLS" ] && echo yes || echo no)"
check_eq "...every one left an intact database of whole documents" yes \
	"$([ "$kills" -ge "$KILLS" ] && [ "$failures" = 0 ] && echo yes || echo no)"
check_eq "...some kills fell between documents (a partial load)" yes \
	"$([ "$partial" -gt 0 ] && echo yes || echo no)"
# What the kills left is importable: finishing the load gives the reference.
rl --db k.db import --quiet docs
check_exit "the load finishes after the kills" 0
check_whole k.db >/dev/null && n=$(wc -l <got.counts) || n=-1
check_eq "...with every document whole" "$ndocs" "$n"

# ---- SIGKILL during import --bulk ------------------------------------------
# Groups of documents share a transaction (committed every 0.05 s here):
# a kill loses the open group, never part of a document. The kills'
# moments are drawn within a clean bulk import's time: it is shorter than
# the one-by-one import's, and with that window most runs ended before
# their kill (17 kills in 60 runs once, on a loaded machine).
t0=$(date +%s%N)
rl --db bulk-ref.db import --quiet --bulk=0.05 docs
t1=$(date +%s%N)
check_exit "a clean bulk import" 0
full_ms=$(( (t1 - t0) / 1000000 ))
echo "# a clean bulk import of $ndocs documents took $full_ms ms"
kill_runs b.db 20 --bulk=0.05
echo "# --bulk: $attempts runs, $kills killed, $partial left some documents in"
check_eq "20 bulk imports killed, each leaving whole documents only" yes \
	"$([ "$kills" -ge 20 ] && [ "$failures" = 0 ] && echo yes || echo no)"
check_eq "...some kills kept the groups committed before them" yes \
	"$([ "$partial" -gt 0 ] && echo yes || echo no)"

# ---- readers during an import ----------------------------------------------
# Documents are imported in name order, so a reader may see any prefix of
# them: its count must be a sum of the first documents' counts.
prefix_sums=" 0"
sum=0
while read -r line; do
	sum=$((sum + ${line##*|}))
	prefix_sums="$prefix_sums $sum"
done <ref.counts
prefix_sums="$prefix_sums "

rm -f r.db r.db-wal r.db-shm
rl --db r.db import --quiet "$T/docs/page-00.txt"
check_exit "the reader's database starts with one document" 0
"$RULINGS" --db r.db import --quiet docs >import.out 2>import.err &
writer=$!
add_bg_pid "$writer"
reads=0 bad_reads=0 searches=0 seen_counts=" "
while kill -0 "$writer" 2>/dev/null; do
	if ! "$RULINGS" --db r.db stats --format json >stats.out 2>stats.err; then
		bad_reads=$((bad_reads + 1))
		echo "# stats failed: $(head -c 300 stats.err)"
		continue
	fi
	# the top-level count (each game in "games" has a "rulings" too)
	n=$(sed -n 's/^  "rulings": \([0-9]*\),*$/\1/p' stats.out)
	reads=$((reads + 1))
	case $prefix_sums in
	*" $n "*) seen_counts="$seen_counts$n " ;;
	*) bad_reads=$((bad_reads + 1)); echo "# stats counted $n rulings: not whole documents" ;;
	esac
	"$RULINGS" --db r.db search --limit 3 dahan >search.out 2>search.err
	st=$?
	searches=$((searches + 1))
	if [ "$st" != 0 ] || [ -s search.err ]; then
		bad_reads=$((bad_reads + 1))
		echo "# search exited $st: $(head -c 300 search.err)"
	fi
done
wait "$writer"
check_eq "the import under readers succeeds" 0 "$?"
distinct=$(printf '%s\n' $seen_counts | sort -u | wc -l)
echo "# $reads stats and $searches searches during the import; $distinct distinct counts"
check_eq "every read during the import answered, with whole documents" 0 "$bad_reads"
check_eq "...and the readers saw the import progress" yes \
	"$([ "$reads" -ge 2 ] && echo yes || echo no)"

# ---- a writer that cannot get the lock -------------------------------------
mkfifo hold.fifo
# shellcheck disable=SC2016
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
c.execute("INSERT INTO games (name) VALUES (\"lock holder\")")
print("locked", flush=True)
sys.stdin.read()          # until the test closes the pipe
c.execute("ROLLBACK")
' r.db <hold.fifo >hold.out 2>&1 &
holder=$!
add_bg_pid "$holder"
exec 8>hold.fifo
for _ in $(seq 1 100); do
	grep -q locked hold.out 2>/dev/null && break
	sleep 0.05
done
check_eq "another process holds the write lock" locked "$(cat hold.out)"

cp "$T/docs/page-00.txt" "$T/another.txt"
sed -i 's/^Crash Page 00$/Crash Page Extra/' "$T/another.txt"
t0=$(date +%s%N)
RULINGS_BUSY_TIMEOUT=400 rl --db r.db import another.txt
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check_exit "a writer that cannot get the lock exits 75" 75
check_match "...saying the database is locked and how long it waited" \
	'^rulings: .*locked by another process.*400 ms' "$(cat "$ERR")"
check_eq "...after waiting RULINGS_BUSY_TIMEOUT (400 ms), not 5 s ($ms ms)" yes \
	"$([ "$ms" -ge 400 ] && [ "$ms" -lt 3000 ] && echo yes || echo no)"
RULINGS_BUSY_TIMEOUT=0 rl --db r.db import another.txt
check_exit "RULINGS_BUSY_TIMEOUT=0: exits 75 at once" 75
RULINGS_BUSY_TIMEOUT=soon rl --db r.db import another.txt
check_exit "RULINGS_BUSY_TIMEOUT that is no number: usage error" 2
check_err_contains "...naming the variable" "RULINGS_BUSY_TIMEOUT"
RULINGS_BUSY_TIMEOUT=400 rl --db r.db stats --format json
check_exit "readers answer while the lock is held" 0
check_json "...with the committed state" "d['rulings'] == $((ndocs * nentries))"
exec 8>&-
wait "$holder"
RULINGS_BUSY_TIMEOUT=400 rl --db r.db import --quiet another.txt
check_exit "once the lock is released the import goes through" 0
check_eq "...and the database is whole" ok "$(sqlite3 r.db 'PRAGMA integrity_check')"

finish
