#!/usr/bin/env bash
# A good citizen (issue 11, points 1, 2, 7; issue 17 #8, #9, #10, #15):
#   - a file that is not a rulings database — another program's SQLite
#     file with or without a table rulings also has, in WAL or rollback
#     mode, with another application_id, a negative user_version, or no
#     SQLite at all — gets exit 74 "... is not a rulings database" from
#     every command, and stays byte for byte as it was, with no -wal file;
#   - a database from before version 8 is read as it is, and upgraded by a
#     command that writes, in one transaction, saying so (merging what
#     the new folding makes equal);
#   - readers never create or upgrade: one racing the first import does
#     not wait for its lock; --db '' and :memory: are refused for writing;
#   - --db takes file: URIs (immutable=1, mode=ro);
#   - a new database starts with the shipped thesaurus (--no-thesaurus);
#   - re-importing a directory with two versions of a document changes
#     nothing.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# the schema version this rulings makes: the highest schema/NNN-*.sql
LATEST=$(cd "$_lib_dir/../../schema" && ls [0-9][0-9][0-9]-*.sql | tail -n 1 | sed 's/^0*//; s/-.*//')

if ! command -v sqlite3 >/dev/null; then
	echo "SKIP: no sqlite3 shell to make foreign files with"
	exit 77
fi

# Every command, each with arguments that would make it work on a rulings
# database: none may change a foreign file.
commands=(
	"import $SEED_SPEED"
	"import --bulk $SEED_SPEED"
	"import --dry-run $SEED_SPEED"
	"search defend"
	"search --tag Defend"
	"show 1"
	"tags"
	"stats"
	"changed"
	"history 1"
	"xrefs"
	"export --all --format json -o $T/out.json"
	"check"
	"reindex"
	"publish -o $T/pub.db"
)

# foreign NAME SQL: makes foreign/NAME with the sqlite3 shell, then runs
# every command on it.
foreign() {
	local name=$1 sql=$2 db=$T/foreign/$1 sum cmd
	mkdir -p "$T/foreign"
	rm -f "$db"
	sqlite3 "$db" "$sql" >/dev/null || { _fail "making $name"; return; }
	sum=$(sha256sum <"$db")
	local bad=0
	for cmd in "${commands[@]}"; do
		# shellcheck disable=SC2086
		rl --db "$db" $cmd
		if [ "$STATUS" != 74 ] || ! grep -q "is not a rulings database" "$ERR"; then
			bad=$((bad + 1))
			_fail "$name: '$cmd' exits 74, not a rulings database" "$(_last_output)"
		fi
	done
	[ "$bad" = 0 ] && _pass "$name: every command exits 74 \"not a rulings database\""
	check_eq "$name: byte for byte unchanged" "$sum" "$(sha256sum <"$db")"
	check_eq "$name: no -wal, -shm or -journal file beside it" "" \
		"$(cd "$T/foreign" && ls "$name"-* 2>/dev/null)"
}

foreign places.sqlite "PRAGMA journal_mode = WAL; PRAGMA page_size = 4096;
	CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT);
	INSERT INTO moz_places (url) VALUES ('https://example.org/');"
foreign clash.db "CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT);
	CREATE TABLE rulings (id INTEGER PRIMARY KEY, body TEXT);
	INSERT INTO tags (name) VALUES ('mine'); PRAGMA user_version = 7;"
foreign clash-wal.db "PRAGMA journal_mode = WAL;
	CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT);
	INSERT INTO tags (name) VALUES ('mine');"
foreign appid.db "PRAGMA application_id = 1234; CREATE TABLE t (x);"
foreign negative.db "CREATE TABLE t (x); PRAGMA user_version = -1;"
# issue 17 #15: a negative user_version is a plain refusal, not "read
# schema version: not an error"
check_not_contains "a negative user_version: no 'not an error' message" \
	"$(cat "$ERR")" "not an error"

mkdir -p "$T/foreign"
printf 'just text, not a database\n%.0s' {1..50} >"$T/foreign/text.db"
sum=$(sha256sum <"$T/foreign/text.db")
for cmd in "import $SEED_SPEED" stats "search defend"; do
	# shellcheck disable=SC2086
	rl --db "$T/foreign/text.db" $cmd
	check_exit "a text file: '$cmd' exits 74" 74
	check_err_contains "...not a rulings database" "is not a rulings database"
done
check_eq "the text file is unchanged" "$sum" "$(sha256sum <"$T/foreign/text.db")"

