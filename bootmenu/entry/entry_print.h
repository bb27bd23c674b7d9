/* entry_print.h - the --list output, as text and as JSON. */
#ifndef BM_ENTRY_PRINT_H
#define BM_ENTRY_PRINT_H

#include <stdbool.h>
#include <stdio.h>

struct entry;
struct entry_list;

/* One line per entry: "N* title [format] device:kernel initrds -- cmdline",
 * '*' marking @def (the policy's default, choose.h; may be NULL), then the
 * warnings. */
void entry_print_text(FILE *f, const struct entry_list *l,
		      const struct entry *def);
/* One JSON object: "entries", an array of entry objects (see README: id,
 * title, format, kernel, initrds, cmdline, device, source, default,
 * disabled, ...), and "warnings" (device, file, line, message, count). */
void entry_print_json(FILE *f, const struct entry_list *l,
		      const struct entry *def);

#endif
