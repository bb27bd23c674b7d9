/* init_cmdline.h - the few kernel command line options /init reads. */
#ifndef BM_INIT_CMDLINE_H
#define BM_INIT_CMDLINE_H

#include <stdbool.h>

struct init_cmdline {
	bool shell; /* bootmenu.shell: a rescue shell before the menu */
};

/* Parse the text of /proc/cmdline. Unknown words are ignored. */
void init_parse_cmdline(const char *text, struct init_cmdline *out);

#endif
