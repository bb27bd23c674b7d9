/* dialog.c - boxes, details, help, the password prompt, the editor. */
#include "ui/screen.h"
#include "ui/form.h"
#include "boot/boot.h"
#include "boot/measure.h"
#include "boot/secure.h"
#include "conf/auth.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "session/session.h"
#include "format/pe_sig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PASS_TRIES 3
#define PASS_MAX UI_PASS_MAX
#define REPAINT_MS 1000 /* follow resizes of consoles that send no signal */

int ui_wait_key_until(struct ui *u, ui_paint_fn fn, const void *arg,
		      long long end_ms)
{
	for (;;) {
		long long left = end_ms ? end_ms - ui_now_ms() : REPAINT_MS;
		int k;

		if (left <= 0)
			return UI_KEY_NONE;
		ui_paint(u, fn, arg);
		/* devices come and go while a box is open, too */
		k = ui_terms_key(&u->ts,
				 left < REPAINT_MS ? (int)left : REPAINT_MS,
				 session_fd(u->s));
		if (k == UI_TERM_EVENT)
			ui_session_event(u);
		else if (k != UI_KEY_NONE)
			return k;
	}
}

int ui_wait_key(struct ui *u, ui_paint_fn fn, const void *arg)
{
	return ui_wait_key_until(u, fn, arg, 0);
}

struct box {
	enum ui_role role;
	const char *title, *text, *footer;
};

static void paint_box(struct ui *u, const void *arg)
{
	const struct box *b = arg;

	ui_draw_menu(u, NULL);
	ui_draw_box(u, b->role, b->title, b->text, b->footer);
}

int ui_timed_box(struct ui *u, const char *title, const char *text,
		 const char *footer, int ms)
{
	struct box b = {UI_R_ERROR, title, text, footer};

	return ui_wait_key_until(u, paint_box, &b,
				 ui_now_ms() + (ms > 0 ? ms : 1));
}

void ui_dialog(struct ui *u, enum ui_role role, const char *title,
	       const char *text)
{
	struct box b = {role, title, text, "Press any key"};

	ui_wait_key(u, paint_box, &b);
}

/* "/boot/vmlinuz (7.9 MB)" or "(missing)". */
static void file_line(char *buf, size_t len, const char *what,
		      const struct entry *e, const struct entry_file *f)
{
	const struct fs_root *fs = f->fs ? f->fs : f->dev ? NULL : e->fs;
	struct stat st;
	char size[48] = "not found";

	if (fs && f->path && fs_stat(fs, f->path, &st) == 0)
		snprintf(size, sizeof(size), "%.1f MB",
			 (double)st.st_size / (1024 * 1024));
	snprintf(buf, len, "%-8s %s%s%s  (%s)", what, f->dev ? f->dev : "",
		 f->dev ? ":" : "", f->path ? f->path : "-", size);
}

struct info {
	const struct entry *e;
	const char *tpm; /* lines of boot_measure_show(), or NULL */
};

static void paint_info(struct ui *u, const void *arg)
{
	const struct info *in = arg;
	const struct entry *e = in->e;
	const struct fs_root *fs = e->fs;
	char buf[1200], file[1100];
	int y = 1;

	erase();
	ui_line(u, 0, 0, UI_R_TITLE, e->title);
#define INFO(...)                                                              \
	do {                                                                   \
		snprintf(buf, sizeof(buf), __VA_ARGS__);                       \
		if (y < LINES - 1)                                             \
			ui_line(u, y++, 0, UI_R_TEXT, buf);                    \
	} while (0)
	INFO("device:  %s (%s)", fs->device ? fs->device : fs->name,
	     fs->fstype ? fs->fstype : "?");
	INFO("uuid:    %s  label: %s", fs->uuid ? fs->uuid : "-",
	     fs->label ? fs->label : "-");
	INFO("format:  %s", entry_format_name(e->format));
	file_line(file, sizeof(file), "kernel:", e, &e->kernel);
	INFO("%s%s", file,
	     !e->multiboot	 ? ""
	     : e->multiboot == 2 ? "  multiboot2, the hypervisor"
				 : "  multiboot, the hypervisor");
	for (size_t i = 0; e->multiboot && i < e->n_modules; i++) {
		file_line(file, sizeof(file), "module:", e, &e->modules[i]);
		INFO("%s", file);
		if (e->module_args && e->module_args[i] && *e->module_args[i])
			INFO("         %s", e->module_args[i]);
	}
	for (size_t i = 0; i < e->n_initrds; i++) {
		file_line(file, sizeof(file), "initrd:", e, &e->initrds[i]);
		INFO("%s", file);
	}
	INFO("cmdline: %s", e->cmdline ? e->cmdline : "");
	if (e->method == ENTRY_KEXEC) {
		char who[PE_SIG_NAME_MAX * 2 + 16];

		secure_signer(e, who, sizeof(who));
		INFO("signed:  %s", who);
	}
	INFO("source:  %s:%d", e->source ? e->source : "-", e->line);
	for (const char *t = in->tpm; t && *t; t += strcspn(t, "\n") + 1) {
		INFO("tpm:     %.*s", (int)strcspn(t, "\n"), t);
		if (!t[strcspn(t, "\n")])
			break;
	}
	if (e->disabled)
		INFO("cannot boot: %s", e->disabled);
	if (e->password)
		INFO("lilo.conf: password, %s",
		     e->restricted ? "restricted" : "mandatory");
	for (const struct warning *w = u->s->list.warnings; w; w = w->next)
		if (w->fs == fs)
			INFO("warning: %s:%d: %s", w->file ? w->file : "-",
			     w->line, w->msg);
#undef INFO
	ui_line(u, LINES - 1, 0, UI_R_KEYS, "Press any key");
}

