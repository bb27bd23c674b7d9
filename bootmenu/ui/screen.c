/* screen.c - the ncurses menu: drawing, keys, editing, booting. */
#include "ui/ui.h"
#include "ui/edit.h"
#include "ui/key.h"
#include "ui/model.h"
#include "boot.h"
#include "entry.h"
#include "scan/fs.h"
#include "session.h"

#include <ncursesw/curses.h>

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <linux/kd.h>
#include <time.h>
#include <unistd.h>

#define ESC_WAIT_MS 60
#define KEY_GONE (-1000) /* stdin closed or failed */

struct ui {
	struct session *s;
	const struct boot_opts *o;
	struct ui_model m;
	struct ui_keydec kd;
	SCREEN *scr;
	bool utf8;
	char msg[512];
};

static struct session *jump_session;
static volatile sig_atomic_t resized;

static void unmount_hook(void)
{
	if (jump_session)
		session_unmount(jump_session);
}

static void on_winch(int sig)
{
	resized = 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Print @s in at most @w columns; non-ASCII bytes as '?' unless UTF-8. */
static void put(struct ui *u, const char *s, int w)
{
	int col = 0;

	for (; *s && col < w; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80 && u->utf8) {
			addch(c);
			col += (c & 0xc0) != 0x80; /* count lead bytes only */
		} else {
			addch(c < 0x20 || c >= 0x7f ? '?' : c);
			col++;
		}
	}
}

static void line_at(struct ui *u, int y, int attr, const char *text)
{
	move(y, 0);
	clrtoeol();
	attron(attr);
	put(u, text, COLS);
	attroff(attr);
}

static void draw_row(struct ui *u, int y, const struct ui_row *r, bool sel)
{
	char buf[1024];
	int attr = sel ? A_REVERSE : 0;
	const struct entry *e = r->e;

	if (r->kind == UI_ROW_FS) {
		snprintf(buf, sizeof(buf), "%s  %s  %s%s%s", r->fs->name,
			 r->fs->fstype ? r->fs->fstype : "?",
			 r->fs->label ? r->fs->label : "",
			 r->configs ? "  " : "", r->configs ? r->configs : "");
		attr = A_BOLD;
	} else if (r->kind == UI_ROW_GROUP) {
		snprintf(buf, sizeof(buf), "%*s%s %s", 2 + 2 * r->depth, "",
			 r->open ? "[-]" : "[+]", r->label);
	} else {
		snprintf(buf, sizeof(buf), "%*s%c %s%s%s%s", 2 + 2 * r->depth, "",
			 e == u->m.def ? '*' : ' ', e->title,
			 e->disabled ? "  (" : "", e->disabled ? e->disabled : "",
			 e->disabled ? ")" : "");
		if (e->disabled)
			attr |= A_DIM;
	}
	line_at(u, y, attr, buf);
}

static void draw(struct ui *u, long long now)
{
	char buf[600];
	int h = LINES - 4, left = ui_count_left(&u->m, now);
	const struct entry *def = u->m.def;

	erase();
	snprintf(buf, sizeof(buf), "bootmenu %s - %zu entries on %zu filesystems",
		 BOOTMENU_VERSION, u->s->list.count, u->s->n_fss);
	line_at(u, 0, A_REVERSE, buf);
	ui_model_scroll(&u->m, h);
	for (int i = 0; i < h && u->m.top + i < u->m.n_rows; i++)
		draw_row(u, 1 + i, &u->m.rows[u->m.top + i],
			 u->m.top + i == u->m.sel);
	if (left >= 0 && def)
		snprintf(buf, sizeof(buf), "Booting %s in %d s", def->title, left);
	else
		snprintf(buf, sizeof(buf), "%s", u->msg);
	line_at(u, LINES - 2, A_BOLD, buf);
	line_at(u, LINES - 1, 0, "Enter boot  e edit  i info  s shell  "
		"p off  b reboot  ? help");
	refresh();
}