# ---- what the commands create and read ----------------------------------------------
rl --db new.db import "$SEED_SPEED"
check_exit "import creates a database" 0
check_out_contains "a new database starts with the shipped thesaurus" \
	"thesaurus.txt: "
check_eq "it carries rulings' application_id (0x52554C47)" 1381321799 \
	"$(sqlite3 new.db 'PRAGMA application_id')"
check_eq "...schema version $LATEST" "$LATEST" "$(sqlite3 new.db 'PRAGMA user_version')"
check_eq "...in WAL mode" wal "$(sqlite3 new.db 'PRAGMA journal_mode')"

# A copy loaded from sqlite3's .dump has every table but neither pragma
# (.dump writes neither application_id nor user_version): refused, with
# the two pragmas that mark it again, and byte for byte as it was; marked,
# it reads as the original.
sqlite3 new.db .dump | sqlite3 dumped.db
sum=$(sha256sum <dumped.db)
for cmd in "search Isolate" stats check "import $SEED_SPEED" reindex; do
	# shellcheck disable=SC2086
	rl --db dumped.db $cmd
	check_exit "a copy loaded from .dump: '$cmd' exits 74" 74
	check_err_contains "...says it is not marked, and how to mark it" \
		"is not marked as a rulings database: it has the tables of one, those of schema version $LATEST, but neither its application_id nor its schema version, which sqlite3's .dump and .clone leave out; mark it: sqlite3 '$PWD/dumped.db' 'PRAGMA application_id = 1381321799; PRAGMA user_version = $LATEST', then run 'rulings check'"
done
check_eq "...and leaves it byte for byte as it was" "$sum" "$(sha256sum <dumped.db)"
sqlite3 dumped.db "PRAGMA application_id = 1381321799; PRAGMA user_version = $LATEST"
rl --db dumped.db check
check_exit "...marked as it says, it passes 'rulings check'" 0
rl --db new.db search Isolate --format json
want=$(cat "$OUT")
rl --db dumped.db search Isolate --format json
check_eq "...and answers as the database it was dumped from" "$want" "$(cat "$OUT")"
# a dump of a schema this rulings does not make (an older one, or one a
# user added to): the version is the original's to give
sqlite3 new.db .dump | sqlite3 dumped-other.db
sqlite3 dumped-other.db "CREATE TABLE my_notes (id INTEGER PRIMARY KEY, note TEXT)"
rl --db dumped-other.db stats
check_exit "a copy loaded from .dump, its schema changed: exit 74" 74
check_err_contains "...the original's schema version to give" \
	"mark it with those of the database it was copied from (sqlite3 ORIGINAL 'PRAGMA user_version' says the version): sqlite3 '$PWD/dumped-other.db' 'PRAGMA application_id = 1381321799; PRAGMA user_version = VERSION'"
rl --db new.db search Isolate --format json
check_exit "the thesaurus is there without a separate import" 0 1
# The shipped thesaurus names three games (Spirit Island, NeuroScape,
# Berserk); a database that holds rulings of one of them only does not
# offer the other two to a user who mistyped --game or forgot it.
cp "$DATA/004_ef987a4e02cf8b4c.txt" berserk.txt
rl --db berserk.db import --game Berserk berserk.txt
check_exit "a Berserk-only database, with the shipped thesaurus" 0
for cmd in "search --game Sprit x" "search game:Sprit x" "tags --game Sprit" \
	"documents --game Sprit" "show 1 --game Sprit" "changed --game Sprit"; do
	# shellcheck disable=SC2086
	rl --db berserk.db $cmd
	check_err_contains "$cmd: the one game it holds is offered" \
		"no game 'Sprit' (there are 'Berserk')"
done
rl --db berserk.db search --game "Spirit Island" x
check_err_contains "...and a game only the thesaurus names is none of it" \
	"no game 'Spirit Island' (there are 'Berserk')"
mkdir -p nogame && printf 'game = \n' >/dev/null
# (in a directory of no manifest: $T/.rulings names Spirit Island)
mkdir -p nogame
printf 'Frequently Asked Questions\n\nCards\n\n\xe2\x80\xa2 Is it one?\n  Yes.\n  Tags: Lone\n' >nogame/gameless.txt
rl --db th-only.db import nogame/gameless.txt
check_exit "a document naming no game, into a new database" 65
check_err_contains "...no game to offer, not the thesaurus's" \
	"give --game (this database has no game yet)"
rl --db berserk.db import nogame/gameless.txt
check_err_contains "...into the Berserk one: Berserk offered" \
	"give --game (games in this database: Berserk)"
