#!/usr/bin/env bash
# import's progress line on a terminal (issue 16 point 4): it counts
# bytes, names the indexing and committing of a bulk group, goes on while
# one step takes long (a lock held by another process), never mixes with
# the lines printed above it, fits the terminal, and calls files files
# (a README is not a document). The binary runs with standard output and
# standard error on a pseudo-terminal of 60 columns (tests/cli/pty.py).
# Arguments: the rulings binary, and bench/gen_faq.py's dump generator.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

PTY=$_lib_dir/pty.py
GEN=$_lib_dir/../../bench/gen_faq.py

# on_pty OUT COMMAND...: runs COMMAND on a terminal; its bytes in OUT
on_pty() {
	local out=$1
	shift
	/usr/bin/python3 "$PTY" 60 "$out" "$@"
	STATUS=$?
}

# lines OUT: the transcript's segments, one a line: P<progress line> for
# a line drawn after a clear, T<text> for what was printed; a progress
# line followed by anything but a clear is "MIXED"
segments() {
	python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
parts = data.split("\r\x1b[K")
for i, p in enumerate(parts):
    if not p:
        continue
    progress = p.startswith(("read ", "indexing and committing "))
    if progress and "\n" in p:
        print("MIXED " + p.replace("\n", "\\n")[:120])
    elif progress:
        print("P" + p)
    else:
        for line in p.split("\n"):
            if line:
                print("T" + line)
PY
}

# 6,000 entries: an import long enough (over a second on a quiet machine)
# for the line to be drawn while files are read and groups committed; it
# is not drawn in the first half second.
python3 "$GEN" --entries 6000 --seed 5 --out dump >/dev/null
printf '# A dump\n\nGenerated pages.\n' >dump/README.md
cp dump/README.md dump/PROVENANCE.md
nfiles=$(ls dump | wc -l)
bytes=$(cat dump/* | wc -c)

# ---- a bulk import of a dump -----------------------------------------------------
on_pty bulk.out "$RULINGS" --db d.db import --bulk=1 dump
check_exit "a bulk import on a terminal" 0
segments bulk.out >bulk.seg
found=$(grep -m1 '^Tfound ' bulk.seg)
check_eq "the walk counts files, not documents, and their bytes" \
	"Tfound $nfiles files, $(python3 -c "print('%.1f MB' % ($bytes / 1e6))")" "$found"
check_match "the progress line counts bytes" \
	'^Pread [0-9.]+ [kM]B of [0-9.]+ MB \([0-9]+%\), [0-9]+ of '"$nfiles"' files' \
	"$(grep '^Pread ' bulk.seg | head -n 1)"
check_match "it shows the indexing and committing of a group" \
	'^Pindexing and committing [0-9]+ documents?, [0-9]+ s' "$(cat bulk.seg)"
check_eq "no line is printed over the progress line" "" "$(grep '^MIXED' bulk.seg)"
check_eq "the progress line fits the 60 columns" "" \
	"$(grep '^P' bulk.seg | awk 'length($0) > 60')"
check_eq "every document's line is printed, once" \
	"$(sed -n 's/^T[0-9]* documents: \([0-9]*\) imported.*/\1/p' bulk.seg)" \
	"$(grep '^Timported ' bulk.seg | cut -d: -f1 | sort -u | wc -l)"
check_eq "the line is cleared at the end" "" \
	"$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print("" if d.rstrip(b"\n").endswith(b"withdrawn") else d[-80:])' bulk.out)"

# ---- a step that takes long: waiting for a lock ----------------------------------
# Another process holds the write lock until the line has said, twice, how
# long the import has been storing its file (30 s at most): the import
# waits in one step, and the line goes on.
"$RULINGS" --db lock.db import --quiet "$SEED_SPEED"
/usr/bin/python3 - lock.db lock.out <<'PY' &
import os, re, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
open("locked", "w").close()
end = time.time() + 30
while time.time() < end:
    if os.path.exists(sys.argv[2]):
        seen = open(sys.argv[2], "rb").read()
        if re.search(rb"; storing for 2 s: ", seen):
            break
    time.sleep(0.1)
db.execute("ROLLBACK")
PY
holder=$!
add_bg_pid "$holder"
for _ in $(seq 1 600); do
	[ -e locked ] && break
	sleep 0.05
done
RULINGS_BUSY_TIMEOUT=60000 on_pty lock.out "$RULINGS" --db lock.db import "$SEED_DEFEND"
wait "$holder"
check_exit "an import that waits for a lock on a terminal" 0
segments lock.out >lock.seg
check_match "while it waits, the line says it is storing, for 1 s ..." \
	'; storing for 1 s: 001_' "$(cat lock.seg)"
check_match "... and goes on as the seconds pass" \
	'; storing for 2 s: 001_' "$(cat lock.seg)"
check_eq "... cut to 60 columns" "" \
	"$(grep '^P' lock.seg | awk 'length($0) > 60')"

# ---- not a terminal: no progress line ---------------------------------------------
rl --db quiet.db import --bulk dump
check_exit "the same import, not on a terminal" 0
check_eq "... prints no progress line" "" "$(grep -c $'\r' "$ERR" | grep -v '^0$')"

finish
