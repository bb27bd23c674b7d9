/* main.c - bootmenu: argument parsing and wiring only. */
#include "boot/boot.h"
#include "boot/loader_vars.h"
#include "choose/choose.h"
#include "conf/conf.h"
#include "efi/bli.h"
#include "efi/fwstate.h"
#include "install/install.h"
#include "plain/plain.h"
#include "savedef/savedef.h"
#include "session/session.h"
#include "source/source.h"
#include "ui/ui.h"
#include "ui/console.h"
#include "util/cmdline.h"
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* leases, the udhcpc script and the network caches (tmpfs) */
#define NET_RUN_DIR "/run/bootmenu/net"
/* the longest --list and --boot wait for DHCP and the configs: three
 * udhcpc runs of 8 s with their pauses, and the fetches */
#define NET_WAIT_S 60

struct options {
	const char *roots[SESSION_MAX_FS];
	size_t n_roots;
	bool list, json, dry_run;
	const char *boot;    /* --boot N */
	const char *config;  /* --config FILE; NULL: CONF_PATH */
	double timeout;	     /* --timeout S; -2 when not given */
	const char *console; /* --console LIST; NULL: ui_pick_consoles() */
	const char *save;    /* --save-default N */
};

static const char usage_text[] =
    "usage: bootmenu [options]\n"
    "  (no options)        the boot menu, over every disk\n"
    "  --root DIR[=LABEL[,uuid=U][,partuuid=P][,btrfs=SUBVOL]]\n"
    "                      treat DIR as one filesystem (repeatable); with\n"
    "                      btrfs=, DIR is a btrfs top level whose default\n"
    "                      subvolume is the directory SUBVOL (\"\" for DIR),\n"
    "                      and ,subvol=S (repeatable) names another one\n"
    "  --list              print the entries instead of the menu\n"
    "  --json              with --list: one JSON object (entries, warnings)\n"
    "  --boot N            boot entry N (as --list numbers them) without "
    "asking\n"
    "  --dry-run           print the load plan instead of loading\n"
    "  --timeout S         seconds before the default boots (-1: wait)\n"
    "  --config FILE       menu settings (default " CONF_PATH ")\n"
    "  --save-default N    save entry N (as --list numbers them) as the\n"
    "                      default, when bootmenu.conf allows it\n"
    "  --console LIST      draw the menu on these terminals at once\n"
    "                      (\"tty0,ttyS0\" or /dev paths); default: every\n"
    "                      active console when started on /dev/console,\n"
    "                      else stdin/stdout\n"
    "  --version, --help\n"
    "       bootmenu install [options]   put bootmenu on this machine\n"
    "                      (bootmenu install --help)\n";

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

