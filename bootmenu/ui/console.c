/* console.c - the console list and each console's terminal type. */
#include "ui/console.h"
#include "util/file.h"

#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static bool name_ok(const char *s, size_t n)
{
	if (n >= 5 && !strncmp(s, "/dev/", 5)) {
		for (size_t i = 5; i + 1 < n; i++)
			if (s[i] == '.' && s[i + 1] == '.')
				return false;
		return n > 5;
	}
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-') ||
		    (c == '.' && i + 1 < n && s[i + 1] == '.'))
			return false;
	}
	return true;
}

static bool seen(char paths[][UI_CONSOLE_PATH], int n, const char *p)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(paths[i], p))
			return true;
	return false;
}

int ui_console_parse(const char *text, char paths[][UI_CONSOLE_PATH], int max)
{
	static const char sep[] = " ,\t\n";
	int n = 0;

	while (*text && n < max) {
		size_t k;
		char p[UI_CONSOLE_PATH];

		text += strspn(text, sep);
		k = strcspn(text, sep);
		if (k && name_ok(text, k) && k + 6 < sizeof(p)) {
			snprintf(p, sizeof(p), "%s%.*s",
				 *text == '/' ? "" : "/dev/", (int)k, text);
			if (!seen(paths, n, p))
				memcpy(paths[n++], p, sizeof(p));
		}
		text += k;
	}
	return n;
}

const char *ui_console_term(bool is_vt, const char *override)
{
	if (is_vt)
		return "linux";
	return override && *override ? override : "vt220";
}

void ui_pick_consoles(const char *opt, bool stdio, char *buf, size_t len)
{
	char tty[64];

	buf[0] = '\0';
	if (opt) {
		snprintf(buf, len, "%s", opt);
		return;
	}
	if (stdio || ttyname_r(0, tty, sizeof(tty)) ||
	    strcmp(tty, "/dev/console"))
		return;
	if (util_read_small(AT_FDCWD, UI_CONSOLE_ACTIVE, buf, len) < 0)
		buf[0] = '\0';
}
