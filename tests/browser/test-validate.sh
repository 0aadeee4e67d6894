#!/usr/bin/env bash
# The exported site against two HTML checkers (issue 14, point 4): the Nu
# HTML Checker (npm vnu-jar, run by Debian's Java; every page in ONE java
# process) and html-validate (npm), over every page of a site built from
# the seed data and, when they are there, the corpora (the newest
# Comprehensive Rules, the Berserk. Heroes rules and dictionary). Both must
# report no error. Skipped (77) when node, java, html-validate or vnu.jar
# is missing; .ci/deps --test installs them.
#
# html-validate runs its recommended rules (html-validate.json) with two
# changes: ids may start with a digit (HTML allows it; rules are anchored
# by number, #702.19a), and a title may be long (a book page's title is
# its section and its book).
#
# The site is kept in ART (the build directory); a sanitized build's run
# given BROWSER_REFERENCE compares its site with the normal build's instead
# of running the checkers again (site-ref.sh).
#
#   bash tests/browser/test-validate.sh BUILD/rulings [CORPORA [ART]]
. "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh" "$1"

CORPORA=${RULINGS_CORPORA:-${2:-}}
ART=${3:-$T}
mkdir -p "$ART"
. "$_lib_dir/../browser/site-ref.sh" || exit 2
site_ref_reset validate "$ART"
HV=$(command -v html-validate || true)
NODE_ROOT=$(npm root -g 2>/dev/null || true)
VNU=${VNU_JAR:-${NODE_ROOT:-/nonexistent}/vnu-jar/build/dist/vnu.jar}
if [ -z "$HV" ] || ! command -v java >/dev/null || [ ! -f "$VNU" ]; then
	echo "html-validate, java or vnu.jar is missing: skipped"
	_finished=1
	exit 77
fi

cp "$DATA"/*.txt seeds/
cp "$_lib_dir/export-hostile.txt" hostile.txt
extra=() berserk=()
if [ -n "$CORPORA" ] && [ -f "$CORPORA/mtg-cr/CR-2026-01-16.txt" ]; then
	extra=("$CORPORA/mtg-cr/CR-2026-01-16.txt")
	berserk=("$CORPORA/berserk-heroes-ru/c1_rules.rst"
	         "$CORPORA"/berserk-heroes-ru/dictionary_2025-06-19_*.rst)
else
	echo "(no corpora at '${CORPORA:-}': the seed data only)"
fi
# (the seeds and the page named by manifests, the CR by its title)
rl --db s.db import seeds hostile.txt "${extra[@]}"
check_exit "the data imports" 0
# the Berserk rules and dictionary name their game («Берсерк. Герои»); the
# same name given changes nothing
if [ ${#berserk[@]} -gt 0 ]; then
	rl --db s.db import --game "Берсерк. Герои" "${berserk[@]}"
	check_exit "... and the Berserk rules and dictionary" 0
fi
# a second version of the Defend page: changes.html has an edit, an
# addition and a withdrawal
python3 "$_lib_dir/defend-v2.py" seeds/001_8e68847c21c72d28.txt defend-v2.txt
rl --db s.db import --document Defend defend-v2.txt
check_exit "a new version of a page imports" 0
rl --db s.db export --all --format html -o site
check_exit "export --all --format html" 0
site_ref validate "$ART"
pages=$(ls site/*.html | wc -l)

run java -jar "$VNU" --errors-only --skip-non-html site
check_exit "the Nu HTML Checker: no error on the $pages pages" 0
check_eq "... and no message" "" "$(head -c 2000 "$ERR")"

run "$HV" --config "$(dirname "${BASH_SOURCE[0]}")/html-validate.json" site/*.html
check_exit "html-validate: no error on the $pages pages" 0
check_eq "... and no message" "" "$(head -c 2000 "$OUT")"

finish
