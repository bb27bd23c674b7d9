/* cmdline.h - bootmenu.NAME=VALUE words of the kernel command line. */
#ifndef BM_UTIL_CMDLINE_H
#define BM_UTIL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/* The value of the first "bootmenu.@name=VALUE" word in @cmdline (the
 * text of /proc/cmdline; may be NULL) into out[0..len), NUL-terminated.
 * False, with "" in @out, when there is none, it is empty or it does not
 * fit. */
bool cmdline_value(const char *cmdline, const char *name, char *out,
		   size_t len);

/* The number given as "bootmenu.@name=N"; @def when absent or not a
 * number. */
double cmdline_number(const char *cmdline, const char *name, double def);

#endif
