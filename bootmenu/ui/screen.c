/* screen.c - the menu's loop: keys, session events, booting. */
#include "ui/screen.h"
#include "ui/form.h"
#include "choose/lock.h"
#include "boot/boot.h"
#include "boot/transaction.h"
#include "boot/secure.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "savedef/savedef.h"
#include "session/session.h"
#include "choose/choose.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 250 /* the countdown's and the resize check's pace */

static void unmount_hook(void *ctx)
{
	session_unmount(ctx);
}

static void on_winch(int sig)
{
	/* only interrupts poll(); every paint checks the sizes */
}

long long ui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void say(struct ui *u, enum ui_role role, const char *fmt,
		const char *arg)
{
	snprintf(u->msg, sizeof(u->msg), fmt, arg);
	u->msg_role = role;
}

/* May @act on @e go ahead? Asks for the password when it must. */
static bool allowed(struct ui *u, enum choose_act act, const struct entry *e)
{
	static const char *const why[] = {
	    [CHOOSE_ACT_BOOT] = "Booting this entry needs the password",
	    [CHOOSE_ACT_EDIT] = "Editing needs the password",
	    [CHOOSE_ACT_SHELL] = "The shell needs the password",
	    [CHOOSE_ACT_SAVE] = "Saving a default needs the password",
	};

	switch (choose_lock_need(u->uo->conf->password, u->unlocked, act, e,
				 u->m.def)) {
	case CHOOSE_LOCK_FREE:
		return true;
	case CHOOSE_LOCK_ASK:
		return ui_password(u, why[act]);
	case CHOOSE_LOCK_LOCKED:
		ui_dialog(u, UI_R_ERROR, e ? e->title : "Locked",
			  "lilo.conf protects this entry with a password; set "
			  "password in bootmenu.conf to unlock it here.");
		return false;
	}
	return false;
}

/* "[####....] 45%": @width cells of bar for @done of @total, into out. */
static void bar_put(char *out, size_t len, int width, unsigned long long done,
		    unsigned long long total)
{
	char bar[48];
	int n = total ? (int)(done * (unsigned long long)width / total) : width;

	if (n > width)
		n = width;
	memset(bar, '#', (size_t)n);
	memset(bar + n, '.', (size_t)(width - n));
	bar[width] = '\0';
	snprintf(out, len, "[%s] %llu%%", bar,
		 total ? (done < total ? done : total) * 100 / total : 100);
}

static void progress(void *data, unsigned long long done,
		     unsigned long long total)
{
	struct ui *u = data;
	char bar[64];

	bar_put(bar, sizeof(bar), 40, done, total);
	snprintf(u->msg, sizeof(u->msg), "Loading %s", bar);
	u->msg_role = UI_R_COUNT;
	ui_paint(u, ui_draw_menu, NULL);
}

/* A network file's line: the same bar as a local file's when the server
 * gave the total, the bytes so far, the rate since this file began. */
static void fetch_line(struct ui *u, const char *name, unsigned long long done,
		       unsigned long long total, long long ms)
{
	char bar[64] = "", size[64];
	double rate = ms > 0 ? done / 1048576.0 * 1000.0 / ms : 0;
	size_t n;

	if (total) {
		bar_put(bar, sizeof(bar), 20, done, total);
		snprintf(size, sizeof(size), "%.1f of %.1f MiB",
			 done / 1048576.0, total / 1048576.0);
	} else
		snprintf(size, sizeof(size), "%.1f MiB", done / 1048576.0);
	n = (size_t)snprintf(u->msg, sizeof(u->msg),
			     "Loading %s%s%.24s: %s at %.1f MiB/s", bar,
			     bar[0] ? "  " : "", name, size, rate);
	/* Esc's hint when the line still fits 80 columns */
	if (n + 15 <= 80 && n + 15 < sizeof(u->msg))
		strcat(u->msg, "  (Esc cancels)");
}

/* A network file being fetched: drawn twice a second (and at its end).
 * Esc cancels. */
static int fetching(void *data, const char *path, unsigned long long done,
		    unsigned long long total)
{
	struct ui *u = data;
	const char *slash = strrchr(path, '/');
	long long now = ui_now_ms();
	int k = ui_terms_key(&u->ts, 0, -1);

	if (k == UI_KEY_ESC)
		return 1;
	if (path != u->fetch_path || done < u->fetch_done) {
		u->fetch_path = path; /* a new file: its rate from now */
		u->fetch_start_ms = now;
	}
	u->fetch_done = done;
	if (now - u->fetch_drawn_ms < 500 && (!total || done < total))
		return 0;
	u->fetch_drawn_ms = now;
	fetch_line(u, slash && slash[1] ? slash + 1 : path, done, total,
		   now - u->fetch_start_ms);
	u->msg_role = UI_R_COUNT;
	ui_paint(u, ui_draw_menu, NULL);
	return 0;
}