/* What booting @e would measure, read once (its files are read and
 * hashed): lines for paint_info(), or NULL without a TPM. */
static char *info_tpm(struct ui *u, const struct entry *e)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return NULL;
	rc = boot_measure_show(e, u->o, f, false, err, sizeof(err));
	if (rc && rc != -ENODEV && rc != -EOPNOTSUPP)
		fprintf(f, "not measured: %s\n", err);
	fclose(f);
	if (len)
		return buf;
	free(buf);
	return NULL;
}

void ui_info(struct ui *u, const struct entry *e)
{
	struct info in = {e, info_tpm(u, e)};

	ui_wait_key(u, paint_info, &in);
	free((void *)in.tpm);
}

static void paint_help(struct ui *u, const void *arg)
{
	static const char *const lines[] = {
	    "Up/Down j/k PgUp/PgDn Home/End  move",
	    "Right/Left  open or close a submenu",
	    "Enter       boot the selected entry",
	    "e           edit the command line, kernel and initrd;",
	    "            Tab or Up/Down moves between them, Enter boots",
	    "i           details: device, files, source line",
	    "d           make the selected entry the saved default",
	    "r           scan the disks again",
	    "s           rescue shell (exit returns here)",
	    "p / b       power off / reboot",
	};

	erase();
	ui_line(u, 0, 0, UI_R_TITLE, "bootmenu keys");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ui_line(u, 2 + (int)i, 0, UI_R_TEXT, lines[i]);
	ui_line(u, LINES - 1, 0, UI_R_KEYS, "Press any key");
}

void ui_help(struct ui *u)
{
	ui_wait_key(u, paint_help, NULL);
}

static void paint_prompt(struct ui *u, const void *arg)
{
	const struct ui_prompt *p = arg;
	char stars[64], text[512];
	size_t n = p->len < sizeof(stars) - 1 ? p->len : sizeof(stars) - 1;

	memset(stars, '*', p->stars ? n : 0);
	stars[p->stars ? n : 0] = '\0';
	snprintf(text, sizeof(text), "%s%s%s %s", p->note,
		 p->note[0] ? " " : "", p->label, stars);
	ui_draw_menu(u, NULL);
	ui_draw_box(u, UI_R_DIALOG, p->title, text, "Enter check  Esc cancel");
}

bool ui_prompt_read(struct ui *u, struct ui_prompt *p, char *buf)
{
	p->len = 0;
	p->expired = false;
	for (;;) {
		/* the deadline holds only until the first key */
		int k = ui_wait_key_until(u, paint_prompt, p, p->deadline_ms);

		if (k == UI_KEY_NONE) {
			p->expired = true;
			k = UI_KEY_ESC;
		} else {
			p->deadline_ms = 0;
			p->touched = true;
		}
		if (k == UI_TERM_GONE || k == UI_KEY_ESC) {
			explicit_bzero(buf, PASS_MAX);
			return false;
		}
		if (k == UI_KEY_ENTER)
			break;
		if (k == UI_KEY_BACKSPACE && p->len)
			p->len--;
		else if (k == UI_KEY_CTRL('u'))
			p->len = 0;
		else if (k >= 0x20 && k <= 0xff && k != 0x7f &&
			 p->len < PASS_MAX - 1)
			buf[p->len++] = (char)k;
	}
	buf[p->len] = '\0';
	return true;
}

