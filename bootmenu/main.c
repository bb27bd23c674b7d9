/* main.c - bootmenu: argument parsing and wiring only. */
#include "boot.h"
#include "cfg/cfg.h"
#include "conf.h"
#include "plain.h"
#include "session.h"
#include "entry.h"
#include "entry_print.h"
#include "scan/fs.h"
#include "ui/model.h"
#include "ui/ui.h"
#include "util/arena.h"
#include "util/log.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROOTS 256

struct options {
	const char *roots[MAX_ROOTS];
	size_t n_roots;
	bool list, json, dry_run;
	const char *boot;   /* --boot N */
	const char *config; /* --config FILE; NULL: CONF_PATH */
	double timeout;     /* --timeout S; -2 when not given */
};

static void usage(FILE *f)
{
	fputs("usage: bootmenu [options]\n"
	      "  (no options)        the boot menu, over every disk\n"
	      "  --root DIR[=LABEL[,uuid=U][,partuuid=P]]\n"
	      "                      treat DIR as one filesystem (repeatable)\n"
	      "  --list              print the entries instead of the menu\n"
	      "  --json              with --list: one JSON array\n"
	      "  --boot N            boot entry N (as --list numbers them) without asking\n"
	      "  --dry-run           print the load plan instead of loading\n"
	      "  --timeout S         seconds before the default boots (-1: wait)\n"
	      "  --config FILE       menu settings (default " CONF_PATH ")\n"
	      "  --version, --help\n",
	      f);
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "root", required_argument, 0, 'r' },
		{ "list", no_argument, 0, 'l' },
		{ "json", no_argument, 0, 'j' },
		{ "boot", required_argument, 0, 'b' },
		{ "dry-run", no_argument, 0, 'n' },
		{ "timeout", required_argument, 0, 't' },
		{ "config", required_argument, 0, 'c' },
		{ "version", no_argument, 0, 'V' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;

	o->timeout = -2;
	while ((c = getopt_long(argc, argv, "r:ljb:nt:c:Vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (o->n_roots == MAX_ROOTS) {
				fprintf(stderr, "bootmenu: at most %d --root\n", MAX_ROOTS);
				return 2;
			}
			o->roots[o->n_roots++] = optarg;
			break;
		case 'l': o->list = true; break;
		case 'j': o->json = true; break;
		case 'b': o->boot = optarg; break;
		case 'n': o->dry_run = true; break;
		case 't': o->timeout = strtod(optarg, NULL); break;
		case 'c': o->config = optarg; break;
		case 'V': puts("bootmenu " BOOTMENU_VERSION); exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bootmenu: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return 0;
}

/* --root DIR=LABEL: the label names the filesystem in the output and
 * answers LABEL= lookups, the way a real filesystem label would. */
static int open_roots(struct arena *a, const struct options *o,
		      struct fs_root **fss)
{
	for (size_t i = 0; i < o->n_roots; i++) {
		struct fs_root *fs = arena_alloc(a, sizeof(*fs));
		char *dir = arena_strdup(a, o->roots[i]), *eq = strchr(dir, '=');
		int rc;

		fs->root_fd = -1;
		if (eq) {
			char *opt = strchr(eq + 1, ',');

			*eq = '\0';
			fs->name = fs->label = eq + 1;
			/* DIR=LABEL,uuid=U,partuuid=P: identities a real
			 * filesystem would have, for grub's search and root= */
			while (opt) {
				char *next = strchr(opt + 1, ',');

				*opt++ = '\0';
				if (next)
					*next = '\0';
				if (!strncmp(opt, "uuid=", 5))
					fs->uuid = opt + 5;
				else if (!strncmp(opt, "partuuid=", 9))
					fs->partuuid = opt + 9;
				if (next)
					*next = ',';
				opt = next;
			}
		}
		rc = fs_root_open_dir(fs, dir);
		if (rc < 0) {
			fprintf(stderr, "bootmenu: --root %s: %s\n", dir, strerror(-rc));
			return 1;
		}
		fss[i] = fs;
	}
	return 0;
}

/* A session over the --root trees instead of a device scan. */
static int roots_session(struct session *s, const struct options *o)
{
	struct fs_root **fss;
	struct entry_list one;
	int rc;

	memset(s, 0, sizeof(*s));
	entry_list_init(&s->list, &s->arena);
	fss = arena_alloc(&s->arena, o->n_roots * sizeof(*fss) + 1);
	rc = open_roots(&s->arena, o, fss);
	if (rc)
		return rc;
	for (size_t i = 0; i < o->n_roots; i++)
		s->fss[i] = fss[i];
	s->n_fss = o->n_roots;
	for (size_t i = 0; i < o->n_roots; i++) {
		struct cfg_ctx ctx = {
			.a = &s->arena, .fs = fss[i], .out = &one,
			.all = s->fss, .n_all = o->n_roots,
		};

		entry_list_init(&one, &s->arena);
		cfg_scan_fs(&ctx);
		entry_list_splice(&s->list, &one);
	}
	entry_finish(&s->list, s->fss, s->n_fss);
	return 0;
}

static void read_cmdline(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cmdline", "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
}

/* The full-screen menu when the terminal allows, else the plain chooser.
 * A timeout of 0 boots the default before anything is drawn. */
static int menu(struct session *s, const struct options *o,
		const struct boot_opts *bo, double cmdline_timeout)
{
	struct conf c;
	struct ui_opts uo;
	char err[256];
	int rc;

	conf_init(&c);
	rc = conf_load(&c, o->config ? o->config : CONF_PATH, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "bootmenu: %s: %s\n",
			o->config ? o->config : CONF_PATH,
			rc == -EINVAL ? err : strerror(-rc));
	uo.timeout_s = conf_timeout(o->timeout, cmdline_timeout, c.timeout,
				    s->list.timeout_ds);
	uo.def = ui_pick_default(&s->list, NULL, c.default_pat);
	if (!uo.def)
		return plain_menu(s, uo.timeout_s, bo);
	if (uo.timeout_s == 0) {
		if (plain_boot(s, uo.def, bo) == 0)
			return 0;
		uo.timeout_s = -1;
	}
	rc = ui_menu(s, &uo, bo);
	if (rc == -ENOTTY)
		return plain_menu(s, uo.timeout_s, bo);
	return rc;
}

/* --list, --boot N, or the menu, over @s. */
static int dispatch(struct session *s, const struct options *o,
		    double cmdline_timeout)
{
	struct boot_opts bo = { .dry_run = o->dry_run };
	const struct entry *e;

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
	if (!o->boot)
		return menu(s, o, &bo, cmdline_timeout);
	e = session_nth(&s->list, strtol(o->boot, NULL, 10));
	if (!e) {
		fprintf(stderr, "bootmenu: no entry %s\n", o->boot);
		return 1;
	}
	return plain_boot(s, e, &bo) ? 1 : 0;
}

static int run_roots(const struct options *o)
{
	struct session s;
	int rc = roots_session(&s, o);

	if (!rc)
		rc = dispatch(&s, o, -2);
	for (size_t i = 0; i < s.n_fss; i++)
		fs_root_close((struct fs_root *)s.fss[i]);
	session_free(&s);
	return rc;
}

/* Over real devices. */
static int run_devices(const struct options *o)
{
	struct session s;
	char cmdline[4096];
	double settle;
	int rc;

	read_cmdline(cmdline, sizeof(cmdline));
	settle = session_cmdline_number(cmdline, "settle", 5);
	rc = session_scan_devices(&s, settle);
	if (rc < 0) {
		fprintf(stderr, "bootmenu: cannot scan devices: %s\n", strerror(-rc));
		return 1;
	}
	rc = dispatch(&s, o, session_cmdline_number(cmdline, "timeout", -2));
	session_free(&s);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc;
	if (o.n_roots)
		return run_roots(&o);
	return run_devices(&o);
}