/* The boot's sentences (boot/transaction.h): the loading bar at once,
 * before the first byte; then the "Starting" line. */
static void said(void *data, enum boot_say what, const char *text)
{
	struct ui *u = data;

	if (what == BOOT_SAY_LOADING) {
		ui_count_stop(&u->m);
		u->fetch_drawn_ms = 0;
		u->fetch_path = NULL;
		progress(u, 0, 1);
		return;
	}
	snprintf(u->msg, sizeof(u->msg), "%s", text);
	u->msg_role = UI_R_COUNT;
	ui_paint(u, ui_draw_menu, NULL);
}

static void terms_suspend(void *data)
{
	struct ui *u = data;

	ui_terms_suspend(&u->ts);
}

static void terms_resume(void *data)
{
	struct ui *u = data;

	ui_terms_resume(&u->ts);
}

/* Boot @e (boot_run()). 0 after a dry run; -errno with the reason in
 * @err when it failed. */
static int load_jump(struct ui *u, const struct entry *e, char *err, size_t len)
{
	const struct boot_front f = {.say = said,
				     .progress = progress,
				     .fetch = fetching,
				     .suspend = terms_suspend,
				     .resume = terms_resume,
				     .ctx = u};
	int rc = boot_run(e, u->o, &f, err, len);

	u->msg[0] = '\0';
	return rc;
}

/* A boot chosen by key: a failure is a dialog that waits for a key. */
static int boot(struct ui *u, const struct entry *e)
{
	char err[512];
	int rc = load_jump(u, e, err, sizeof(err));

	if (rc < 0)
		ui_dialog(u, UI_R_ERROR,
			  e->disabled ? e->title : "Cannot boot this entry",
			  err);
	return rc;
}

static int try_boot(struct ui *u, const struct entry *e)
{
	if (!allowed(u, CHOOSE_ACT_BOOT, e))
		return -EACCES;
	return boot(u, e);
}

static int edit_and_boot(struct ui *u, const struct entry *e)
{
	static struct ui_form f;
	static struct entry_file files[UI_FORM_INITRDS];
	struct entry copy;

	if (!allowed(u, CHOOSE_ACT_EDIT, e))
		return -EACCES;
	if (!ui_edit_form(u, e, &f, &copy, files))
		return -ECANCELED;
	return boot(u, &copy);
}

/* `d`: the selection becomes the saved default. */
static void save_default(struct ui *u, const struct entry *e)
{
	char err[300], text[600];
	int rc;

	if (!allowed(u, CHOOSE_ACT_SAVE, e))
		return;
	rc = savedef_save(u->s, u->uo->conf, e, err, sizeof(err));
	if (rc < 0) {
		if (!err[0])
			snprintf(err, sizeof(err), "%s", strerror(-rc));
		ui_dialog(u, UI_R_ERROR, "The default was not saved", err);
		return;
	}
	snprintf(u->uo->choose->saved_id, sizeof(u->uo->choose->saved_id), "%s",
		 e->id ? e->id : "");
	u->m.def = e;
	snprintf(text, sizeof(text), "\"%s\" boots by default from now on.",
		 e->title);
	ui_dialog(u, UI_R_DIALOG, "Default saved", text);
}

/* The shell runs on the terminal the key came from, in our session: a
 * session of its own would hang that line up when it ends (the kernel
 * does so when a session leader exits), taking our screen with it. */
static void shell_child(struct ui_term *t)
{
	static const int dfl[] = {SIGINT,  SIGQUIT, SIGTSTP,
				  SIGTTIN, SIGTTOU, SIGWINCH};

	for (size_t i = 0; i < sizeof(dfl) / sizeof(dfl[0]); i++)
		signal(dfl[i], SIG_DFL);
	if (t->path[0]) {
		int fd = open(t->path, O_RDWR | O_NOCTTY);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
	}
	execl("/bin/sh", "sh", (char *)NULL);
	_exit(127);
}

/* A shell with job control took the foreground of our terminal; take it
 * back (SIGTTOU is ignored, so a background call does not stop us). */
