#!/usr/bin/env bash
# Dates and times in options (--since, --as-of, --between): the calendar is
# checked, a time without a zone is UTC, offsets are converted, and a bad
# value is a usage error that says what is accepted.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

seed_db d.db

# ---- refused: not on the calendar, or not a date at all --------------------
for bad in 2026-02-30 2026-13-45 9999-99-99 2025-02-29 2026-01-16T24:00Z \
	2026-01-16T25:00 2026-01-16T10:60Z 2026-01-16T10:00:60Z \
	2026-01-16T10:00+2:00 yesterday 2026-1-16; do
	rl --db d.db changed --since "$bad"
	check_exit "changed --since $bad: usage error" 2
	check_err_contains "changed --since $bad: says what it takes" \
		"a date (2026-01-16) or a time"
	check_out_empty "changed --since $bad: no output"
	rl --db d.db search --tag Defend --as-of "$bad"
	check_exit "search --as-of $bad: usage error" 2
done
rl --db d.db changed --between 2026-01-01 2026-02-30
check_exit "--between with a day February lacks: usage error" 2
check_err_contains "--between: says what it takes" "UTC unless it gives an offset"
# ---- refused: a range that ends before it starts (it could only find
# nothing, and said nothing: a user took it for "no change")
rl --db d.db changed --between 2026-02-01 2026-01-01
check_exit "--between a later date then an earlier: usage error" 2
check_err_contains "--between reversed: says which comes first" \
	"the earlier first"
check_out_empty "--between reversed: no output"
rl --db d.db changed --between 3 2
check_exit "--between import 3 then 2: usage error" 2
check_err_contains "--between 3 2: says which comes first" "the earlier first"
rl --db d.db changed --since 2026-02-01 --until 2026-01-01
check_exit "--since after --until: usage error" 2
check_err_contains "--since after --until: said" \
	"--since 2026-02-01 is after --until 2026-01-01"
rl --db d.db changed --imported-since 2026-01-02T10:00 --imported-until 2026-01-02T09:00
check_exit "--imported-since after --imported-until: usage error" 2
check_err_contains "--imported-since after --imported-until: said" \
	"--imported-since 2026-01-02T10:00 is after --imported-until 2026-01-02T09:00"
rl --db d.db changed --since 2026-01-16 --until 2026-01-16
check_exit "--since and --until the same day: that day, no error" 0 1
check_err_empty "--since and --until the same day: nothing said"

# ---- accepted ----------------------------------------------------------------
# Every import so far is from today: a time long before finds all of
# them, a time long after none; the zone decides which side a time is on.
now=$(date -u +%Y-%m-%dT%H:%M)
rl --db d.db search --tag Defend --as-of 2024-02-29 --format json
check_exit "--as-of a leap day: accepted (nothing stood then)" 1
for when in "2099-01-01" "2099-01-01T00:00" "2099-01-01T00:00Z" \
	"2099-01-01T00:00:00+05:30" "2099-01-01T00:00-0800" "2099-01-01T10:00+02"; do
	rl --db d.db search --tag Defend --as-of "$when" --format json
	check_exit "--as-of $when: accepted" 0
	check_json "--as-of $when: today's rulings" 'len(d["results"]) > 0'
done
# A time without a zone is UTC: one minute after now in UTC finds today's
# imports; written with a +14:00 offset, the same wall-clock time is 14
# hours earlier, before them.
later=$(date -u -d '+2 minutes' +%Y-%m-%dT%H:%M)
rl --db d.db search --tag Defend --as-of "$later"
check_exit "--as-of $later (no zone: UTC): today's rulings stand" 0
rl --db d.db search --tag Defend --as-of "$later+14:00"
check_exit "--as-of $later+14:00: before today's imports" 1
rl --db d.db changed --since "$later-12:00"
check_exit "--since $later-12:00 is after now: no change" 1
rl --db d.db changed --between 2000-01-01T00:00+01:00 "$now"
check_exit "--between two times with and without offsets: accepted" 0 1

finish
