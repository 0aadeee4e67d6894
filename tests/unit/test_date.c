/* test_date.c — rl_when_parse(): the dates and times options take. */
#include "helpers.h"

#include <stdio.h>
#include <string.h>

static void assert_when(const char *in, bool end, const char *want)
{
	char out[RL_WHEN_SIZE] = "";
	int rc = rl_when_parse(in, end, out);
	if (rc != RL_OK || strcmp(out, want) != 0)
		print_error("rl_when_parse(\"%s\", %d) = %d \"%s\", want \"%s\"\n",
		            in, end, rc, out, want);
	assert_int_equal(rc, RL_OK);
	assert_string_equal(out, want);
}

static void assert_refused(const char *in)
{
	char out[RL_WHEN_SIZE];
	int rc = rl_when_parse(in, false, out);
	if (rc != RL_EUSAGE)
		print_error("rl_when_parse(\"%s\") = %d, want RL_EUSAGE\n", in, rc);
	assert_int_equal(rc, RL_EUSAGE);
	assert_int_equal(rl_when_parse(in, true, out), RL_EUSAGE);
}

static void test_dates(void **state)
{
	assert_when("2026-01-16", false, "2026-01-16T00:00:00Z");
	assert_when("2026-01-16", true, "2026-01-16T23:59:59Z");
	assert_when("2024-02-29", false, "2024-02-29T00:00:00Z");
	assert_when("2000-02-29", false, "2000-02-29T00:00:00Z");
	assert_when("0001-01-01", false, "0001-01-01T00:00:00Z");
	assert_when("9999-12-31", true, "9999-12-31T23:59:59Z");
}

static void test_calendar(void **state)
{
	assert_refused("2026-02-30");
	assert_refused("2026-02-29");     /* not a leap year */
	assert_refused("1900-02-29");     /* nor is 1900 */
	assert_refused("2026-04-31");
	assert_refused("2026-13-01");
	assert_refused("2026-00-10");
	assert_refused("2026-01-00");
	assert_refused("2026-13-45");
	assert_refused("9999-99-99");
	assert_refused("0000-01-01");
}

static void test_times(void **state)
{
	/* no zone: UTC */
	assert_when("2026-01-16T10:00", false, "2026-01-16T10:00:00Z");
	assert_when("2026-01-16T10:00", true, "2026-01-16T10:00:59Z");
	assert_when("2026-01-16T10:00Z", false, "2026-01-16T10:00:00Z");
	assert_when("2026-01-16t10:00z", false, "2026-01-16T10:00:00Z");
	assert_when("2026-01-16T10:00:30Z", true, "2026-01-16T10:00:30Z");
	assert_when("2026-01-16T23:59:59", false, "2026-01-16T23:59:59Z");
	assert_refused("2026-01-16T24:00Z");
	assert_refused("2026-01-16T24:00");
	assert_refused("2026-01-16T25:00Z");
	assert_refused("2026-01-16T10:60Z");
	assert_refused("2026-01-16T10:00:60Z");
	assert_refused("2026-02-30T10:00Z");
}

static void test_offsets(void **state)
{
	assert_when("2026-01-16T12:00+02:00", false, "2026-01-16T10:00:00Z");
	assert_when("2026-01-16T12:00:15+0200", false, "2026-01-16T10:00:15Z");
	assert_when("2026-01-16T12:00+02", false, "2026-01-16T10:00:00Z");
	assert_when("2026-01-16T04:30-05:30", false, "2026-01-16T10:00:00Z");
	/* across a day, a month, a year and a leap day */
	assert_when("2026-01-01T01:00+02:00", false, "2025-12-31T23:00:00Z");
	assert_when("2024-02-28T23:30-01:00", true, "2024-02-29T00:30:59Z");
	assert_when("2026-01-16T10:00+00:00", false, "2026-01-16T10:00:00Z");
	/* out of the years 1 to 9999 once in UTC */
	assert_refused("9999-12-31T23:00-02:00");
	assert_refused("0001-01-01T00:00+01:00");
	assert_refused("2026-01-16T10:00+24:00");
	assert_refused("2026-01-16T10:00+02:60");
	assert_refused("2026-01-16T10:00+2:00");
	assert_refused("2026-01-16T10:00+02:00Z");
}

static void test_junk(void **state)
{
	static const char *const junk[] = {
		"", "2026", "2026-01", "2026-1-16", "2026/01/16", "16-01-2026",
		"2026-01-16T", "2026-01-16T10", "2026-01-16T10:0", "2026-01-16 10:00",
		"2026-01-16T10:00Zjunk", "2026-01-16T10:00:00.000Z", "2026-01-16x",
		"+2026-01-16", "２０２６-01-16", "yesterday",
	};
	for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
		assert_refused(junk[i]);
	/* the message's list of forms names each kind */
	assert_non_null(strstr(rl_when_forms, "2026-01-16"));
	assert_non_null(strstr(rl_when_forms, "+02:00"));
	assert_non_null(strstr(rl_when_forms, "UTC"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_calendar),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_junk),
	};
	return cmocka_run_group_tests_name("date", tests, NULL, NULL);
}