static void take_foreground(struct ui *u)
{
	for (int i = 0; i < u->ts.n; i++) {
		int fd = u->ts.t[i].fd;

		if (!u->ts.t[i].dead && tcgetsid(fd) == getsid(0) &&
		    tcgetpgrp(fd) != getpgrp())
			tcsetpgrp(fd, getpgrp());
	}
}

static void shell_say(struct ui *u, const struct ui_term *t)
{
	for (int i = 0; i < u->ts.n; i++) {
		const struct ui_term *o = &u->ts.t[i];

		if (o->dead)
			continue;
		fprintf(o->out,
			"bootmenu: rescue shell%s%s; exit returns to "
			"the menu\n",
			o == t || !t->path[0] ? "" : " on ",
			o == t ? "" : t->path);
		fflush(o->out);
	}
}

static void shell(struct ui *u)
{
	struct ui_term *t = &u->ts.t[u->ts.from];
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	pid_t pid;

	if (!allowed(u, CHOOSE_ACT_SHELL, NULL))
		return;
	ui_terms_suspend(&u->ts);
	shell_say(u, t);
	/* Ctrl-C in the shell reaches our process group too */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0)
		shell_child(t);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	take_foreground(u);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	ui_terms_resume(&u->ts);
}

/* Power off or reboot; with --dry-run only says so and leaves. */
static int power(struct ui *u, bool off)
{
	int rc;

	ui_terms_suspend(&u->ts);
	if (u->o->dry_run) {
		printf("bootmenu: would %s\n", off ? "power off" : "reboot");
		return 0;
	}
	rc = boot_power(off, unmount_hook, u->s);
	fprintf(stderr, "bootmenu: %s: %s\n", off ? "power off" : "reboot",
		strerror(-rc));
	return 1;
}

/* The rows again from the session's list; the default follows the list,
 * and the selection follows the default until a key was pressed. */
static void rebuild(struct ui *u)
{
	const struct entry *def = choose_default(u->uo->choose, &u->s->list);

	if (ui_model_build(&u->m, &u->s->list, def) < 0)
		say(u, UI_R_ERROR, "%s", "out of memory");
	if (!u->touched && def)
		ui_model_select(&u->m, &u->s->list, def);
}

/* Is every entry of @l a locked volume's line (and there is one)? */
static bool only_locked(const struct entry_list *l)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->method != ENTRY_UNLOCK)
			return false;
	return l->head != NULL;
}

/* The locked volume whose dialog opens by itself when the disks settle:
 * the first one unlock_at_start names, else, with nothing but locked
 * volumes (/boot inside LUKS), the first one, as GRUB's cryptodisk asks
 * at once; NULL: none. */
static const struct entry *unlock_first(const struct ui *u)
{
	const struct entry_list *l = &u->s->list;

	for (const struct entry *e = l->head; e; e = e->next)
		if (session_unlock_at_start(e, u->uo->conf->unlock_at_start))
			return e;
	return only_locked(l) ? l->head : NULL;
}

/* Start-up probing is over: the saved default counts now, and so does
 * the countdown (unless a key came first). Then maybe unlock_first()'s
 * dialog, from the loop. */
static void settle(struct ui *u)
{
	const struct ui_opts *uo = u->uo;
	double t;

	u->settled = true;
	struct choose *c = uo->choose;

	if (savedef_load(u->s, uo->conf, c->saved_id, sizeof(c->saved_id)) < 0)
		c->saved_id[0] = '\0';
	rebuild(u);
	if (choose_loader_note(c, &u->s->list, u->note, sizeof(u->note)))
		say(u, UI_R_STATUS, "%s", u->note);
	if (!u->touched && !u->asked_unlock && unlock_first(u))
		u->ask_unlock = true;
	if (u->touched || !u->m.def)
		return;
	t = choose_timeout(c, &u->s->list);
	ui_count_start(&u->m, t < 0 ? -1 : (int)(t + 0.999), ui_now_ms());
	u->counted = true;
}

void ui_session_event(struct ui *u)
{
	int changed = session_update(u->s);

	if (changed & SESSION_CHANGED_ENTRIES)
		rebuild(u);
	if ((changed & SESSION_SETTLED) && !u->settled)
		settle(u);
	/* nothing to count down for when the disks settled: entries that
	 * came later (the network's) start it, once */
	else if ((changed & SESSION_CHANGED_ENTRIES) && u->settled &&
		 !u->counted)
		settle(u);
}

