/* main.c - bootmenu: argument parsing and wiring only. */
#include "boot.h"
#include "cfg/cfg.h"
#include "plain.h"
#include "session.h"
#include "entry.h"
#include "entry_print.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "util/log.h"

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
		{ "version", no_argument, 0, 'V' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;

	o->timeout = -2;
	while ((c = getopt_long(argc, argv, "r:ljb:nt:Vh", longopts, NULL)) != -1) {
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

static int list_roots(const struct options *o)
{
	struct arena a = ARENA_INIT;
	struct fs_root **fss = arena_alloc(&a, o->n_roots * sizeof(*fss) + 1);
	struct entry_list all, one;
	int rc = open_roots(&a, o, fss);

	if (rc)
		goto out;
	entry_list_init(&all, &a);
	for (size_t i = 0; i < o->n_roots; i++) {
		struct cfg_ctx ctx = {
			.a = &a, .fs = fss[i], .out = &one,
			.all = (const struct fs_root *const *)fss, .n_all = o->n_roots,
		};

		entry_list_init(&one, &a);
		cfg_scan_fs(&ctx);
		entry_list_splice(&all, &one);
	}
	entry_finish(&all, (const struct fs_root *const *)fss, o->n_roots);
	if (o->json)
		entry_print_json(stdout, &all);
	else
		entry_print_text(stdout, &all);
	for (size_t i = 0; i < o->n_roots; i++)
		fs_root_close(fss[i]);
out:
	arena_free(&a);
	return rc;
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

/* Over real devices: --list, --boot N, or the chooser. */
static int run_devices(const struct options *o)
{
	struct boot_opts bo = { .dry_run = o->dry_run };
	struct session s;
	char cmdline[4096];
	double settle, timeout;
	int rc;

	read_cmdline(cmdline, sizeof(cmdline));
	settle = session_cmdline_number(cmdline, "settle", 5);
	timeout = o->timeout > -2 ? o->timeout
				  : session_cmdline_number(cmdline, "timeout", 5);
	rc = session_scan_devices(&s, settle);
	if (rc < 0) {
		fprintf(stderr, "bootmenu: cannot scan devices: %s\n", strerror(-rc));
		return 1;
	}
	if (o->list) {
		if (o->json)
			entry_print_json(stdout, &s.list);
		else
			entry_print_text(stdout, &s.list);
		rc = 0;
	} else if (o->boot) {
		const struct entry *e = session_nth(&s.list, strtol(o->boot, NULL, 10));

		rc = e ? -plain_boot(&s, e, &bo) : 1;
		if (!e)
			fprintf(stderr, "bootmenu: no entry %s\n", o->boot);
		rc = rc ? 1 : 0;
	} else {
		rc = plain_menu(&s, timeout, &bo);
	}
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
		return list_roots(&o);
	return run_devices(&o);
}
