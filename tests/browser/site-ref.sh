# The site a browser test builds, kept by a normal build's run and compared
# with it by a sanitized build's run. Sourced by the browser tests after
# tests/cli/lib.sh.
#
# Chromium, the Nu HTML Checker and html-validate judge the bytes of the
# site, not the program that wrote them; only the import and the export
# need AddressSanitizer and UndefinedBehaviorSanitizer. So a normal build's
# run keeps its site in its build directory (ART/site-NAME), and a
# sanitized build's run given BROWSER_REFERENCE=DIR (tests/run-all sets it
# to the normal build's tests/browser, whose tests ran just before) builds
# the same site under the sanitizers, compares it with DIR/site-NAME and,
# when it is the same, stops there: the checkers' verdict on those bytes is
# the normal build's run's. The same means: the same files, every page and
# every other file byte for byte, the Atom feeds too but for their
# <updated> times (the time of an import; no checker reads the feeds). The pages
# show the day of the import: a site is kept and compared only when both
# runs imported and exported on one day (UTC and local), else the checkers
# run. Without a reference (a sanitized build's tests run alone, or the
# normal build's run skipped) the test runs in full.
#
#   site_ref_reset NAME ART   first, before the import: no site of an
#                             earlier run is left; notes the day
#   site_ref NAME ART         after the export to ./site: keeps the site, or
#                             compares it and, when there is a reference,
#                             finishes the test

_site_day() {
	echo "$(date -u +%F) $(date +%F)"
}

site_ref_reset() {
	rm -rf "$2/site-$1" "$2/site-$1.day"
	_site_ref_day=$(_site_day)
}

# _site_feeds DIR: the site's Atom feeds, their <updated> times blanked
_site_feeds() {
	(cd "$1" && find . -name '*.atom' -type f | LC_ALL=C sort |
		xargs -r sed 's|<updated>[0-9T:Z+-]*</updated>|<updated/>|g')
}

site_ref() {
	local name=$1 art=$2 ref
	if [ "$(_site_day)" != "$_site_ref_day" ]; then
		echo "(the day changed during the import: the site is not compared)"
		return 0
	fi
	if ! sanitized; then
		cp -r site "$art/site-$name" &&
			echo "$_site_ref_day" >"$art/site-$name.day"
		return 0
	fi
	ref=${BROWSER_REFERENCE:+$BROWSER_REFERENCE/site-$name}
	if [ -z "$ref" ] || [ ! -d "$ref" ] ||
		[ "$(cat "$ref.day" 2>/dev/null)" != "$_site_ref_day" ]; then
		echo "(no site of the normal build's run of this day: the checkers run here too)"
		return 0
	fi
	check_eq "the same files as the normal build's site ($ref)" \
		"$(cd "$ref" && find . -type f | LC_ALL=C sort)" \
		"$(find site -type f | sed 's|^site/|./|' | LC_ALL=C sort)"
	run diff -r -x '*.atom' "$ref" site
	check_exit "every page the same, byte for byte" 0
	if _site_feeds "$ref" >"$T/ref-feeds" && _site_feeds site >"$T/feeds" &&
		cmp -s "$T/ref-feeds" "$T/feeds"; then
		_pass "the feeds the same (but for their times)"
	else
		_fail "the feeds differ from the normal build's" \
			"$(diff "$T/ref-feeds" "$T/feeds" | head -n 8)"
	fi
	echo "(sanitized build: the checkers' verdict on these bytes is the normal build's run's)"
	finish
}
