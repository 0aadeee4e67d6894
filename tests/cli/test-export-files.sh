#!/usr/bin/env bash
# rulings export -o: what "replace the file" means for what is there
# (issue 17 #3, #11, #15): symbolic links are followed and kept, FIFOs and
# character devices written in place, a directory is no file, a full disk
# is an I/O error with one message of ours, an export killed half-way can
# be run again, permissions of a replaced file are kept.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# A small tmpfs for a full disk, where mounting is permitted (as root);
# always unmounted, even when the script stops early.
FULL=$T/full
mounted=
_umount_full() {
	[ -n "$mounted" ] && umount "$FULL" 2>/dev/null
	mounted=
}
trap '_umount_full; _cleanup' EXIT

# same DESC FILE1 FILE2: the two files hold the same bytes
same() {
	if cmp -s "$2" "$3"; then
		_pass "$1"
	else
		_fail "$1" "$2 and $3 differ" "$(cmp "$2" "$3" 2>&1 | head -n 2)"
	fi
}

seed_db s.db
rl --db s.db export --tag Defend --format txt -o defend.txt
check_exit "a plain export to compare with" 0

# ---- symbolic links ------------------------------------------------------------
echo old >real.txt
ln -s real.txt link.txt
rl --db s.db export --tag Defend --format txt -o link.txt
check_exit "-o a symbolic link: exit 0" 0
check_eq "... the link is still a link to real.txt" real.txt "$(readlink link.txt)"
same "... and its target holds the export" defend.txt real.txt
mkdir -p sub
ln -s chained.txt sub/link2
ln -s sub/link2 chain.txt
rl --db s.db export --tag Defend --format txt -o chain.txt
check_exit "-o a chain of two links, the second relative to its directory" 0
check_eq "... both links kept" "sub/link2|chained.txt" \
	"$(readlink chain.txt)|$(readlink sub/link2)"
same "... the file at the end of the chain written" defend.txt sub/chained.txt
ln -s new-target.txt dangling.txt
rl --db s.db export --tag Defend --format txt -o dangling.txt
check_exit "-o a dangling link: the file it names is created" 0
check_eq "... the link kept" new-target.txt "$(readlink dangling.txt)"
same "... the new file holds the export" defend.txt new-target.txt
ln -s loop-b loop-a
ln -s loop-a loop-b
rl --db s.db export --tag Defend --format txt -o loop-a
check_exit "-o a loop of links: an i/o error" 74
check_err_contains "... saying so" "Too many levels of symbolic links"
check_eq "... both links kept" "loop-b|loop-a" "$(readlink loop-a)|$(readlink loop-b)"

# ---- permissions of a replaced file --------------------------------------------
echo old >private.txt
chmod 600 private.txt
rl --db s.db export --tag Defend --format txt -o private.txt
check_exit "replacing a file of mode 600" 0
check_eq "... keeps its mode" 600 "$(stat -c %a private.txt)"

# ---- FIFOs and character devices ------------------------------------------------
mkfifo pipe
timeout 20 cat pipe >from-pipe.txt &
reader=$!
add_bg_pid "$reader"
rl --db s.db export --tag Defend --format txt -o pipe
check_exit "-o a FIFO: written to it" 0
wait "$reader"
same "... the reader got the export" defend.txt from-pipe.txt
check_eq "... and the FIFO is still a FIFO" fifo "$( [ -p pipe ] && echo fifo)"
mkfifo xml-pipe
timeout 20 cat xml-pipe >from-xml-pipe.xml &
reader=$!
add_bg_pid "$reader"
rl --db s.db export --tag Defend --format xml -o xml-pipe
check_exit "-o a FIFO with --format xml" 0
wait "$reader"
check_match "... the reader got the XML document" '^<\?xml ' "$(head -n 1 from-xml-pipe.xml)"
ln -s /dev/null null-link
rl --db s.db export --tag Defend --format html -o null-link
check_exit "-o a link to /dev/null: written to the device" 0
check_eq "... the link kept" /dev/null "$(readlink null-link)"
check_eq "... and /dev/null still a character device" chr \
	"$( [ -c /dev/null ] && echo chr)"
if mknod dev-null c 1 3 2>/dev/null; then
	rl --db s.db export --tag Defend --format md -o dev-null
	check_exit "-o a character device node (a copy of /dev/null)" 0
	check_eq "... still a character device" chr "$( [ -c dev-null ] && echo chr)"
else
	echo "# mknod is not permitted here: the device node case is skipped"
fi

# ---- a full disk ------------------------------------------------------------------
ln -s /dev/full full-link
rl --db s.db export --all --format xml -o full-link
check_exit "XML to a full device (/dev/full): an i/o error" 74
check_eq "... one message, ours, naming the file" \
	"rulings: export: cannot write 'full-link': No space left on device" "$(cat "$ERR")"
