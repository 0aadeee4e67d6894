/* date.c — the dates and times users give (--since, --as-of, --between):
 * checked against the calendar and made UTC, the form imports are stamped
 * with. */
#include "rulings.h"

#include <stdio.h>
#include <string.h>

const char rl_when_forms[] =
	"a date (2026-01-16) or a time (2026-01-16T10:00, 2026-01-16T10:00:30Z, "
	"2026-01-16T12:00+02:00; UTC unless it gives an offset)";

/* n digits at s: their value, or -1. */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian), and back
 * (Howard Hinnant's algorithms). */
static long days_from_civil(int y, int m, int d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(long z, int *y, int *m, int *d)
{
	z += 719468;
	long era = (z >= 0 ? z : z - 146096) / 146097;
	long doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

bool rl_day_valid(const char *s)
{
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
	return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 &&
	       d <= month_days(y, mo);
}

int rl_when_parse(const char *s, bool end, char out[RL_WHEN_SIZE])
{
	/* YYYY-MM-DD */
	if (strlen(s) < 10 || s[4] != '-' || s[7] != '-')
		return RL_EUSAGE;
	int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo))
		return RL_EUSAGE;
	int h = end ? 23 : 0, mi = end ? 59 : 0, sec = end ? 59 : 0;
	int offset = 0;                   /* minutes east of UTC */
	const char *p = s + 10;
	if (*p) {
		/* THH:MM[:SS] */
		if ((*p != 'T' && *p != 't') || strlen(p) < 6 || p[3] != ':')
			return RL_EUSAGE;
		h = digits(p + 1, 2);
		mi = digits(p + 4, 2);
		if (h < 0 || h > 23 || mi < 0 || mi > 59)
			return RL_EUSAGE;
		p += 6;
		if (*p == ':') {
			sec = digits(p + 1, 2);
			if (sec < 0 || sec > 59)
				return RL_EUSAGE;
			p += 3;
		}
		/* Z, +HH:MM, +HHMM, +HH, or nothing: UTC */
		if ((*p == 'Z' || *p == 'z') && !p[1]) {
			p++;
		} else if (*p == '+' || *p == '-') {
			int sign = *p == '-' ? -1 : 1;
			int oh = digits(p + 1, 2), om = 0;
			const char *q = p + 3;
			if (*q == ':')
				q++;
			if (*q) {
				om = digits(q, 2);
				q += 2;
			}
			if (oh < 0 || oh > 23 || om < 0 || om > 59 || *q)
				return RL_EUSAGE;
			offset = sign * (oh * 60 + om);
			p = q;
		}
		if (*p)
			return RL_EUSAGE;
	}
	if (offset) {
		long minutes = days_from_civil(y, mo, d) * 1440L + h * 60 + mi - offset;
		long day = minutes >= 0 ? minutes / 1440 : -((-minutes + 1439) / 1440);
		long rest = minutes - day * 1440;
		civil_from_days(day, &y, &mo, &d);
		h = (int)(rest / 60);
		mi = (int)(rest % 60);
		if (y < 1 || y > 9999)
			return RL_EUSAGE;
	}
	char buf[64];       /* the values are in range: 20 characters */
	snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h,
	         mi, sec);
	memcpy(out, buf, RL_WHEN_SIZE - 1);
	out[RL_WHEN_SIZE - 1] = '\0';
	return RL_OK;
}
