#!/usr/bin/env bash
# Where the database is: --db, $RULINGS_DB, $XDG_DATA_HOME, ~/.local/share;
# a missing database; a database locked by another writer.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# count_in DB: prints the number of rulings (or "none").
count_in() {
	"$RULINGS" --db "$1" stats --format json 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["rulings"])' 2>/dev/null ||
		echo none
}

# ---- XDG_DATA_HOME: created on first import, with its directories -------------------
export XDG_DATA_HOME=$T/xdg/deeper/data
rl stats
check_exit "a read command on a missing database exits 74" 74
check_err_contains "the message says there is no database" "no database"
check_err_contains "the message names the path" "$XDG_DATA_HOME/rulings/rulings.db"
check_eq "the message is one clear line" 1 "$(wc -l < "$ERR")"
check_out_empty "nothing on stdout for a missing database"
check_eq "a read command does not create the database" no \
	"$([ -e "$XDG_DATA_HOME/rulings/rulings.db" ] && echo yes || echo no)"
for cmd in "search defend" "show 1" "tags" "changed"; do
	# shellcheck disable=SC2086
	rl $cmd
	check_exit "'$cmd' on a missing database exits 74" 74
done

rl import --quiet "$SEED_SPEED"
check_exit "the first import creates the database" 0
check_eq "it is created under \$XDG_DATA_HOME/rulings, directories included" yes \
	"$([ -f "$XDG_DATA_HOME/rulings/rulings.db" ] && echo yes || echo no)"
check_eq "it holds the imported rulings" 18 "$(count_in "$XDG_DATA_HOME/rulings/rulings.db")"
rl stats --format json
check_json "read commands then use it" 'd["rulings"] == 18'
check_eq "nothing is written under HOME" "" "$(find "$HOME" -mindepth 1 2>/dev/null)"

# ---- RULINGS_DB wins over XDG_DATA_HOME ---------------------------------------------------
export RULINGS_DB=$T/env/sub/env.db
rl stats
check_exit "RULINGS_DB to a missing file: a read exits 74" 74
check_err_contains "...naming that file" "$RULINGS_DB"
rl import --quiet "$SEED_DEFEND"
check_exit "import with RULINGS_DB succeeds" 0
check_eq "RULINGS_DB is created with its directories" 17 "$(count_in "$RULINGS_DB")"
check_eq "the XDG database is untouched" 18 "$(count_in "$XDG_DATA_HOME/rulings/rulings.db")"
rl stats --format json
check_json "read commands use RULINGS_DB" 'd["rulings"] == 17'

# ---- --db wins over both ----------------------------------------------------------------
rl --db "$T/opt/o.db" import --quiet "$SEED_SPEED" "$SEED_DEFEND"
check_exit "import with --db succeeds" 0
check_eq "--db is created with its directories" 35 "$(count_in "$T/opt/o.db")"
check_eq "RULINGS_DB is untouched by --db" 17 "$(count_in "$RULINGS_DB")"
rl --db "$T/opt/o.db" stats --format json
check_json "read commands use --db" 'd["rulings"] == 35'
rl --db "$T/opt/missing.db" search defend
check_exit "--db to a missing file: a read exits 74" 74
check_err_contains "...naming that file" "$T/opt/missing.db"
rl --db relative.db import --quiet "$SEED_SPEED"
check_exit "a relative --db path works" 0
check_eq "a relative --db is relative to the working directory" 18 "$(count_in "$T/relative.db")"

# An empty RULINGS_DB is as if unset.
RULINGS_DB='' rl stats --format json
check_json "an empty RULINGS_DB falls back to XDG_DATA_HOME" 'd["rulings"] == 18'
unset RULINGS_DB

# ---- HOME when XDG_DATA_HOME is unset or empty ----------------------------------------
unset XDG_DATA_HOME
rl stats
check_exit "no XDG_DATA_HOME, no database under HOME: exit 74" 74
check_err_contains "...naming ~/.local/share/rulings/rulings.db" \
	"$HOME/.local/share/rulings/rulings.db"
rl import --quiet "$SEED_DEFEND"
check_exit "import without XDG_DATA_HOME succeeds" 0
check_eq "the database is ~/.local/share/rulings/rulings.db" 17 \
	"$(count_in "$HOME/.local/share/rulings/rulings.db")"
XDG_DATA_HOME='' rl stats --format json
check_json "an empty XDG_DATA_HOME falls back to HOME" 'd["rulings"] == 17'

