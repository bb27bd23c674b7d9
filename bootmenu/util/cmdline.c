/* cmdline.c - bootmenu.NAME=VALUE words of the kernel command line. */
#include "util/cmdline.h"

#include <stdlib.h>
#include <string.h>

/* The word "bootmenu.@name=..." in @p: its value and length, or NULL. */
static const char *find_value(const char *p, const char *name, size_t *n)
{
	size_t k = strlen(name);

	while (p && *p) {
		size_t w;

		p += strspn(p, " \t\n");
		w = strcspn(p, " \t\n");
		if (w > k + 9 && !strncmp(p, "bootmenu.", 9) &&
		    !strncmp(p + 9, name, k) && p[9 + k] == '=') {
			*n = w - 10 - k;
			return p + 10 + k;
		}
		p += w;
	}
	return NULL;
}

bool cmdline_value(const char *cmdline, const char *name, char *out, size_t len)
{
	size_t n;
	const char *v = find_value(cmdline, name, &n);

	if (len)
		out[0] = '\0';
	if (!v || n >= len)
		return false;
	memcpy(out, v, n);
	out[n] = '\0';
	return n > 0;
}

double cmdline_number(const char *cmdline, const char *name, double def)
{
	char buf[64], *end;
	double v;

	if (!cmdline_value(cmdline, name, buf, sizeof(buf)) || !buf[0])
		return def;
	v = strtod(buf, &end);
	return *end ? def : v;
}
