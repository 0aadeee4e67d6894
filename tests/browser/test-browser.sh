#!/usr/bin/env bash
# A real browser on the exported site: headless Chromium loads the pages
# (--dump-dom) and the test checks that they render their entries and that
# no script from the data ran. A control page with a script of the test's
# own proves that scripts do run in this browser. Screenshots and the site
# are kept in the build directory (the second argument) as test artifacts;
# a sanitized build's run given BROWSER_REFERENCE compares its site with
# the normal build's instead of running Chromium again (site-ref.sh).
# Skipped (exit 77) when chromium is not installed.
#
#   bash tests/browser/test-browser.sh BUILD/rulings BUILD/tests/browser
. "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh" "$1"

ART=${2:-$T}
mkdir -p "$ART"
. "$_lib_dir/../browser/site-ref.sh" || exit 2
site_ref_reset export "$ART"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "chromium is not installed: skipped"
	_finished=1
	exit 77
fi

# browse WHAT FILE [EXTRA-OPTIONS...]: the DOM after loading FILE, in $OUT
browse() {
	local file=$1
	shift
	run timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --no-first-run --no-default-browser-check \
		--user-data-dir="$T/chrome" --virtual-time-budget=2000 \
		"$@" "file://$file"
}

cp "$DATA"/*.txt seeds/
cp "$_lib_dir/export-hostile.txt" hostile.txt
# the shipped thesaurus keeps the three games' timing rules apart: a
# thesaurus of the test's own joins their tags, so that the Speed page
# links its Russian page
cat >speed-concept.txt <<'EOT'
# rulings thesaurus
[*]
en:Speed (Fast/Slow) = fr:Swift (rapide) = ru:Быстрые и медленные атаки
EOT
rl --db s.db import seeds hostile.txt speed-concept.txt
check_exit "the seed data, the hostile page and the test's thesaurus import" 0
rl --db s.db export --all --format html -o site
check_exit "export --all --format html" 0
# a sanitized build compares its site with the normal build's, whose run
# Chromium checked, and ends here (site-ref.sh)
site_ref export "$ART"

# the control: a script of our own runs
cat >control.html <<'HTML'
<!DOCTYPE html><html><head><title>before</title></head>
<body><p id="p">x</p><script>document.title = 'RAN';
document.body.setAttribute('data-ran', '1');</script></body></html>
HTML
browse "$T/control.html" --dump-dom
check_exit "chromium loads the control page" 0
check_contains "scripts run in this browser (control)" "$(cat "$OUT")" "<title>RAN</title>"

hostile=$T/site/$(ls site | grep '^x-[0-9a-f]\{12\}\.html$')
browse "$hostile" --dump-dom
check_exit "chromium loads the hostile page" 0
dom=$(cat "$OUT")
check_contains "the page renders its title" "$dom" "<title>../../x</title>"
check_not_contains "the payload did not set the title" "$dom" "PWNED</title>"
check_not_contains "no payload set an attribute" "$dom" "data-pwned="
check_not_contains "no script element came from the data" "$dom" "<script"
check_not_contains "no img element came from the data" "$dom" "<img"
check_eq "both entries are in the DOM" 2 "$(grep -o 'class="entry"' "$OUT" | wc -l)"
check_contains "the payload is shown as text" "$dom" "&lt;script&gt;document.title='PWNED'&lt;/script&gt;"
browse "$hostile" --screenshot="$ART/export-hostile.png" --window-size=1200,900
check_exit "a screenshot of the hostile page" 0
[ -s "$ART/export-hostile.png" ] && _pass "the screenshot is kept: $ART/export-hostile.png" ||
	_fail "no screenshot at $ART/export-hostile.png"

speed=$T/site/$(ls site | grep '^speed-fast-slow-[0-9a-f]\{12\}\.html$')
browse "$speed" --dump-dom
check_exit "chromium loads the Speed (Fast/Slow) page" 0
check_eq "all 18 entries render" 18 "$(grep -o 'class="entry"' "$OUT" | wc -l)"
check_contains "the Russian page of the same concept is linked, in UTF-8" \
	"$(cat "$OUT")" "Быстрые и медленные атаки</a>"
browse "$speed" --screenshot="$ART/export-speed.png" --window-size=1200,2400
check_exit "a screenshot of the Speed page" 0
[ -s "$ART/export-speed.png" ] && _pass "the screenshot is kept: $ART/export-speed.png" ||
	_fail "no screenshot at $ART/export-speed.png"
browse "$T/site/index.html" --dump-dom
check_contains "the index renders its tag list" "$(cat "$OUT")" 'class="index"'

# a book (data/004's numbered rules): its table of contents and its page of
# rules, rendered, at 1200 and 400 px
toc=$T/site/$(ls site | grep '^contents-' | head -n 1)
rules=$T/site/$(ls site | grep '^511-' | head -n 1)
browse "$rules" --dump-dom
check_exit "chromium loads the book's page of rules" 0
check_eq "its three rules render, each anchored by number" "511.8 512.1 512.2" \
	"$(grep -o 'class="rule" id="[^"]*"' "$OUT" | sed 's/.*id="//; s/"//' | paste -sd ' ')"
# (issue 14, point 3) the Russian book's page reads Russian, its interface
# words included: no English one is left in what Chromium renders
check_eq "... a Russian page, in Russian: its lang, navigation and labels" \
	'<html lang="ru">|Все теги|Содержание: |Теги: ' \
	"$(grep -o '<html lang="[^"]*">' "$OUT")|$(grep -o '>Все теги<' "$OUT" | tr -d '<>' | head -n 1)|$(grep -o 'Содержание: ' "$OUT" | head -n 1)|$(grep -o 'Теги: ' "$OUT" | head -n 1)"
check_eq "... and no English interface word" "" \
	"$(grep -o -E 'All tags|Contents: |Previous: |Next: |Tags: |See also: |[0-9]+ rules?\b' "$OUT" | head -n 3)"
for w in 1200 400; do
	for page in toc rules; do
		png=$ART/export-book-$page-$w.png
		browse "${!page}" --screenshot="$png" --window-size=$w,900
		check_exit "a screenshot of the book's $page at $w px" 0
		[ -s "$png" ] && _pass "the screenshot is kept: $png" ||
			_fail "no screenshot at $png"
	done
done

finish