# Neither: a clear error, no crash.
env -u HOME -u XDG_DATA_HOME -u RULINGS_DB "$RULINGS" stats >"$OUT" 2>"$ERR"
STATUS=$?
check_exit "no --db, RULINGS_DB, XDG_DATA_HOME or HOME: a clean error" 2 74
check_match "...with a message" '^rulings: ' "$(cat "$ERR")"
export XDG_DATA_HOME=$T/xdg/deeper/data

# ---- a path that cannot be a database ---------------------------------------------------
mkdir -p "$T/adir"
rl --db "$T/adir" stats
check_exit "a directory as the database: an I/O error" 74
printf 'this is not a database, just text that is long enough to fill a page header.%.0s\n' \
	$(seq 1 20) > "$T/notdb.db"
rl --db "$T/notdb.db" stats
check_exit "a file that is not a database: exit 65 or 74" 65 74
check_match "...with a message" '^rulings: ' "$(cat "$ERR")"

# ---- a database locked by another writer: exit 75 -------------------------------------
LOCKED=$T/locked.db
rl --db "$LOCKED" import --quiet --no-thesaurus "$SEED_SPEED"
check_exit "the database to lock is created" 0

mkfifo "$T/lock.fifo"
sqlite3 "$LOCKED" < "$T/lock.fifo" > "$T/lock.out" 2>&1 &
lock_pid=$!
add_bg_pid "$lock_pid"
exec 9> "$T/lock.fifo"
echo "BEGIN IMMEDIATE; INSERT INTO games (name) VALUES ('lock holder');" >&9
# Wait until the lock is taken: a second writer then fails at once.
locked=no
for _ in $(seq 1 100); do
	if ! sqlite3 "$LOCKED" 'BEGIN IMMEDIATE; ROLLBACK;' >/dev/null 2>&1; then
		locked=yes
		break
	fi
	sleep 0.1
done
check_eq "another process holds the write lock" yes "$locked"

start=$(date +%s)
rl --db "$LOCKED" import "$SEED_DEFEND"
elapsed=$(( $(date +%s) - start ))
check_exit "import into a locked database exits 75" 75
check_match "...with a message about the lock" '^rulings: .*(locked|busy)' "$(cat "$ERR")"
check_eq "...on one line" 1 "$(wc -l < "$ERR")"
check_eq "...after waiting (busy timeout), but not forever" yes \
	"$([ "$elapsed" -ge 3 ] && [ "$elapsed" -le 20 ] && echo yes || echo no)"

rl --db "$LOCKED" stats --format json
check_exit "readers are not blocked by the writer" 0
check_json "...and see the committed state" 'd["rulings"] == 18'

# Release the lock (the holder rolls back) and try again.
echo "ROLLBACK;" >&9
exec 9>&-
wait "$lock_pid"
rl --db "$LOCKED" import --quiet "$SEED_DEFEND"
check_exit "once the lock is released the import succeeds" 0
rl --db "$LOCKED" stats --format json
check_json "...and nothing of the failed attempt was left behind" \
	'd["rulings"] == 35 and d["games"] == [{"name": "Spirit Island", "rulings": 35}]'

# ---- a reader holds the database open while an import writes ---------------------------
# SQLite copies the write-ahead log into the database file when its last
# connection closes; a reader still open (here the sqlite3 shell, idle
# between queries) kept the import's commits in the -wal file only, and a
# user who then copied the .db file alone lost them (after a bulk import:
# a malformed file). The import now checkpoints as it ends.
HELD=$T/held.db
rl --db "$HELD" import --quiet --no-thesaurus "$SEED_SPEED"
mkfifo "$T/held.fifo"
sqlite3 -readonly "$HELD" < "$T/held.fifo" > "$T/held.out" 2>&1 &
held_pid=$!
add_bg_pid "$held_pid"
exec 8> "$T/held.fifo"
echo "SELECT 'reading', count(*) FROM rulings;" >&8
for _ in $(seq 1 100); do
	grep -q reading "$T/held.out" && break
	sleep 0.1
done
rl --db "$HELD" import --quiet "$SEED_DEFEND"
check_exit "an import while a reader holds the database open" 0
cp "$HELD" "$T/held-copy.db"
check_eq "...leaves its commits in the .db file itself (a copy of it alone has them)" \
	"ok|35" "$(sqlite3 -readonly "$T/held-copy.db" \
		'PRAGMA quick_check; SELECT count(*) FROM rulings;' 2>&1 | paste -sd'|')"
