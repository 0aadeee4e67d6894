/* chars.c — character classes (chars.h). */
#include "chars.h"
#include "utf8.h"

size_t rl_blank_len(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	if (u[0] == ' ' || u[0] == '\t')
		return 1;
	if (u[0] == 0xC2 && u[1] == 0xA0)
		return 2;
	if (u[0] == 0xE2 && u[1] == 0x80 && u[2] == 0xAF)
		return 3;
	return 0;
}

size_t rl_blank_len_before(const char *s, const char *e)
{
	const unsigned char *u = (const unsigned char *)e;
	size_t n = (size_t)(e - s);
	if (n >= 1 && (u[-1] == ' ' || u[-1] == '\t'))
		return 1;
	if (n >= 2 && u[-2] == 0xC2 && u[-1] == 0xA0)
		return 2;
	if (n >= 3 && u[-3] == 0xE2 && u[-2] == 0x80 && u[-1] == 0xAF)
		return 3;
	return 0;
}

bool rl_is_blank_cp(uint32_t c)
{
	return c == ' ' || c == '\t' || c == 0xA0 || c == 0x202F;
}

bool rl_is_space_cp(uint32_t c)
{
	return c == 0 || c == '\n' || rl_is_blank_cp(c);
}

bool rl_is_mark_cp(uint32_t c)
{
	return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
	       (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x20D0 && c <= 0x20FF) ||
	       (c >= 0xFE20 && c <= 0xFE2F);
}

bool rl_is_blank_line(const char *s, size_t n)
{
	const char *e = s + n;
	while (s < e) {
		size_t k = rl_blank_len(s);
		if (!k)
			return *s == '\r';   /* a CR left over: the line's end */
		s += k;
	}
	return true;
}

bool rl_is_blank_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; ) {
		size_t k = rl_blank_len(s + i);
		if (!k && s[i] != '\n')
			return false;
		i += k ? k : 1;
	}
	return true;
}

uint32_t rl_cp_at(const char *s, size_t n, size_t i)
{
	uint32_t c = 0;
	if (i < n)
		rl_utf8_decode(s + i, &c);
	return c;
}

uint32_t rl_cp_before(const char *s, size_t i)
{
	if (i == 0)
		return 0;
	size_t j = i - 1;
	while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80)
		j--;
	uint32_t c;
	rl_utf8_decode(s + j, &c);
	return c;
}

size_t rl_indent(const char *s, size_t n, size_t *bytes)
{
	size_t col = 0, i = 0, k;
	while (i < n && (k = rl_blank_len(s + i)) != 0) {
		col = s[i] == '\t' ? (col / RL_TAB_WIDTH + 1) * RL_TAB_WIDTH : col + 1;
		i += k;
	}
	if (bytes)
		*bytes = i;
	return col;
}

size_t rl_chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}
