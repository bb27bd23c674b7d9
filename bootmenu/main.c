/* main.c - bootmenu: argument parsing and wiring only. */
#include "boot/boot.h"
#include "conf/conf.h"
#include "plain/plain.h"
#include "savedef/savedef.h"
#include "session/session.h"
#include "entry/entry.h"
#include "entry/entry_print.h"
#include "choose/lock.h"
#include "ui/model.h"
#include "ui/ui.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CONSOLES_MAX 512
/* Past the settle bound, this long more and a silent scan is given up
 * on (timeout 0 or the plain chooser wait for it). */
#define SETTLE_SLACK_S 10

struct options {
	const char *roots[SESSION_MAX_FS];
	size_t n_roots;
	bool list, json, dry_run;
	const char *boot;    /* --boot N */
	const char *config;  /* --config FILE; NULL: CONF_PATH */
	double timeout;	     /* --timeout S; -2 when not given */
	const char *console; /* --console LIST; NULL: decided by main */
	const char *save;    /* --save-default N */
};

static void usage(FILE *f)
{
	fputs("usage: bootmenu [options]\n"
	      "  (no options)        the boot menu, over every disk\n"
	      "  --root DIR[=LABEL[,uuid=U][,partuuid=P]]\n"
	      "                      treat DIR as one filesystem (repeatable)\n"
	      "  --list              print the entries instead of the menu\n"
	      "  --json              with --list: one JSON array\n"
	      "  --boot N            boot entry N (as --list numbers them) "
	      "without asking\n"
	      "  --dry-run           print the load plan instead of loading\n"
	      "  --timeout S         seconds before the default boots (-1: "
	      "wait)\n"
	      "  --config FILE       menu settings (default " CONF_PATH ")\n"
	      "  --save-default N    save entry N (as --list numbers them) as "
	      "the\n"
	      "                      default, when bootmenu.conf allows it\n"
	      "  --console LIST      draw the menu on these terminals at once\n"
	      "                      (\"tty0,ttyS0\" or /dev paths); default: "
	      "every\n"
	      "                      active console when started on "
	      "/dev/console,\n"
	      "                      else stdin/stdout\n"
	      "  --version, --help\n",
	      f);
}