/* `r`: forget every row, scan again. */
static void rescan(struct ui *u)
{
	int rc;

	ui_model_forget(&u->m);
	u->m.def = NULL;
	u->settled = false;
	u->counted = false;
	u->uo->choose->saved_id[0] = '\0';
	ui_count_stop(&u->m);
	say(u, UI_R_STATUS, "%s", "Scanning again...");
	ui_paint(u, ui_draw_menu, NULL);
	rc = u->uo->rescan ? u->uo->rescan(u->s, u->uo->rescan_data)
			   : session_rescan(u->s);
	u->msg[0] = '\0';
	if (rc < 0)
		say(u, UI_R_ERROR, "The scan failed: %s", strerror(-rc));
	rebuild(u);
	if (session_settled(u->s))
		settle(u);
}

/* Enter on a locked volume's line. Once it is open its entries come as
 * a hot-plugged disk's do: the default is chosen again over them and the
 * countdown starts (now when there is a default, else when entries come:
 * ui_session_event() settles again, as nothing has been counted since). */
static void unlock(struct ui *u, const struct entry *e)
{
	int rc;

	u->touched = true; /* the user is here: no countdown meanwhile */
	rc = ui_unlock(u, e);
	u->unlock_deadline_ms = 0;
	if (rc == -ETIMEDOUT) { /* opened by itself, nobody came: count on */
		u->touched = false;
		rebuild(u);
	}
	if (rc < 0)
		return;
	u->touched = false;
	u->counted = false;
	snprintf(u->unlock_said, sizeof(u->unlock_said), "%.150s", u->msg);
	if (u->settled)
		settle(u);
	else
		rebuild(u);
}

/* A key that means nothing on a locked volume's line: say what does. */
static bool locked_line(struct ui *u, const struct entry *e)
{
	if (!e || e->method != ENTRY_UNLOCK)
		return false;
	say(u, UI_R_STATUS, "%s is encrypted: Enter unlocks it", e->unlock_dev);
	return true;
}

static int on_action(struct ui *u, int k, const struct entry *e)
{
	if (e && e->method == ENTRY_UNLOCK && (k == UI_KEY_ENTER || k == ' ')) {
		unlock(u, e);
		return -1;
	}
	if ((k == 'e' || k == 'i' || k == 'd') && locked_line(u, e))
		return -1;
	switch (k) {
	case UI_KEY_ENTER:
	case ' ':
		if (!e)
			ui_model_set_open(&u->m, &u->s->list, -1);
		else if (try_boot(u, e) == 0)
			return 0;
		break;
	case 'e':
		if (e && edit_and_boot(u, e) == 0)
			return 0;
		break;
	case 'i':
		if (e)
			ui_info(u, e);
		break;
	case 'd':
		if (e)
			save_default(u, e);
		break;
	case 'r':
		rescan(u);
		break;
	case '?':
	case 'h':
	case UI_KEY_F1:
		ui_help(u);
		break;
	case 's':
		shell(u);
		break;
	case 'p':
		return power(u, true);
	case 'b':
		return power(u, false);
	}
	return -1;
}

/* One key in the list. Returns -1 to go on, else the exit status. */
static int on_key(struct ui *u, int k)
{
	int page = LINES - 5 > 1 ? LINES - 5 : 1;

	switch (k) {
	case UI_KEY_UP:
	case 'k':
		ui_model_move(&u->m, -1);
		break;
	case UI_KEY_DOWN:
	case 'j':
		ui_model_move(&u->m, 1);
		break;
	case UI_KEY_PGUP:
		ui_model_move(&u->m, -page);
		break;
	case UI_KEY_PGDN:
		ui_model_move(&u->m, page);
		break;
	case UI_KEY_HOME:
		ui_model_home(&u->m);
		break;
	case UI_KEY_END:
		ui_model_end(&u->m);
		break;
	case UI_KEY_RIGHT:
		ui_model_set_open(&u->m, &u->s->list, 1);
		break;
	case UI_KEY_LEFT:
		ui_model_set_open(&u->m, &u->s->list, 0);
		break;
	default:
		return on_action(u, k, ui_model_selected(&u->m));
	}
	return -1;
}

/* The unattended boot's calls (choose.h). */
static int auto_boot(void *ctx, const struct entry *e, char *err, size_t len)
{
	return load_jump(ctx, e, err, len);
}

static bool auto_ask(void *ctx, const struct entry *e)
{
	return ui_password(ctx, "Booting this entry needs the password");
}

