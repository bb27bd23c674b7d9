/* form.h - the editor behind `e`: command line, kernel, initrds. Pure.
 *
 * Three one-line editors (ui/edit.h); Tab, Down and Up move between them,
 * the other keys edit the field under the cursor; Enter finishes, Esc
 * cancels. The initrd field holds the initrd paths separated by spaces.
 */
#ifndef BM_UI_FORM_H
#define BM_UI_FORM_H

#include "ui/edit.h"

#include <stddef.h>

struct entry;
struct entry_file;

enum ui_form_field {
	UI_FORM_CMDLINE,
	UI_FORM_KERNEL,
	UI_FORM_INITRD,
	UI_FORM_FIELDS
};

#define UI_FORM_INITRDS 16 /* initrds an edited entry may have */

struct ui_form {
	struct ui_edit f[UI_FORM_FIELDS];
	int cur;		 /* enum ui_form_field */
	char words[UI_EDIT_MAX]; /* the initrd field cut into paths */
};

/* The field's label: "command line", "kernel", "initrd". */
const char *ui_form_label(int field);

/* Fill @f from @e, the cursor at the end of the command line. */
void ui_form_init(struct ui_form *f, const struct entry *e);

/* Apply @key: Tab and Down go to the next field, Up, Shift-Tab and
 * Ctrl-P to the one before, wrapping; the rest goes to the field's line
 * editor. Returns what the line editor says (Enter: done, Esc: cancel). */
enum ui_edit_rc ui_form_key(struct ui_form *f, int key);

/* The edited entry: a copy of @e into *out whose cmdline, kernel path and
 * initrds come from @f. out's strings point into @f, its initrds into
 * files[0..UI_FORM_INITRDS) (each on the filesystem the initrd in its
 * place had, else the last one's, else the kernel's), so @f and @files
 * must outlive *out. Returns 0, or -EINVAL with a sentence for the user in
 * err[0..errlen) (an empty kernel path, a path not starting with '/', too
 * many initrds); then *out is left as it was and the fields still hold
 * what was typed. */
int ui_form_apply(struct ui_form *f, const struct entry *e, struct entry *out,
		  struct entry_file *files, char *err, size_t errlen);

#endif