/* --timeout S: a number of seconds, -1 to wait; anything else refused. */
static int parse_timeout(const char *arg, double *out)
{
	char *end;
	double t = strtod(arg, &end);

	if (end == arg || *end || t < -1 || t > INT_MAX) {
		fprintf(stderr,
			"bootmenu: --timeout %s: seconds (a number, "
			"-1 waits)\n",
			arg);
		return -1;
	}
	*out = t < 0 ? -1 : t;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
	    {"root", required_argument, 0, 'r'},
	    {"list", no_argument, 0, 'l'},
	    {"json", no_argument, 0, 'j'},
	    {"boot", required_argument, 0, 'b'},
	    {"dry-run", no_argument, 0, 'n'},
	    {"timeout", required_argument, 0, 't'},
	    {"config", required_argument, 0, 'c'},
	    {"console", required_argument, 0, 'C'},
	    {"save-default", required_argument, 0, 'S'},
	    {"version", no_argument, 0, 'V'},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	int c;

	o->timeout = -2;
	while ((c = getopt_long(argc, argv, "r:ljb:nt:c:C:S:Vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			if (o->n_roots == SESSION_MAX_FS) {
				fprintf(stderr, "bootmenu: at most %d --root\n",
					SESSION_MAX_FS);
				return 2;
			}
			o->roots[o->n_roots++] = optarg;
			break;
		case 'l':
			o->list = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'b':
			o->boot = optarg;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 't':
			if (parse_timeout(optarg, &o->timeout))
				return 2;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'C':
			o->console = optarg;
			break;
		case 'S':
			o->save = optarg;
			break;
		case 'V':
			puts("bootmenu " BOOTMENU_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bootmenu: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	return 0;
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
}

static void load_conf(struct conf *c, const struct options *o)
{
	const char *path = o->config ? o->config : CONF_PATH;
	char err[256];
	int rc;

	conf_init(c);
	rc = conf_load(c, path, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "bootmenu: %s: %s\n", path,
			rc == -EINVAL ? err : strerror(-rc));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Take the session's events until start-up probing is over (at most the
 * settle bound plus a margin): what the menu does while drawing, for the
 * callers that draw nothing. */
static void settle_wait(struct session *s, double settle_s)
{
	double end = now_s() + settle_s + SETTLE_SLACK_S;

	while (!session_settled(s) && now_s() < end) {
		struct pollfd p = {.fd = session_fd(s), .events = POLLIN};

		if (p.fd < 0)
			break;
		if (poll(&p, 1, 200) > 0)
			session_update(s);
	}
}

/* Where the menu draws: --console, else every active console when we run
 * on /dev/console (what /init gives us), else stdin/stdout (""). */
static void pick_consoles(const struct options *o, char *buf, size_t len)
{
	char tty[64];

	buf[0] = '\0';
	if (o->console) {
		snprintf(buf, len, "%s", o->console);
		return;
	}
	if (o->n_roots || o->dry_run || ttyname_r(0, tty, sizeof(tty)) ||
	    strcmp(tty, "/dev/console"))
		return;
	read_file("/sys/class/tty/console/active", buf, len);
}

struct run {
	struct session s;
	const struct options *o;
	struct conf c;
	char cmdline[4096];
	double settle_s;
};

/* The default, once settled, with nothing drawn (timeout 0, or no
 * terminal while a password is set). Not when it needs the password
 * (lilo.conf's mandatory): the menu asks for it. */
static int boot_at_once(struct run *r, const struct boot_opts *bo)
{
	char saved[1024], err[256]; /* SAVEDEF_VALUE_MAX */
	const struct entry *def;

	settle_wait(&r->s, r->settle_s);
	if (savedef_load(&r->s, &r->c, saved, sizeof(saved)) < 0)
		saved[0] = '\0';
	def = ui_pick_default(&r->s.list, saved, r->c.default_pat);
	if (!def)
		return -ENOENT;
	if (choose_lock_need(r->c.password, false, CHOOSE_ACT_BOOT, def, def) !=
	    CHOOSE_LOCK_FREE)
		return -EACCES;
	/* grub's next_entry is this boot's: cleared as GRUB does */
	if (!bo->dry_run &&
	    savedef_clear_once(&r->s, &r->c, err, sizeof(err)) < 0)
		fprintf(stderr, "bootmenu: next_entry not cleared: %s\n", err);
	return plain_boot(&r->s, def, bo);
}

/* The full-screen menu when a terminal allows, else the plain chooser.
 * A timeout of 0 given by the user (not the configs, known only once
 * every disk was read) boots the default before anything is drawn. */
static int menu(struct run *r, const struct boot_opts *bo,
		int (*rescan)(struct session *, void *))
{
	const struct options *o = r->o;
	double cmdline_t = session_cmdline_number(r->cmdline, "timeout", -2);
	double user_t = o->timeout > -2	 ? o->timeout
			: cmdline_t > -2 ? cmdline_t
					 : r->c.timeout;
	char consoles[CONSOLES_MAX];
	struct ui_opts uo = {
	    .conf = &r->c,
	    .opt_timeout_s = o->timeout,
	    .cmdline_timeout_s = cmdline_t,
	    .consoles = consoles,
	    .cmdline = r->cmdline,
	    .rescan = rescan,
	    .rescan_data = r,
	};
	int rc;

	if (user_t == 0) {
		if (boot_at_once(r, bo) == 0)
			return 0;
		uo.opt_timeout_s = -1; /* it failed: wait for a choice */
	}
	pick_consoles(o, consoles, sizeof(consoles));
	rc = ui_menu(&r->s, &uo, bo);
	if (rc != -ENOTTY)
		return rc;
	/* the plain chooser has no password prompt: only the default then */
	if (r->c.password[0]) {
		fprintf(stderr,
			"bootmenu: no terminal for the menu; a password "
			"is set, so only the default boots\n");
		return boot_at_once(r, bo) == 0 ? 0 : 1;
	}
	settle_wait(&r->s, r->settle_s);
	return plain_menu(&r->s,
			  conf_timeout(uo.opt_timeout_s, cmdline_t,
				       r->c.timeout, r->s.list.timeout_ds),
			  bo);
}

/* --list or --boot N over @s. */
static int dispatch(struct session *s, const struct options *o)
{
	struct boot_opts bo = {.dry_run = o->dry_run};
	const struct entry *e;
	char *end;
	long n;

	if (o->list) {
		if (o->json)
			entry_print_json(stdout, &s->list);
		else {
			entry_print_text(stdout, &s->list);
			if (s->scan)
				session_print_devices(s, stdout);
		}
		return 0;
	}
	n = strtol(o->boot, &end, 10);
	e = end != o->boot && !*end ? session_nth(&s->list, n) : NULL;
	if (!e) {
		fprintf(stderr, "bootmenu: no entry %s\n", o->boot);
		return 1;
	}
	return plain_boot(s, e, &bo) ? 1 : 0;
}

/* --save-default N: entry N becomes the saved default (savedef.h). */
static int save_default(struct run *r)
{
	const struct entry *e;
	char err[256], *end;
	long n = strtol(r->o->save, &end, 10);

	e = end != r->o->save && !*end ? session_nth(&r->s.list, n) : NULL;
	if (!e) {
		fprintf(stderr, "bootmenu: no entry %s\n", r->o->save);
		return 1;
	}
	if (savedef_save_detached(&r->s, &r->c, e, err, sizeof(err)) < 0) {
		fprintf(stderr,
			"bootmenu: \"%s\" not saved as the default: %s\n",
			e->title, err);
		return 1;
	}
	printf("bootmenu: saved \"%s\" (%s) as the default\n", e->title, e->id);
	return 0;
}

/* `r` over --root trees: read them again. */
static int roots_rescan(struct session *s, void *data)
{
	struct run *r = data;

	session_close_roots(s);
	return session_open_roots(s, r->o->roots, r->o->n_roots) ? -EIO : 0;
}

static int run_roots(struct run *r)
{
	struct boot_opts bo = {.dry_run = r->o->dry_run};
	int rc = session_open_roots(&r->s, r->o->roots, r->o->n_roots);

	if (!rc && r->o->save)
		rc = save_default(r);
	else if (!rc && (r->o->list || r->o->boot))
		rc = dispatch(&r->s, r->o);
	else if (!rc)
		rc = menu(r, &bo, roots_rescan);
	session_close_roots(&r->s);
	return rc;
}

/* Over real devices: --list and --boot wait for the whole scan; the menu
 * draws at once and follows the scan. */
static int run_devices(struct run *r)
{
	struct boot_opts bo = {.dry_run = r->o->dry_run};
	struct session *s = &r->s;
	int rc;

	memset(s, 0, sizeof(*s));
	s->hide = r->c.hide;
	if (r->o->list || r->o->boot || r->o->save)
		rc = session_scan_devices(s, r->settle_s);
	else
		rc = session_start(s, r->settle_s);
	if (rc < 0) {
		fprintf(stderr, "bootmenu: cannot scan devices: %s\n",
			strerror(-rc));
		return 1;
	}
	if (r->o->save)
		rc = save_default(r);
	else if (r->o->list || r->o->boot)
		rc = dispatch(s, r->o);
	else
		rc = menu(r, &bo, NULL);
	session_free(s);
	return rc;
}

int main(int argc, char **argv)
{
	static struct run r;
	struct options o = {0};
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc;
	r.o = &o;
	load_conf(&r.c, &o);
	if (!o.n_roots)
		read_file("/proc/cmdline", r.cmdline, sizeof(r.cmdline));
	r.settle_s = session_cmdline_number(r.cmdline, "settle", 5);
	if (o.n_roots)
		return run_roots(&r);
	return run_devices(&r);
}