/* Wait up to @ms for a key; UI_KEY_NONE on timeout. */
static int get_key(struct ui *u, int ms)
{
	for (;;) {
		struct pollfd p = { .fd = 0, .events = POLLIN };
		unsigned char c;
		int k, rc;

		if (ui_key_pending(&u->kd))
			ms = ESC_WAIT_MS;
		rc = poll(&p, 1, ms);
		if (rc == 0)
			return ui_key_timeout(&u->kd);
		if (rc < 0)
			return errno == EINTR ? UI_KEY_NONE : KEY_GONE;
		if (read(0, &c, 1) != 1)
			return KEY_GONE;
		k = ui_key_feed(&u->kd, c);
		if (k != UI_KEY_NONE && k != UI_KEY_UNKNOWN)
			return k;
	}
}

/* A box with @text, until a key. */
static void dialog(struct ui *u, const char *title, const char *text)
{
	int w = COLS - 4, y = LINES / 2 - 2;

	for (int i = 0; i < 5; i++)
		line_at(u, y + i, A_REVERSE, "");
	move(y + 1, 2);
	attron(A_REVERSE | A_BOLD);
	put(u, title, w);
	attroff(A_BOLD);
	move(y + 2, 2);
	put(u, text, w);
	move(y + 3, 2);
	put(u, "Press any key", w);
	attroff(A_REVERSE);
	refresh();
	while (get_key(u, -1) == UI_KEY_NONE)
		;
}

static void progress(void *data, unsigned long long done,
		     unsigned long long total)
{
	struct ui *u = data;
	char bar[64];
	int n = total ? (int)(done * 40 / total) : 40;

	memset(bar, '#', n);
	memset(bar + n, '.', 40 - n);
	bar[40] = '\0';
	snprintf(u->msg, sizeof(u->msg), "Loading [%s] %llu%%", bar,
		 total ? done * 100 / total : 100);
	line_at(u, LINES - 2, A_BOLD, u->msg);
	refresh();
}

static int boot(struct ui *u, const struct entry *e)
{
	struct boot_opts bo = *u->o;
	const char *used = "kexec";
	char err[512], *plan = NULL;
	size_t plan_len = 0;
	int rc;

	if (e->disabled) {
		dialog(u, e->title, e->disabled);
		return -EINVAL;
	}
	bo.progress = progress;
	bo.progress_data = u;
	bo.syscall_used = &used;
	if (bo.dry_run)
		bo.plan_out = open_memstream(&plan, &plan_len);
	rc = boot_load_entry(e, &bo, err, sizeof(err));
	if (bo.plan_out)
		fclose(bo.plan_out);
	if (rc < 0) {
		free(plan);
		dialog(u, "Cannot boot this entry", err);
		return rc;
	}
	if (bo.dry_run) {
		endwin();
		printf("bootmenu: would boot \"%s\"\n", e->title);
		fwrite(plan, 1, plan_len, stdout);
		free(plan);
		return 0;
	}
	snprintf(u->msg, sizeof(u->msg), "Starting %s (loaded with %s)",
		 e->title, used);
	line_at(u, LINES - 2, A_BOLD, u->msg);
	refresh();
	endwin();
	jump_session = u->s;
	/* the point of no return, when the jump works */
	rc = boot_jump(unmount_hook);
	refresh();
	snprintf(err, sizeof(err), "the jump failed: %s", strerror(-rc));
	dialog(u, e->title, err);
	return rc;
}

