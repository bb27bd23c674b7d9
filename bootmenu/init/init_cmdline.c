#include "init/init_cmdline.h"

#include <string.h>

/* A word is the whole option "bootmenu.shell" or "bootmenu.shell=1". */
static bool word_is(const char *w, size_t n, const char *opt)
{
	size_t k = strlen(opt);

	if (n == k)
		return !strncmp(w, opt, k);
	return n > k && !strncmp(w, opt, k) && w[k] == '=' &&
	       !(n == k + 2 && w[k + 1] == '0');
}

void init_parse_cmdline(const char *text, struct init_cmdline *out)
{
	memset(out, 0, sizeof(*out));
	while (text && *text) {
		size_t n;

		text += strspn(text, " \t\n");
		n = strcspn(text, " \t\n");
		if (word_is(text, n, "bootmenu.shell"))
			out->shell = true;
		text += n;
	}
}