rl --db bare.db import --no-thesaurus "$SEED_SPEED"
check_exit "import --no-thesaurus" 0
check_not_contains "...imports no thesaurus" "$(cat "$OUT")" "thesaurus"
check_eq "...and the database has none" 0 \
	"$(sqlite3 bare.db 'SELECT count(*) FROM concepts')"
rl --db bare.db import "$SEED_DEFEND"
check_not_contains "a later import into it does not add the thesaurus" \
	"$(cat "$OUT")" "thesaurus"

# An empty file is nothing yet: a reader says so, import makes it ours.
: >empty.db
rl --db empty.db stats
check_exit "a reader on an empty file exits 74" 74
check_err_contains "...it holds no rulings yet" "holds no rulings yet"
check_eq "...and leaves it empty" 0 "$(stat -c %s empty.db)"
# reindex writes, but has nothing to rebuild there: it says so as a
# reader does, and makes no database of an empty file or a mistyped name
rl --db empty.db reindex
check_exit "reindex on an empty file exits 74" 74
check_err_contains "...it holds no rulings yet" "holds no rulings yet"
check_eq "...and leaves it empty" 0 "$(stat -c %s empty.db)"
rl --db typo.db reindex
check_exit "reindex on a missing file exits 74" 74
check_err_contains "...no database there" "no database at 'typo.db'"
check_eq "...and makes none" "" "$(ls typo.db* 2>/dev/null)"
rl --db empty.db import --quiet "$SEED_SPEED"
check_exit "import into an empty file" 0
check_eq "...makes it a rulings database" 1381321799 \
	"$(sqlite3 empty.db 'PRAGMA application_id')"

# issue 17 #8: a reader racing the first import never migrates nor waits
# for the writer's lock: a file another process is creating (it holds
# the write lock on an empty database) is "nothing yet", at once.
rm -f race.db
python3 - race.db <<'PY' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[1] + ".locked", "w").close()
time.sleep(4)
c.execute("ROLLBACK")
PY
locker=$!
add_bg_pid "$locker"
for _ in $(seq 50); do [ -e race.db.locked ] && break; sleep 0.1; done
t0=$(date +%s%N)
RULINGS_BUSY_TIMEOUT=3000 rl --db race.db stats
t1=$(date +%s%N)
check_exit "a reader of a database being created: 74, not 75" 74
check_err_contains "...nothing there yet" "holds no rulings yet"
check_eq "...without waiting for the lock" yes \
	"$([ $(( (t1 - t0) / 1000000 )) -lt 2000 ] && echo yes || echo no)"
wait "$locker" 2>/dev/null

# issue 17 #9: a database that keeps nothing is refused for writing
for db in '' ':memory:' 'file::memory:' 'file:x?mode=memory'; do
	rl --db "$db" import "$SEED_SPEED"
	check_exit "--db '$db' import: usage error" 2
	check_err_contains "...nothing would be kept" "nothing written there would be kept"
	check_not_contains "...and no success reported" "$(cat "$OUT")" "imported"
done
rl --db '' stats
check_exit "--db '' for a reader: usage error too" 2

# ---- file: URIs ---------------------------------------------------------------------
rl --db "file:new.db?immutable=1" search --tag "Speed (Fast/Slow)" --format json
check_exit "--db file:new.db?immutable=1: a reader works" 0
check_json "...and finds the rulings" 'len(d["results"]) > 0'
rl --db "file:$T/new.db?mode=ro" stats --format json
check_exit "--db file:ABS?mode=ro: stats" 0
rl --db "file:new.db?mode=ro" import "$SEED_DEFEND"
check_exit "--db file:...?mode=ro: import fails to write" 74
rl --db "file:uri.db" import --quiet "$SEED_DEFEND"
check_exit "--db file:uri.db: import creates it" 0
check_eq "...as uri.db" 1381321799 "$(sqlite3 uri.db 'PRAGMA application_id')"

# ---- a database of an older rulings ------------------------------------------------------
# Version 7 as rulings 0.1 left it: no application_id, no insert or
# update trigger, and identity folded the old way (an apostrophe kept as
# typeset): two rulings and two tags that the new folding makes one.
rl --db old.db import --quiet --no-thesaurus "$SEED_SPEED"
cat >curly.txt <<'EOF'
Storm’s Oath

Frequently Asked Questions

Cards

• Can Storm’s Oath target itself?
  No.
  Tags: Storm’s Oath