/* The one-line editor on the bottom lines; true when Enter was pressed. */
static bool edit_line(struct ui *u, struct ui_edit *ed, const char *what)
{
	for (;;) {
		int w = COLS - 1, off, k;

		off = ed->cur >= (size_t)w ? (int)ed->cur - w + 1 : 0;
		line_at(u, LINES - 3, A_BOLD, what);
		line_at(u, LINES - 2, 0, ed->buf + off);
		line_at(u, LINES - 1, 0, "Enter boot  Esc cancel  "
			"Ctrl-U/Ctrl-K cut");
		move(LINES - 2, (int)ed->cur - off);
		refresh();
		k = get_key(u, -1);
		if (k == KEY_GONE)
			return false;
		switch (ui_edit_key(ed, k)) {
		case UI_EDIT_DONE: return true;
		case UI_EDIT_CANCEL: return false;
		case UI_EDIT_MORE: break;
		}
	}
}

static int edit_and_boot(struct ui *u, const struct entry *e)
{
	static struct ui_edit ed;
	struct entry copy = *e;
	int rc;

	ui_edit_init(&ed, e->cmdline ? e->cmdline : "");
	curs_set(1);
	rc = edit_line(u, &ed, "Edit the command line:");
	curs_set(0);
	if (!rc)
		return -ECANCELED;
	copy.cmdline = ed.buf;
	return boot(u, &copy);
}

static void info(struct ui *u, const struct entry *e)
{
	const struct fs_root *fs = e->fs;
	int y = 1;
	char buf[1024];

	erase();
	line_at(u, 0, A_REVERSE, e->title);
#define INFO(...) do { snprintf(buf, sizeof(buf), __VA_ARGS__); \
		if (y < LINES - 1) line_at(u, y++, 0, buf); } while (0)
	INFO("device:  %s (%s)", fs->device ? fs->device : fs->name,
	     fs->fstype ? fs->fstype : "?");
	INFO("uuid:    %s  label: %s", fs->uuid ? fs->uuid : "-",
	     fs->label ? fs->label : "-");
	INFO("format:  %s", entry_format_name(e->format));
	INFO("kernel:  %s%s%s", e->kernel.dev ? e->kernel.dev : "",
	     e->kernel.dev ? ":" : "", e->kernel.path ? e->kernel.path : "-");
	for (size_t i = 0; i < e->n_initrds; i++)
		INFO("initrd:  %s", e->initrds[i].path);
	INFO("cmdline: %s", e->cmdline ? e->cmdline : "");
	INFO("source:  %s:%d", e->source ? e->source : "-", e->line);
	if (e->disabled)
		INFO("cannot boot: %s", e->disabled);
	for (const struct warning *w = u->s->list.warnings; w; w = w->next)
		if (w->fs == fs)
			INFO("warning: %s:%d: %s", w->file ? w->file : "-",
			     w->line, w->msg);
#undef INFO
	line_at(u, LINES - 1, 0, "Press any key");
	refresh();
	while (get_key(u, -1) == UI_KEY_NONE)
		;
}

static void help(struct ui *u)
{
	static const char *const lines[] = {
		"Up/Down j/k PgUp/PgDn Home/End  move",
		"Right/Left  open or close a submenu",
		"Enter       boot the selected entry",
		"e           edit its command line, Enter boots it",
		"i           details: device, files, source line",
		"s           rescue shell (exit returns here)",
		"p / b       power off / reboot",
	};

	erase();
	line_at(u, 0, A_REVERSE, "bootmenu keys");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		line_at(u, 2 + (int)i, 0, lines[i]);
	line_at(u, LINES - 1, 0, "Press any key");
	refresh();
	while (get_key(u, -1) == UI_KEY_NONE)
		;
}