check_eq "...and an empty write-ahead log" 0 "$(stat -c %s "$HELD-wal")"
echo "SELECT 'still', count(*) FROM rulings;" >&8
exec 8>&-
wait "$held_pid"
check_contains "...while the reader goes on (it sees the new state)" \
	"$(cat "$T/held.out")" "still|35"

# ---- a writer that comes between two documents of an import under way ------------------
# It held the lock longer than the import waited (a bulk group is 10 s, a
# newcomer waits 5), and the import first started gave up half-way with
# exit 75. An import under way now waits 12 times longer for each later
# lock: here 12 s against the 3 s the other writer holds it.
UW=$T/underway.db
faq_dir "$T/pages"
for i in $(seq 1 40); do
	sed "1s/.*/Speed $i/; s/Fast/Fast$i/g" "$SEED_SPEED" > "$T/pages/p$i.txt"
done
# The other writer (started first: a Python start can be slow) holds the
# write lock for 3 s as soon as the import's first document is in: it
# tries to take it without waiting, again and again, so that it gets it in
# the gap between two documents (a busy handler's sleeps let the import
# take it back each time). When it still comes only after the import's end
# (a loaded machine), the run says nothing: it is made again, up to 4 times.
underway() {
	rm -f "$UW" "$UW-wal" "$UW-shm" "$T/holder.ready"
	python3 - "$UW" "$T/holder.ready" > "$T/holder.out" 2>&1 <<'EOT' &
import sqlite3, sys, time
db, ready = sys.argv[1], sys.argv[2]
open(ready, "w").close()
end = time.time() + 120
n = 0
while n == 0 and time.time() < end:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            n = c.execute("SELECT count(*) FROM imports").fetchone()[0]
    except sqlite3.Error:
        pass
    time.sleep(0.002)
c = sqlite3.connect(db, timeout=0, isolation_level=None)
while time.time() < end:
    try:
        c.execute("BEGIN IMMEDIATE")
        break
    except sqlite3.OperationalError:
        pass
print("imports when locked|%d" % c.execute("SELECT count(*) FROM imports").fetchone()[0])
time.sleep(3)
c.execute("COMMIT")
EOT
	holder_pid=$!
	add_bg_pid "$holder_pid"
	for _ in $(seq 1 300); do
		[ -e "$T/holder.ready" ] && break
		sleep 0.1
	done
	RULINGS_BUSY_TIMEOUT=1000 "$RULINGS" --db "$UW" import --no-thesaurus "$T/pages" \
		> "$T/uw.out" 2> "$T/uw.err"
	echo "rc=$?" >> "$T/uw.err"
	wait "$holder_pid"
}
for attempt in 1 2 3 4; do
	underway
	grep -q '^imports when locked|40$' "$T/holder.out" || break
done
check_match "another writer took the lock in the middle of an import" \
	'^imports when locked\|([1-9]|[1-3][0-9])$' "$(cat "$T/holder.out")"
check_contains "...and the import under way waited for it and went on (exit 0)" \
	"$(tail -n 1 "$T/uw.err")" "rc=0"
check_contains "...to its end: every document imported" \
	"$(cat "$T/uw.out")" "40 documents: 40 imported"

# A directory given as the database is said to be one (SQLite said "disk
# I/O error"), by readers and writers alike, and nothing is made in it
mkdir dbdir
rl --db dbdir search defend
check_exit "--db DIRECTORY: search exits 74" 74
check_err_contains "...saying it is a directory" "'dbdir' is a directory, not a database file"
rl --db dbdir import "$SEED_DEFEND"
check_exit "--db DIRECTORY: import exits 74" 74
check_err_contains "...saying it is a directory" "'dbdir' is a directory, not a database file"
check_eq "...and nothing is made in it" "" "$(ls -A dbdir)"

# A URI that opens the database read-only: a command that writes says so
# at once (each document said "attempt to write a readonly database")
for q in immutable=1 mode=ro; do
	rl --db "file:relative.db?$q" import "$SEED_DEFEND"
	check_exit "import into file:...?$q: exit 74" 74
	check_err_contains "...said once, plainly" "cannot write 'file:relative.db?$q': it is opened read-only"
done
rl --db relative.db stats --format json
check_json "...and nothing of it stored" 'd["rulings"] == 18'

finish