EOF
cat >straight.txt <<'EOF'
Storm's Oath

Frequently Asked Questions

Cards

• Can Storm's Oath target itself?
  No, it cannot.
  Tags: Storm's Oath
EOF
rl --db old.db import --quiet curly.txt
# what the old folding stored: the curly apostrophe kept; so the other
# spelling became a ruling and a tag of its own
python3 - old.db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE tags SET name_fold = lower(name) WHERE name LIKE 'Storm%'")
c.execute("UPDATE rulings SET key = lower(title) WHERE title LIKE 'Can Storm%'")
c.commit()
PY
rl --db old.db import --quiet straight.txt
check_eq "(two rulings and two tags as an old rulings stored them)" "2 2" \
	"$(sqlite3 old.db "SELECT count(*) FROM rulings WHERE title LIKE 'Can Storm%';
		SELECT count(*) FROM tags WHERE name LIKE 'Storm%'" | tr '\n' ' ' | sed 's/ $//')"
sqlite3 old.db "PRAGMA application_id = 0; PRAGMA user_version = 7;
	DROP TRIGGER rulings_fts_insert; DROP TRIGGER rulings_fts_update;
	DROP TRIGGER rulings_fts_delete; ALTER TABLE rulings DROP COLUMN marked_import;
	ALTER TABLE imports DROP COLUMN date; ALTER TABLE imports DROP COLUMN date_source;
	DROP TABLE version_rulings;
	PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
sum=$(sha256sum <old.db)
rl --db old.db search --tag "Storm’s Oath" --format json
check_exit "a reader reads a version 7 database as it is" 0
check_err_contains "...with a warning that it is older" "schema version 7, older"
check_eq "...and does not upgrade it" "$sum" "$(sha256sum <old.db)"
check_eq "...nor write it" 7 "$(sqlite3 old.db 'PRAGMA user_version')"
rl --db old.db import --dry-run "$SEED_DEFEND"
check_exit "import --dry-run on it" 0
check_eq "...does not upgrade it either" "$sum" "$(sha256sum <old.db)"
rl --db old.db import "$SEED_DEFEND"
check_exit "an import upgrades it" 0
check_err_contains "...saying so on standard error" \
	"upgraded the database from schema version 7 to $LATEST"
check_err_contains "...with what the new folding merged" "1 rulings and 1 tags merged"
check_eq "...to version $LATEST" "$LATEST" "$(sqlite3 old.db 'PRAGMA user_version')"
check_eq "...with rulings' application_id" 1381321799 \
	"$(sqlite3 old.db 'PRAGMA application_id')"
for tag in "Storm's Oath" "Storm’s Oath" "STORM’S OATH"; do
	rl --db old.db search --tag "$tag" --format json
	check_json "--tag $tag: one ruling" 'len(d["results"]) == 1'
done
check_json "...that has both pages as sources" \
	'len(d["results"][0]["sources"]) == 2'
rl --db old.db history "$(json_get 'd["results"][0]["id"]')" --format json
check_json "...and both texts among its versions" \
	'{v["text"] for v in d["versions"]} >= {"No.", "No, it cannot."}'
rl --db old.db tags
check_eq "one tag of that name" 1 "$(grep -c "^Storm" "$OUT")"
rl --db old.db check
check_exit "the upgraded database passes check" 0

# ---- issue 17 #10: two versions of one document in one directory -------------------
faq_dir twice
printf 'Twice\n\nFrequently Asked Questions\n\nCards\n\n\xe2\x80\xa2 Is it one?\n  Yes.\n  Tags: Twice\n' >twice/a_v1.txt
printf 'Twice\n\nFrequently Asked Questions\n\nCards\n\n\xe2\x80\xa2 Is it one?\n  Yes, it is.\n  Tags: Twice\n\xe2\x80\xa2 Is it new?\n  Yes.\n  Tags: Twice\n' >twice/b_v2.txt
rl --db twice.db import --no-thesaurus twice
check_exit "a directory with two versions of a document" 0
check_out_contains "...the second is a new version" "1 added, 1 edited"
for i in 1 2; do
	rl --db twice.db import twice
	check_exit "importing it again ($i)" 0
	check_out_contains "...both files unchanged ($i)" "2 unchanged"
	check_out_contains "...nothing added, edited or withdrawn ($i)" \
		"rulings: 0 added, 0 edited, 0 withdrawn"
done
rl --db twice.db changed --format json
check_json "changed lists the one edit and one addition, no flip-flop" \
	'len(d["changes"]) == 2'

finish
