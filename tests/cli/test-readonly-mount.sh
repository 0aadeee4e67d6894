#!/usr/bin/env bash
# Reading from a read-only mount (issue 11, point 2): a bind mount made
# read-only (the tests run as root, for whom file modes stop nothing)
# holding a working database in WAL mode and a published copy. Every
# reading command works on both, nothing appears on the mount, and a
# command that writes fails with exit 74. Skipped (77) where mounting is
# not permitted; the mount is always undone.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

if ! command -v sqlite3 >/dev/null; then
	echo "SKIP: no sqlite3 shell"
	exit 77
fi
mkdir -p src ro
seed_db src/work.db
rl --db src/work.db publish -o src/pub.db
# the working database as a writer leaves it: WAL mode, no -wal file
sqlite3 src/work.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
rm -f src/work.db-wal src/work.db-shm
if [ "$(sqlite3 src/work.db 'PRAGMA journal_mode')" != wal ]; then
	_fail "the working database is in WAL mode"
fi

# a copy of a database and its -wal file, which holds a commit, without
# the -shm file
python3 - src/work.db src/walcopy.db <<'EOT' || _fail "the copy with a -wal file is made"
import os, shutil, sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
shutil.copy(src, dst + ".tmp")
c = sqlite3.connect(dst + ".tmp", isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("INSERT INTO games (name) VALUES ('only in the wal')")
shutil.copy(dst + ".tmp", dst)
shutil.copy(dst + ".tmp-wal", dst + "-wal")
os._exit(0)
EOT
rm -f src/walcopy.db.tmp*

if ! mount --bind "$T/src" "$T/ro" 2>/dev/null; then
	echo "SKIP: mounting is not permitted here"
	exit 77
fi
unmount() {
	umount "$T/ro" 2>/dev/null || umount -l "$T/ro" 2>/dev/null
}
# lib.sh's cleanup removes $T: the mount goes first, whatever happens
trap 'st=$?; unmount; (exit $st); _cleanup' EXIT
if ! mount -o remount,bind,ro "$T/ro" 2>/dev/null; then
	echo "SKIP: a bind mount cannot be made read-only here"
	exit 77
fi
if touch "$T/ro/probe" 2>/dev/null; then
	rm -f "$T/ro/probe"
	_fail "the mount is read-only"
fi
before=$(cd ro && ls -a | sort | tr '\n' ' ')
sums=$(cd ro && sha256sum work.db pub.db walcopy.db walcopy.db-wal)

for db in work.db pub.db; do
	rl --db "ro/$db" search --tag Defend --format json
	check_exit "$db on a read-only mount: search" 0
	check_json "...finds the rulings" 'len(d["results"]) > 0'
	rl --db "ro/$db" search defended --format json
	check_exit "...full text" 0
	for cmd in "show 1" tags stats changed "history 1" xrefs check; do
		# shellcheck disable=SC2086
		rl --db "ro/$db" $cmd
		check_exit "...$cmd" 0 1
	done
	rl --db "ro/$db" export --tag Defend --format md -o "$T/$db.md"
	check_exit "...export" 0
	rl --db "ro/$db" publish -o "$T/again-$db"
	check_exit "...publish (to a writable place)" 0
	rl --db "ro/$db" import "$SEED_SPEED"
	check_exit "...import fails: the mount is read-only" 74
	check_err_contains "...saying so before it writes" \
		"cannot write 'ro/$db': Read-only file system"
	rl --db "ro/$db" import --dry-run "$SEED_SPEED"
	check_exit "...import --dry-run too (it rolls an import back)" 74
	check_err_contains "...saying so" "cannot write 'ro/$db'"
	rl --db "ro/$db" reindex
	check_exit "...reindex fails" 74
	check_err_contains "...saying so" "cannot write 'ro/$db'"
	rl --db "file:$T/ro/$db?immutable=1" stats --format json
	check_exit "...--db file:...?immutable=1" 0
done
# SQLite said "unable to open database file"
rl --db ro/walcopy.db stats
check_exit "a copy with its -wal file but not its -shm, on a read-only mount: exit 74" 74
check_err_contains "...saying what is missing and what to do" \
	"cannot read 'ro/walcopy.db': it has a -wal file (changes not yet in the database file) but no -shm file"
check_eq "nothing was written on the mount" "$before" \
	"$(cd ro && ls -a | sort | tr '\n' ' ')"
check_eq "...and the files are unchanged" "$sums" \
	"$(cd ro && sha256sum work.db pub.db walcopy.db walcopy.db-wal)"

unmount
trap _cleanup EXIT
finish