check_eq "... the link kept" /dev/full "$(readlink full-link)"
rl --db s.db export --tag Defend --format html -o full-link
check_exit "HTML to a full device: an i/o error" 74
check_eq "... with one message" 1 "$(wc -l <"$ERR")"
mkdir -p "$FULL"
if mount -t tmpfs -o size=48k tmpfs "$FULL" 2>/dev/null; then
	mounted=1
	echo keep >"$FULL/all.xml"
	rl --db s.db export --all --format xml -o "$FULL/all.xml"
	check_exit "XML onto a full file system: an i/o error" 74
	check_eq "... one message, ours" \
		"rulings: export: cannot write '$FULL/all.xml': No space left on device" \
		"$(cat "$ERR")"
	check_eq "... the old file intact, no temporary file left" "all.xml|keep" \
		"$(ls -A "$FULL" | paste -sd' ')|$(cat "$FULL/all.xml")"
	rm -f "$FULL/all.xml"
	# a site that does not fit: the export stops half-way (issue 17 #11)
	rl --db s.db export --all --format html -o "$FULL/site"
	check_exit "a site onto a full file system: an i/o error" 74
	check_match "... after some of its pages" '[1-9]' "$(ls "$FULL/site" | wc -l)"
	check_eq "... no temporary file left" "" "$(ls -A "$FULL/site" | grep rulings-tmp)"
	check_eq "... the directory is already a previous export" yes \
		"$([ -f "$FULL/site/.rulings-export" ] && echo yes)"
	mount -o remount,size=8m "$FULL"
	rl --db s.db export --all --format html -o "$FULL/site"
	check_exit "... and the same export, run again, finishes without --force" 0
	rl --db s.db export --all --format html -o full-site
	check_eq "... with the same pages as an export that never failed" \
		"$(cd full-site && ls -A && cat -- *.html .rulings-export | md5sum)" \
		"$(cd "$FULL/site" && ls -A && cat -- *.html .rulings-export | md5sum)"
	_umount_full
else
	echo "# mounting a tmpfs is not permitted here: the full file system case is skipped"
fi

# ---- an export killed half-way can be run again (issue 17 #11) ----------------
# The export is killed once its first page is there (when it finishes
# first, the rerun below still checks that nothing stops it).
"$RULINGS" --db s.db export --all --format html -o killed >/dev/null 2>&1 &
pid=$!
add_bg_pid "$pid"
for _ in $(seq 1 2000); do
	[ -e killed/index.html ] && break
	sleep 0.005
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
echo "# killed after $(ls killed 2>/dev/null | wc -l) files"
touch killed/.rulings-tmp-AbCdEf
rl --db s.db export --all --format html -o killed
check_exit "an export killed half-way: run again without --force" 0
check_eq "... no temporary file left" "" "$(ls -A killed | grep rulings-tmp)"
check_eq "... its list names what is there" "$(ls killed | sort)" \
	"$(grep -v '^#' killed/.rulings-export | sort)"

# ---- a damaged database: the status the other commands give (issue 17 #15) ------
# The page of the references table overwritten: the selection reads, the
# writing of each ruling (its references) fails.
cp s.db damaged.db
id=$(/usr/bin/python3 - damaged.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=DELETE")
print(db.execute("SELECT ruling_id FROM refs LIMIT 1").fetchone()[0])
page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'refs'").fetchone()[0]
size = db.execute("PRAGMA page_size").fetchone()[0]
db.close()
with open(sys.argv[1], "r+b") as f:
    f.seek((page - 1) * size + 8)
    f.write(b"\xff" * 200)
PY
)
rl --db damaged.db show "$id"
check_exit "show on a damaged database: an i/o error" 74
for f in txt md html; do
	rl --db damaged.db export --tag Defend --format $f -o "damaged.$f"
	check_exit "export --format $f on the same damaged database: 74 too" 74
	check_err_contains "... saying the database is malformed" "malformed"
done

# ---- a directory where one file goes --------------------------------------------------
mkdir adir
rl --db s.db export --tag Defend --format txt -o adir
check_exit "one file to a directory: a usage error" 2
check_err_contains "... saying it is a directory" "'adir' is a directory"
check_eq "... nothing written into it" "" "$(ls -A adir)"
rl --db s.db export --all --format json -o adir
check_exit "json to a directory: a usage error" 2
ln -s adir dir-link
rl --db s.db export --all --format md -o dir-link
check_exit "a site through a link to an empty directory" 0
check_match "... written into the directory" '^\.rulings-export$' "$(ls -A adir | head -n 1)"
check_eq "... the link kept" adir "$(readlink dir-link)"

finish