bool ui_password(struct ui *u, const char *why)
{
	struct ui_prompt p = {
	    .title = why, .label = "Password:", .stars = true};
	char buf[PASS_MAX];
	bool ok = false;

	for (int i = 0; i < PASS_TRIES && !ok; i++) {
		if (!ui_prompt_read(u, &p, buf)) {
			snprintf(u->msg, sizeof(u->msg), "Cancelled");
			u->msg_role = UI_R_TEXT;
			break;
		}
		ok = auth_check(u->uo->conf->password, buf);
		snprintf(p.note, sizeof(p.note),
			 "Wrong password, try %d of %d.", i + 2, PASS_TRIES);
		if (!ok && i + 1 == PASS_TRIES) {
			snprintf(u->msg, sizeof(u->msg),
				 "Wrong password %d times: back to the menu",
				 PASS_TRIES);
			u->msg_role = UI_R_ERROR;
		}
	}
	explicit_bzero(buf, sizeof(buf));
	u->unlocked |= ok;
	return ok;
}

struct formview {
	const struct entry *e;
	const struct ui_form *f;
	const char *err;
};

/* Where a path of @f is looked up: its filesystem's name. */
static const char *file_where(const struct entry *e, const struct entry_file *f)
{
	if (f->fs && f->fs->name)
		return f->fs->name;
	if (f->dev)
		return f->dev;
	return e->fs && e->fs->name ? e->fs->name : "?";
}

/* One field: label, then the text scrolled so the cursor shows. */
static void draw_field(struct ui *u, const struct formview *v, int i, int y)
{
	const struct ui_edit *ed = &v->f->f[i];
	const struct entry *e = v->e;
	int w = COLS - 3, off;
	char label[300];

	if (i == UI_FORM_KERNEL)
		snprintf(label, sizeof(label), "kernel (on %s)",
			 file_where(e, &e->kernel));
	else if (v->f->mb)
		snprintf(label, sizeof(label), "module %d: %s (its string)",
			 i - UI_FORM_INITRD + 1,
			 e->modules[i - UI_FORM_INITRD].path
			     ? e->modules[i - UI_FORM_INITRD].path
			     : "?");
	else if (i == UI_FORM_INITRD)
		snprintf(label, sizeof(label),
			 "initrd (on %s; several: "
			 "separated by spaces)",
			 e->n_initrds ? file_where(e, &e->initrds[0])
				      : file_where(e, &e->kernel));
	else
		snprintf(label, sizeof(label), "%s", ui_form_label(i));
	off = ed->cur >= (size_t)w ? (int)ed->cur - w + 1 : 0;
	ui_line(u, y, 0, i == v->f->cur ? UI_R_FS : UI_R_TEXT, label);
	ui_line(u, y + 1, 2, UI_R_TEXT, ed->buf + off);
}

static void paint_form(struct ui *u, const void *arg)
{
	const struct formview *v = arg;
	const struct ui_edit *ed = &v->f->f[v->f->cur];
	int w = COLS - 3, off;

	erase();
	ui_line(u, 0, 0, UI_R_TITLE, v->e->title);
	ui_line(u, 1, 0, UI_R_TEXT,
		v->f->mb ? "Edit the command line, kernel and modules' strings "
			   "(Tab moves between them):"
			 : "Edit the command line, kernel and initrd "
			   "(Tab moves between them):");
	for (int i = 0; i < v->f->n && 3 + 3 * i + 1 < LINES - 2; i++)
		draw_field(u, v, i, 3 + 3 * i);
	if (v->err)
		ui_line(u, LINES - 2, 0, UI_R_ERROR, v->err);
	ui_line(u, LINES - 1, 0, UI_R_KEYS,
		"Enter boot  Esc cancel  "
		"Tab/Up/Down field  Ctrl-U/Ctrl-K cut");
	off = ed->cur >= (size_t)w ? (int)ed->cur - w + 1 : 0;
	move(3 + 3 * v->f->cur + 1, 2 + (int)ed->cur - off);
	curs_set(1);
}

bool ui_edit_form(struct ui *u, const struct entry *e, struct ui_form *f,
		  struct entry *out, struct entry_file *files)
{
	char err[300];
	struct formview v = {.e = e, .f = f};

	ui_form_init(f, e);
	for (;;) {
		int k = ui_wait_key(u, paint_form, &v);

		if (k == UI_TERM_GONE)
			return false;
		switch (ui_form_key(f, k)) {
		case UI_EDIT_MORE:
			break;
		case UI_EDIT_CANCEL:
			return false;
		case UI_EDIT_DONE:
			if (ui_form_apply(f, e, out, files, err, sizeof(err)) ==
			    0)
				return true;
			v.err = err;
			break;
		}
	}
}
