/* verscmp.c - UAPI version comparison (verscmp.h).
 *
 * The specification (uapi-group.org, "Version Format Specification"):
 * characters other than [A-Za-z0-9~^.-] only separate; then segment by
 * segment: '~' sorts before anything (pre-release), the end of a string
 * before any further segment, '-' before '^' before '.' before a plain
 * segment; a numeric segment is newer than an alphabetic one; numbers
 * compare by value (leading zeros ignored), words bytewise with the
 * longer newer.
 */
#include "cfg/verscmp.h"

#include <stdbool.h>
#include <string.h>

static bool v_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool v_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool v_valid(char c)
{
	return v_digit(c) || v_alpha(c) || c == '~' || c == '-' || c == '^' ||
	       c == '.';
}

static int v_sign(long d)
{
	return (d > 0) - (d < 0);
}

/* One prefix character @c: returns non-zero when exactly one side has
 * it (that side is older), else consumes it on both sides. */
static int v_prefix(const char **a, const char **b, char c)
{
	if (**a != c && **b != c)
		return 0;
	if (**a != c || **b != c)
		return **a == c ? -1 : 1;
	(*a)++;
	(*b)++;
	return 0;
}

static int v_number(const char **a, const char **b)
{
	const char *x = *a, *y = *b;
	size_t nx = 0, ny = 0;
	int r;

	while (*x == '0')
		x++;
	while (*y == '0')
		y++;
	while (v_digit(x[nx]))
		nx++;
	while (v_digit(y[ny]))
		ny++;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	r = strncmp(x, y, nx);
	*a = x + nx;
	*b = y + ny;
	return v_sign(r);
}

static int v_word(const char **a, const char **b)
{
	size_t nx = 0, ny = 0;
	int r;

	while (v_alpha((*a)[nx]))
		nx++;
	while (v_alpha((*b)[ny]))
		ny++;
	r = strncmp(*a, *b, nx < ny ? nx : ny);
	if (r)
		return v_sign(r);
	if (nx != ny)
		return nx < ny ? -1 : 1;
	*a += nx;
	*b += ny;
	return 0;
}

int cfg_verscmp(const char *a, const char *b)
{
	static const char order[] = {'-', '^', '.'};
	int r;

	if (!a || !*a || !b || !*b)
		return (a && *a) - (b && *b);
	for (;;) {
		while (*a && !v_valid(*a))
			a++;
		while (*b && !v_valid(*b))
			b++;
		if ((r = v_prefix(&a, &b, '~')))
			return r;
		if (!*a || !*b)
			return (*a != 0) - (*b != 0);
		for (size_t i = 0; i < sizeof(order); i++)
			if ((r = v_prefix(&a, &b, order[i])))
				return r;
		if (v_digit(*a) || v_digit(*b))
			r = v_number(&a, &b);
		else
			r = v_word(&a, &b);
		if (r)
			return r;
	}
}
