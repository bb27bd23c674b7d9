/* form.c - the three-field editor. */
#include "ui/form.h"
#include "ui/key.h"
#include "entry/entry.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *ui_form_label(int field)
{
	static const char *const names[UI_FORM_FIELDS] = {
	    "command line",
	    "kernel",
	    "initrd",
	};

	return field >= 0 && field < UI_FORM_FIELDS ? names[field] : "?";
}

/* "a b c" from @e's initrd paths; cut where the field is full. */
static void initrd_text(char *buf, size_t len, const struct entry *e)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < e->n_initrds && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      e->initrds[i].path ? e->initrds[i].path
							 : "");
}

/* A multiboot entry's module strings, one field each. */
static void module_fields(struct ui_form *f, const struct entry *e)
{
	size_t n =
	    e->n_modules < UI_FORM_MODULES ? e->n_modules : UI_FORM_MODULES;

	for (size_t i = 0; i < n; i++)
		ui_edit_init(&f->f[UI_FORM_INITRD + i],
			     e->module_args && e->module_args[i]
				 ? e->module_args[i]
				 : "");
	f->n = UI_FORM_INITRD + (int)n;
}

void ui_form_init(struct ui_form *f, const struct entry *e)
{
	ui_edit_init(&f->f[UI_FORM_CMDLINE], e->cmdline ? e->cmdline : "");
	ui_edit_init(&f->f[UI_FORM_KERNEL],
		     e->kernel.path ? e->kernel.path : "");
	f->mb = e->multiboot != 0;
	f->n = UI_FORM_FIELDS;
	if (f->mb) {
		module_fields(f, e);
	} else {
		initrd_text(f->words, sizeof(f->words), e);
		ui_edit_init(&f->f[UI_FORM_INITRD], f->words);
	}
	f->cur = UI_FORM_CMDLINE;
}

enum ui_edit_rc ui_form_key(struct ui_form *f, int key)
{
	switch (key) {
	case '\t':
	case UI_KEY_DOWN:
		f->cur = (f->cur + 1) % f->n;
		return UI_EDIT_MORE;
	case UI_KEY_UP:
	case UI_KEY_BACKTAB:
	case UI_KEY_CTRL('p'):
		f->cur = (f->cur + f->n - 1) % f->n;
		return UI_EDIT_MORE;
	}
	return ui_edit_key(&f->f[f->cur], key);
}

static const struct entry_file *file_like(const struct entry *e, size_t i)
{
	if (i < e->n_initrds)
		return &e->initrds[i];
	if (e->n_initrds)
		return &e->initrds[e->n_initrds - 1];
	return &e->kernel;
}

/* Cut @text into words in place; each becomes an initrd in @files. */
static int split_initrds(char *text, const struct entry *e,
			 struct entry_file *files, size_t *n, char *err,
			 size_t errlen)
{
	char *save = NULL;

	*n = 0;
	for (char *w = strtok_r(text, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		const struct entry_file *like = file_like(e, *n);

		if (*n == UI_FORM_INITRDS) {
			snprintf(err, errlen, "at most %d initrds",
				 UI_FORM_INITRDS);
			return -EINVAL;
		}
		if (*w != '/') {
			snprintf(err, errlen,
				 "initrd \"%s\": a path starts "
				 "with /",
				 w);
			return -EINVAL;
		}
		files[*n].dev = like->dev;
		files[*n].fs = like->fs;
		files[(*n)++].path = w;
	}
	return 0;
}

/* A multiboot entry: the modules keep their files and get the strings of
 * their fields. */
static int apply_modules(struct ui_form *f, const struct entry *e,
			 struct entry *out, char *err, size_t errlen)
{
	if (e->n_modules > UI_FORM_MODULES) {
		snprintf(err, errlen,
			 "this entry has %zu modules; the editor takes at "
			 "most %d: edit its config instead",
			 e->n_modules, UI_FORM_MODULES);
		return -EINVAL;
	}
	for (size_t i = 0; i < e->n_modules; i++)
		f->margs[i] = f->f[UI_FORM_INITRD + i].buf;
	*out = *e;
	out->cmdline = f->f[UI_FORM_CMDLINE].buf;
	out->kernel.path = f->f[UI_FORM_KERNEL].buf;
	out->module_args = e->n_modules ? f->margs : NULL;
	return 0;
}

int ui_form_apply(struct ui_form *f, const struct entry *e, struct entry *out,
		  struct entry_file *files, char *err, size_t errlen)
{
	const char *kernel = f->f[UI_FORM_KERNEL].buf;
	size_t n;
	int rc;

	if (!*kernel) {
		snprintf(err, errlen, "the kernel path is empty");
		return -EINVAL;
	}
	if (*kernel != '/') {
		snprintf(err, errlen, "kernel \"%s\": a path starts with /",
			 kernel);
		return -EINVAL;
	}
	if (f->mb)
		return apply_modules(f, e, out, err, errlen);
	memcpy(f->words, f->f[UI_FORM_INITRD].buf, sizeof(f->words));
	rc = split_initrds(f->words, e, files, &n, err, errlen);
	if (rc)
		return rc;
	*out = *e;
	out->cmdline = f->f[UI_FORM_CMDLINE].buf;
	out->kernel.path = kernel;
	out->initrds = n ? files : NULL;
	out->n_initrds = n;
	return 0;
}