static void shell(struct ui *u)
{
	pid_t pid;

	endwin();
	fputs("bootmenu: rescue shell; exit returns to the menu\n", stdout);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

static struct session *power_session;

static void power_unmount(void)
{
	if (power_session)
		session_unmount(power_session);
}

/* Power off or reboot; with --dry-run only says so and leaves. */
static int power(struct ui *u, bool off)
{
	int rc;

	endwin();
	if (u->o->dry_run) {
		printf("bootmenu: would %s\n", off ? "power off" : "reboot");
		return 0;
	}
	power_session = u->s;
	rc = boot_power(off, power_unmount);
	fprintf(stderr, "bootmenu: %s: %s\n", off ? "power off" : "reboot",
		strerror(-rc));
	return 1;
}

/* One key in the list. Returns -1 to go on, else the exit status. */
static int on_key(struct ui *u, int k)
{
	const struct entry *e = ui_model_selected(&u->m);
	int page = LINES - 5 > 1 ? LINES - 5 : 1;

	switch (k) {
	case UI_KEY_UP: case 'k': ui_model_move(&u->m, -1); break;
	case UI_KEY_DOWN: case 'j': ui_model_move(&u->m, 1); break;
	case UI_KEY_PGUP: ui_model_move(&u->m, -page); break;
	case UI_KEY_PGDN: ui_model_move(&u->m, page); break;
	case UI_KEY_HOME: ui_model_home(&u->m); break;
	case UI_KEY_END: ui_model_end(&u->m); break;
	case UI_KEY_RIGHT: ui_model_set_open(&u->m, &u->s->list, 1); break;
	case UI_KEY_LEFT: ui_model_set_open(&u->m, &u->s->list, 0); break;
	case UI_KEY_ENTER: case ' ':
		if (!e)
			ui_model_set_open(&u->m, &u->s->list, -1);
		else if (boot(u, e) == 0)
			return 0;
		break;
	case 'e':
		if (e && edit_and_boot(u, e) == 0)
			return 0;
		break;
	case 'i': if (e) info(u, e); break;
	case '?': case 'h': help(u); break;
	case 's': shell(u); break;
	case 'p': return power(u, true);
	case 'b': return power(u, false);
	}
	return -1;
}

static int loop(struct ui *u, double timeout_s)
{
	ui_count_start(&u->m, u->m.def ? (int)(timeout_s + 0.999) : -1,
		       now_ms());
	for (;;) {
		long long t = now_ms();
		int k, rc;

		if (ui_count_expired(&u->m, t)) {
			if (boot(u, u->m.def) == 0)
				return 0;
			continue;
		}
		if (resized) {
			struct winsize ws;

			resized = 0;
			if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col)
				resizeterm(ws.ws_row, ws.ws_col);
		}
		draw(u, t);
		k = get_key(u, 250);
		if (k == KEY_GONE)
			return 1;
		if (k == UI_KEY_NONE)
			continue;
		ui_count_stop(&u->m);
		u->msg[0] = '\0';
		rc = on_key(u, k);
		if (rc >= 0)
			return rc;
	}
}

/* A VT answers KDGKBTYPE; a serial line does not. */
static const char *pick_term(void)
{
	const char *t = getenv("TERM");
	char kb;

	if (t && *t && strcmp(t, "linux"))
		return t;
	if (ioctl(0, KDGKBTYPE, &kb) == 0)
		return "linux";
	return "vt220";
}

static int start(struct ui *u)
{
	const char *term = pick_term(), *cs;

	if (!isatty(0) || !isatty(1) || !strcmp(term, "dumb"))
		return -ENOTTY;
	setlocale(LC_ALL, "");
	cs = setlocale(LC_CTYPE, NULL);
	u->utf8 = cs && (strstr(cs, "UTF-8") || strstr(cs, "utf8"));
	u->scr = newterm(term, stdout, stdin);
	if (!u->scr)
		return -ENOTTY;
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	signal(SIGWINCH, on_winch);
	return 0;
}

int ui_menu(struct session *s, const struct ui_opts *uo,
	    const struct boot_opts *o)
{
	struct ui u = { .s = s, .o = o };
	int rc = start(&u);

	if (rc < 0)
		return rc;
	rc = ui_model_build(&u.m, &s->list, uo->def);
	if (rc == 0)
		rc = loop(&u, uo->timeout_s);
	else
		rc = 1;
	if (!isendwin())
		endwin();
	delscreen(u.scr);
	ui_model_free(&u.m);
	return rc;
}
