/* form.h - the editor behind `e`: command line, kernel, initrds. Pure.
 *
 * Three one-line editors (ui/edit.h); Tab, Down and Up move between them,
 * the other keys edit the field under the cursor; Enter finishes, Esc
 * cancels. The initrd field holds the initrd paths separated by spaces.
 * A multiboot entry (Xen) has no initrd field: after its command line and
 * kernel come its modules' strings, one field each (the dom0 kernel's
 * command line is the first module's); the modules' files stay.
 */
#ifndef BM_UI_FORM_H
#define BM_UI_FORM_H

#include "ui/edit.h"

#include <stdbool.h>
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
#define UI_FORM_MODULES 16 /* module fields of a multiboot entry */

struct ui_form {
	/* a multiboot entry's module i is field UI_FORM_INITRD + i */
	struct ui_edit f[UI_FORM_INITRD + UI_FORM_MODULES];
	int cur; /* the field: enum ui_form_field, or a module */
	int n;	 /* fields in use */
	bool mb; /* a multiboot entry: module fields */
	char words[UI_EDIT_MAX]; /* the initrd field cut into paths */
	const char *margs[UI_FORM_MODULES]; /* the modules' edited strings */
};

/* The field's label: "command line", "kernel", "initrd". */
const char *ui_form_label(int field);

/* Fill @f from @e, the cursor at the end of the command line; a
 * multiboot entry's fields are its command line, its kernel and the
 * strings of its first UI_FORM_MODULES modules. */
void ui_form_init(struct ui_form *f, const struct entry *e);

/* Apply @key: Tab and Down go to the next field, Up, Shift-Tab and
 * Ctrl-P to the one before, wrapping; the rest goes to the field's line
 * editor. Returns what the line editor says (Enter: done, Esc: cancel). */
enum ui_edit_rc ui_form_key(struct ui_form *f, int key);

/* The edited entry: a copy of @e into *out whose cmdline, kernel path and
 * initrds (a multiboot entry: its modules' strings) come from @f. out's strings
 * point into @f, its initrds into files[0..UI_FORM_INITRDS) (each on the
 * filesystem the initrd in its place had, else the last one's, else the
 * kernel's), so @f and @files must outlive *out. Returns 0, or -EINVAL with a
 * sentence for the user in err[0..errlen) (an empty kernel path, a path not
 * starting with '/', too many initrds or modules); then *out is left as it was
 * and the fields still hold what was typed. */
int ui_form_apply(struct ui_form *f, const struct entry *e, struct entry *out,
		  struct entry_file *files, char *err, size_t errlen);

#endif