/* One option @c with its @arg into @o. 0, or the exit status. */
static int take_option(int c, const char *arg, struct options *o)
{
	switch (c) {
	case 'r':
		if (o->n_roots == SESSION_MAX_FS) {
			fprintf(stderr, "bootmenu: at most %d --root\n",
				SESSION_MAX_FS);
			return 2;
		}
		o->roots[o->n_roots++] = arg;
		return 0;
	case 'l':
		o->list = true;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case 'b':
		o->boot = arg;
		return 0;
	case 'n':
		o->dry_run = true;
		return 0;
	case 't':
		return parse_timeout(arg, &o->timeout) ? 2 : 0;
	case 'c':
		o->config = arg;
		return 0;
	case 'C':
		o->console = arg;
		return 0;
	case 'S':
		o->save = arg;
		return 0;
	case 'V':
		puts("bootmenu " BOOTMENU_VERSION);
		exit(0);
	case 'h':
		fputs(usage_text, stdout);
		exit(0);
	}
	fputs(usage_text, stderr);
	return 2;
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
	int c, rc;

	o->timeout = -2;
	while ((c = getopt_long(argc, argv, "r:ljb:nt:c:C:S:Vh", longopts,
				NULL)) != -1)
		if ((rc = take_option(c, optarg, o)))
			return rc;
	if (optind < argc) {
		fprintf(stderr, "bootmenu: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	return 0;
}

/* What the network source is made with, at the start and at each rescan. */
struct run_net {
	char only[32]; /* one link's name, or "" for all */
	bool wait;
	bool auto_mode; /* network = auto: a lease must name a boot file */
};

struct run {
	struct session s;
	struct run_net net;
	const struct options *o;
	struct conf c;
	struct choose ch;
	char cmdline[4096];
	double settle_s;
	struct boot_loader_vars lv; /* under UEFI with efivarfs */
	bool uefi;		    /* lv is filled in */
};

/* Entry N of the list, as --boot and --save-default name it. */
static const struct entry *nth_arg(struct run *r, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);
	const struct entry *e =
	    end != arg && !*end ? session_nth(&r->s.list, n) : NULL;

	if (!e)
		fprintf(stderr, "bootmenu: no entry %s\n", arg);
	return e;
}

/* Start-up probing over (for the callers that draw nothing), then the
 * saved default for the policy. */
static void settle(struct run *r)
{
	session_wait_settled(&r->s, r->settle_s);
	if (savedef_load(&r->s, &r->c, r->ch.saved_id, sizeof(r->ch.saved_id)) <
	    0)
		r->ch.saved_id[0] = '\0';
}

/* The session's part of a boot (boot.h): grub's next_entry, cleared by
 * the only writer of disks, and the mounts let go of before the jump. */
static int run_clear_once(void *data, char *err, size_t len)
{
	struct run *r = data;

	return savedef_clear_once(&r->s, &r->c, err, len);
}

/* The hand-on step's keys are the session's (luks_pass_key). */
static size_t run_keys_of(void *data, const char *fs_name, struct boot_key *out,
			  size_t max)
{
	struct run *r = data;

	return session_keys_of(&r->s, fs_name, out, max);
}

static void run_unmount(void *data)
{
	struct run *r = data;

	session_unmount(&r->s);
}

/* systemd's Boot Loader Interface, under UEFI with efivarfs only: what the
 * OS asked of this boot goes to the policy, and the transaction gets what
 * it writes. LoaderConfigTimeoutOneShot is consumed only by a run that
 * shows the menu (@menu), not by --list or --boot. */
static void loader_vars_start(struct run *r, bool menu)
{
	struct efi_vars v;
	struct bli_os os;
	char dir[256], err[256];

	if (r->o->n_roots ||
	    efi_fw_vars(NULL, NULL, &v, dir, sizeof(dir), NULL, 0) < 0)
		return;
	boot_loader_vars_init(&r->lv, dir, NULL, r->ch.boot_device, &r->s.list,
			      &r->ch);
	r->uefi = true;
	if (bli_read_os(&r->lv.vars, &os, menu, err, sizeof(err)) < 0)
		fprintf(stderr, "bootmenu: %s\n", err);
	snprintf(r->ch.loader_oneshot, sizeof(r->ch.loader_oneshot), "%s",
		 os.oneshot);
	snprintf(r->ch.loader_default, sizeof(r->ch.loader_default), "%s",
		 os.def);
	if (menu && os.timeout_oneshot != BLI_TIMEOUT_UNSET)
		r->ch.loader_timeout_s = os.timeout_oneshot;
}

/* A request of the OS naming no entry, said where no menu shows it. */
static void loader_note(struct run *r)
{
	char note[400];

	if (choose_loader_note(&r->ch, &r->s.list, note, sizeof(note)))
		fprintf(stderr, "bootmenu: %s\n", note);
}

/* bootmenu.conf's `tpm` as the boot transaction takes it. */
static enum boot_measure_mode run_tpm_mode(const struct conf *c)
{
	switch (c->tpm) {
	case CONF_TPM_REQUIRED:
		return BOOT_MEASURE_REQUIRED;
	case CONF_TPM_OFF:
		return BOOT_MEASURE_OFF;
	case CONF_TPM_AUTO:
		break;
	}
	return BOOT_MEASURE_AUTO;
}

/* What the options ask for, over the session's entries. */
static int act(struct run *r, int (*rescan)(struct session *, void *))
{
	const struct options *o = r->o;
	struct boot_opts bo = {.dry_run = o->dry_run,
			       .clear_once = run_clear_once,
			       .unmount = run_unmount,
			       .session = r,
			       .tpm = run_tpm_mode(&r->c),
			       .pass_key = r->c.pass_key,
			       .keys_of = run_keys_of,
			       .loader_vars = r->uefi ? &r->lv : NULL};
	char consoles[512];
	struct ui_opts uo = {.conf = &r->c,
			     .choose = &r->ch,
			     .consoles = consoles,
			     .cmdline = r->cmdline,
			     .rescan = rescan,
			     .rescan_data = r};
	const struct entry *e;
	int rc;

	if (o->save || o->boot) {
		session_wait_settled(&r->s, r->settle_s); /* the network's */
		if (!(e = nth_arg(r, o->save ? o->save : o->boot)))
			return 1;
		if (o->save)
			return savedef_save_cli(&r->s, &r->c, e);
		return plain_boot(e, &bo) ? 1 : 0;
	}
	if (o->list || choose_user_timeout(&r->ch) == 0)
		settle(r);
	if (o->list)
		return session_print_list(stdout, &r->s, o->json,
					  choose_default(&r->ch, &r->s.list),
					  &bo);
	r->lv.menu_us = boot_loader_vars_now();
	/* a timeout of 0 given by the user boots before anything is drawn */
	if (choose_user_timeout(&r->ch) == 0)
		loader_note(r);
	if (choose_user_timeout(&r->ch) == 0 &&
	    plain_autoboot(&r->s, &r->ch, &bo) == 0)
		return 0;
	if (choose_user_timeout(&r->ch) == 0)
		r->ch.opt_timeout_s = -1; /* it failed: wait for a choice */
	ui_pick_consoles(o->console, o->n_roots || o->dry_run, consoles,
			 sizeof(consoles));
	rc = ui_menu(&r->s, &uo, &bo);
	if (rc != -ENOTTY)
		return rc;
	settle(r);
	loader_note(r);
	return plain_menu(&r->s, &r->ch, &bo);
}

/* `r` over --root trees: read them again. */
static int roots_rescan(struct session *s, void *data)
{
	struct run *r = data;

	session_close_roots(s);
	return session_open_roots(s, r->o->roots, r->o->n_roots) ? -EIO : 0;
}

static struct source *net_make(void *ctx)
{
	const struct run_net *n = ctx;

	return source_net_new(n->only[0] ? n->only : NULL, NET_RUN_DIR, n->wait,
			      n->auto_mode);
}

/* The network source as bootmenu.net= (else bootmenu.conf's network) asks
 * (conf_network()): auto (the default) and "on" every wired link, "off"
 * none, else one link's name. Under auto, --list and --boot (@wait) use
 * the network only when the disks gave nothing to boot: a local entry
 * always wins there, and both faces then number the same entries. */
static bool net_start(struct run *r, bool wait)
{
	char v[sizeof(r->net.only)];
	enum conf_net mode;
	int rc;

	if (!cmdline_value(r->cmdline, "net", v, sizeof(v)))
		snprintf(v, sizeof(v), "%s", r->c.network);
	mode = conf_network(v, r->net.only, sizeof(r->net.only));
	if (mode == CONF_NET_OFF)
		return false;
	if (mode == CONF_NET_AUTO && wait && choose_default(&r->ch, &r->s.list))
		return false;
	r->net.wait = wait;
	r->net.auto_mode = mode == CONF_NET_AUTO;
	rc = session_add_made(&r->s, net_make, &r->net);
	if (rc < 0) {
		fprintf(stderr, "bootmenu: the network cannot be used: %s\n",
			strerror(-rc));
		return false;
	}
	return true;
}

static int run(struct run *r)
{
	const struct options *o = r->o;
	bool once = o->list || o->boot || o->save;
	int rc;

	if (o->n_roots) {
		rc = session_open_roots(&r->s, o->roots, o->n_roots);
		rc = rc ? rc : act(r, roots_rescan);
		session_close_roots(&r->s);
		return rc;
	}
	memset(&r->s, 0, sizeof(r->s));
	r->s.hide = r->c.hide;
	r->s.pass_key = r->c.pass_key;
	/* --list and --boot wait for the whole scan; the menu draws at once */
	rc = once ? session_scan_devices(&r->s, r->settle_s)
		  : session_start(&r->s, r->settle_s);
	if (rc < 0) {
		fprintf(stderr, "bootmenu: cannot scan devices: %s\n",
			strerror(-rc));
		return 1;
	}
	/* --list and --boot wait for the network too, within NET_WAIT_S */
	if (net_start(r, once) && once)
		r->settle_s =
		    r->settle_s > NET_WAIT_S ? r->settle_s : NET_WAIT_S;
	loader_vars_start(r, !once);
	rc = act(r, NULL);
	session_free(&r->s);
	return rc;
}

int main(int argc, char **argv)
{
	static struct run r;
	struct options o = {0};
	const char *path;
	char err[256];
	int rc;

	/* the installer's face, so the rescue shell can set a machine up */
	if (argc > 1 && !strcmp(argv[1], "install")) {
		argv[1] = "bootmenu install";
		return install_main(argc - 1, argv + 1);
	}
	rc = parse_args(argc, argv, &o);

	if (rc)
		return rc;
	r.o = &o;
	path = o.config ? o.config : CONF_PATH;
	conf_init(&r.c);
	rc = conf_load(&r.c, path, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "bootmenu: %s: %s\n", path,
			rc == -EINVAL ? err : strerror(-rc));
	if (!o.n_roots && util_read_small(AT_FDCWD, "/proc/cmdline", r.cmdline,
					  sizeof(r.cmdline)) < 0)
		r.cmdline[0] = '\0';
	r.settle_s = cmdline_number(r.cmdline, "settle", 5);
	choose_init(&r.ch, &r.c, r.cmdline, o.timeout);
	return run(&r);
}