static bool auto_failed(void *ctx, const struct entry *e, const char *err,
			const struct entry *next)
{
	struct ui *u = ctx;
	char text[800], foot[300];

	snprintf(text, sizeof(text), "\"%.200s\": %.500s", e->title, err);
	if (!next) {
		ui_dialog(u, UI_R_ERROR, "The default cannot boot", text);
		return false;
	}
	snprintf(foot, sizeof(foot), "Trying \"%.200s\" in %d s", next->title,
		 CHOOSE_FAIL_SHOW_S);
	return ui_timed_box(u, "The default cannot boot", text, foot,
			    CHOOSE_FAIL_SHOW_S * 1000) == UI_KEY_NONE;
}

/* The countdown ran out: the policy's candidates in turn. */
static int autoboot(struct ui *u)
{
	struct choose_ops ops = {.boot = auto_boot,
				 .ask = auto_ask,
				 .failed = auto_failed,
				 .ctx = u};
	int rc = choose_autoboot(u->uo->choose, &u->s->list, u->unlocked, &ops);

	u->touched = true; /* back in the menu: no countdown again */
	return rc;
}

/* The disks settled: unlock_first()'s dialog. While the countdown runs
 * (other entries to boot), a first key must come before it ends, or the
 * dialog closes and the default boots: an unattended machine boots. */
static void ask_unlock(struct ui *u)
{
	const struct entry *e = unlock_first(u);

	u->ask_unlock = false;
	u->asked_unlock = true;
	if (!e)
		return;
	ui_model_select(&u->m, &u->s->list, e);
	u->unlock_deadline_ms = u->m.counting ? u->m.deadline_ms : 0;
	unlock(u, e);
}

static int loop(struct ui *u)
{
	for (;;) {
		int k, rc;

		if (u->ask_unlock) {
			ask_unlock(u);
			continue;
		}
		if (ui_count_expired(&u->m, ui_now_ms())) {
			if (autoboot(u) == 0)
				return 0;
			continue;
		}
		ui_paint(u, ui_draw_menu, NULL);
		k = ui_terms_key(&u->ts, TICK_MS, session_fd(u->s));
		if (k == UI_TERM_GONE)
			return 1;
		if (k == UI_TERM_EVENT) {
			ui_session_event(u);
			session_release(u->s); /* the rows are rebuilt */
		}
		if (k < 0)
			continue;
		u->touched = true;
		ui_count_stop(&u->m);
		u->msg[0] = '\0';
		u->unlock_said[0] = '\0';
		rc = on_key(u, k);
		if (rc >= 0)
			return rc;
	}
}

static int start(struct ui *u)
{
	const struct ui_opts *uo = u->uo;
	bool colour = uo->conf->colour;

	if (uo->consoles && *uo->consoles &&
	    ui_terms_consoles(&u->ts, uo->consoles, uo->cmdline, colour) == 0)
		return 0;
	return ui_terms_stdio(&u->ts, colour);
}

/* The title line's word on Secure Boot: only when it is on, and whether
 * the kernel locked itself down (then only signed kernels boot). */
static void sb_note(struct ui *u)
{
	struct secure_state st;

	secure_state_read(&st, NULL);
	if (st.sb == SECURE_BOOT_ON)
		snprintf(u->sb_note, sizeof(u->sb_note), "Secure Boot: on%s",
			 st.locked ? "" : " (kernel not locked down)");
}

/* The title line's word on measured boot: "TPM 2.0: measuring" when
 * there is a TPM to measure into; without one nothing is said, unless
 * bootmenu.conf asks for it (then every boot will be refused). */
static void tpm_note(struct ui *u)
{
	if (!u->o || u->o->tpm == BOOT_MEASURE_OFF)
		return;
	if (boot_measure_available(u->o->tpm_path))
		snprintf(u->tpm_note, sizeof(u->tpm_note),
			 "TPM 2.0: measuring");
	else if (u->o->tpm == BOOT_MEASURE_REQUIRED)
		snprintf(u->tpm_note, sizeof(u->tpm_note),
			 "no TPM (tpm = required: boots are refused)");
}

int ui_menu(struct session *s, const struct ui_opts *uo,
	    const struct boot_opts *o)
{
	static struct ui u;
	int rc;

	memset(&u, 0, sizeof(u));
	u.s = s;
	u.uo = uo;
	u.o = o;
	sb_note(&u);
	tpm_note(&u);
	rc = start(&u);
	if (rc < 0)
		return rc;
	signal(SIGWINCH, on_winch);
	/* a boot loader must never be stopped by its own terminal */
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	rebuild(&u);
	if (session_settled(s))
		settle(&u);
	rc = loop(&u);
	ui_terms_suspend(&u.ts);
	ui_terms_close(&u.ts);
	ui_model_free(&u.m);
	return rc;
}
