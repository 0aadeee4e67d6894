#!/usr/bin/env bash
# rulings publish -o FILE (issue 11, point 3): a compacted, self-contained
# copy (VACUUM INTO, journal_mode=DELETE, one segment per full-text index)
# that reads like the database; written whole; replacing only a rulings
# database; following a symbolic link; reading the database only.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

if ! command -v sqlite3 >/dev/null; then
	echo "SKIP: no sqlite3 shell to look at the copies with"
	exit 77
fi

# A database with history: three versions of a page, so that the working
# file has free pages and several index segments.
seed_db w.db
cp "$SEED_SPEED" speed.txt
for i in 1 2 3; do
	sed -i "s/^  No\\. /  No ($i). /" speed.txt
	printf '\xe2\x80\xa2 Version %s question?\n  Answer %s.\n  Tags: Repeat\n' \
		"$i" "$i" >>speed.txt
	rl --db w.db import --quiet speed.txt
done
sqlite3 w.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
rl --db w.db search --tag Repeat --format json --limit 0
want=$(json_get '[r["id"] for r in d["results"]]')

rl --db w.db publish -o pub.db
check_exit "publish -o pub.db" 0
check_out_contains "...says what it wrote" "published pub.db: "
check_eq "the copy is in journal_mode=DELETE" delete \
	"$(sqlite3 pub.db 'PRAGMA journal_mode')"
check_eq "...carries rulings' application_id" 1381321799 \
	"$(sqlite3 pub.db 'PRAGMA application_id')"
check_eq "...and schema version" "$(sqlite3 w.db 'PRAGMA user_version')" \
	"$(sqlite3 pub.db 'PRAGMA user_version')"
check_eq "...has no free pages" 0 "$(sqlite3 pub.db 'PRAGMA freelist_count')"
check_eq "...passes integrity_check" ok "$(sqlite3 pub.db 'PRAGMA integrity_check')"
check_eq "...is not larger than the working file" yes \
	"$([ "$(stat -c %s pub.db)" -le "$(stat -c %s w.db)" ] && echo yes)"
# (FTS5's %_data rowids hold the segment id from bit 37 up)
segments() {
	sqlite3 "$1" "SELECT count(DISTINCT id >> 37) FROM rulings_fts_en_data
		WHERE id > 10"
}
check_eq "(the working file's English index has several segments)" yes \
	"$([ "$(segments w.db)" -gt 1 ] && echo yes)"
check_eq "...the copy's is merged into one" 1 "$(segments pub.db)"
check_eq "no -wal, -shm or temporary file beside it" "" \
	"$(ls -a | grep -E '^pub\.db-|publish-')"
rl --db pub.db search --tag Repeat --format json --limit 0
check_json "the copy answers as the database does" \
	"[r['id'] for r in d['results']] == $want"
rl --db pub.db check
check_exit "...and passes rulings check" 0
check_eq "reading the copy leaves no -wal beside it" "" \
	"$(ls -a | grep -E '^pub\.db-')"

# it replaces a previous copy, atomically, and follows a symbolic link
rl --db w.db import --quiet "$SEED_DEFEND"
ln -s pub.db current.db
rl --db w.db publish -o current.db
check_exit "publish over a previous copy through a symbolic link" 0
check_eq "the link is kept" pub.db "$(readlink current.db)"
rl --db current.db stats --format json
check_json "...and the copy it points at is the new one" 'd["sources"] >= 2'

# what it refuses
printf 'my notes\n' >notes.txt
sum=$(sha256sum <notes.txt)
rl --db w.db publish -o notes.txt
check_exit "publish over a file that is not a rulings database: usage error" 2
check_err_contains "...not replaced" "not a rulings database: not replaced"
check_eq "...which is unchanged" "$sum" "$(sha256sum <notes.txt)"
rl --db w.db publish -o w.db
check_exit "publish over the database itself: usage error" 2
mkdir adir
rl --db w.db publish -o adir
check_exit "publish to a directory: usage error" 2
rl --db w.db publish -o -
check_exit "publish to standard output: usage error" 2
rl --db w.db publish
check_exit "publish without -o: usage error" 2
rl --db w.db publish -o no/such/dir/x.db
check_exit "publish into a missing directory: exit 74" 74
check_eq "no temporary file is left behind" "" "$(ls -a | grep publish-)"

# it reads the database only: a read-only file is published too
chmod 444 w.db
sum=$(sha256sum <w.db)
rl --db w.db publish -o ro-copy.db
check_exit "publish from a read-only file" 0
check_eq "...which is unchanged" "$sum" "$(sha256sum <w.db)"
chmod 644 w.db

finish
