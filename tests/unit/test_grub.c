/* test_grub.c - the grub.cfg reader: lexer, interpreter, menu, default,
 * search, grubenv, source/configfile, limits. Each test builds small
 * filesystem trees under /tmp and runs a config through grub_run_config()
 * or grub_parse_fs(); most are tables of such cases, each with the values
 * expected of the entries. */
#include "cfg/resolve.h"
#include "cfg/bls.h"
#include "cfg/grub.h"
#include "cfg/grub_env.h"
#include "entry/entry.h"
#include "session/listing.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T_FS_MAX 4

struct tfs {
	char dir[64];
	struct fs_root fs;
};

struct trun {
	struct arena a;
	struct entry_list out;
	struct tfs t[T_FS_MAX];
	const struct fs_root *all[T_FS_MAX];
	size_t n;
	struct cfg_ctx ctx;
};

/* Make @path (relative to the tree) with @text, creating directories. */
static void tput(struct tfs *t, const char *path, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->dir, path);
	for (char *s = p + strlen(t->dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

/* Start a run with @n filesystems labelled A, B, ... (uuid = NULL). */
static void tstart(struct trun *r, size_t n)
{
	static const char *const labels[] = {"A", "B", "C", "D"};

	memset(r, 0, sizeof(*r));
	entry_list_init(&r->out, &r->a);
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		struct tfs *t = &r->t[i];

		snprintf(t->dir, sizeof(t->dir), "/tmp/bm_grub_XXXXXX");
		if (!mkdtemp(t->dir))
			abort();
		t->fs.root_fd = -1;
		t->fs.name = t->fs.label = labels[i];
		if (fs_root_open_dir(&t->fs, t->dir) < 0)
			abort();
		r->all[i] = &t->fs;
	}
	r->ctx = (struct cfg_ctx){.a = &r->a,
				  .fs = &r->t[0].fs,
				  .all = r->all,
				  .n_all = n,
				  .out = &r->out};
}

static void tend(struct trun *r)
{
	char cmd[128];

	for (size_t i = 0; i < r->n; i++) {
		fs_root_close(&r->t[i].fs);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->t[i].dir);
		if (system(cmd) != 0)
			printf("  cannot remove %s\n", r->t[i].dir);
	}
	arena_free(&r->a);
}

static int trun_cfg(struct trun *r, const char *cfg)
{
	return grub_run_config(&r->ctx, "/boot/grub/grub.cfg", cfg, strlen(cfg),
			       0);
}

static struct entry *nth(struct trun *r, int i)
{
	struct entry *e = r->out.head;

	while (e && i-- > 0)
		e = e->next;
	return e;
}

static int default_index(struct trun *r)
{
	int i = 0;

	for (struct entry *e = r->out.head; e; e = e->next, i++)
		if (e->is_default)
			return i;
	return -1;
}

static const struct warning *warned(struct trun *r, const char *needle)
{
	for (const struct warning *w = r->out.warnings; w; w = w->next)
		if (strstr(w->msg, needle))
			return w;
	return NULL;
}

#define E_CMD(r, i) (nth(r, i) ? nth(r, i)->cmdline : "(no entry)")
#define E_KERNEL(r, i) (nth(r, i) ? nth(r, i)->kernel.path : "(no entry)")
#define E_TITLE(r, i) (nth(r, i) ? nth(r, i)->title : "(no entry)")

/* What one value of a case is: of the whole run up to W_WARNED_LINE, of
 * entry @i from W_TITLE on (strings up to W_MODULE, numbers from W_LINE
 * on). */
enum what {
	W_END,	       /* ends a case's list */
	W_RETURN,      /* what the parser returned */
	W_COUNT,       /* entries */
	W_WARNINGS,    /* warnings */
	W_TIMEOUT,     /* timeout_ds */
	W_DEFAULT_AT,  /* the first default entry's index */
	W_FILES_READ,  /* the files the run read */
	W_WARNED,      /* a warning contains @str */
	W_NOT_WARNED,  /* no warning contains @str */
	W_WARNED_LINE, /* the first warning containing @str is on line @num */
	W_TITLE,
	W_CMDLINE,
	W_KERNEL,
	W_ID,
	W_GROUP,
	W_SOURCE,
	W_DEVICETREE,
	W_DISABLED,
	W_DEV,		/* the kernel's device */
	W_INITRD,	/* the path of initrd @num */
	W_INITRD_DEV,	/* the device of initrd @num */
	W_MODULE,	/* the path of module @num */
	W_MODULE_ARGS,	/* the string of module @num */
	W_DISABLED_HAS, /* disabled, the reason containing @str ("": any) */
	W_LINE,
	W_N_INITRDS,
	W_N_MODULES,
	W_NOUNZIPS, /* the modules with --nounzip, as bits */
	W_MULTIBOOT,
	W_METHOD,
	W_IS_DEFAULT,
	W_ON_FS, /* the entry's config is on filesystem @num */
};

static const char *const what_name[] = {
    [W_RETURN] = "return",
    [W_COUNT] = "count",
    [W_WARNINGS] = "warnings",
    [W_TIMEOUT] = "timeout",
    [W_DEFAULT_AT] = "default",
    [W_FILES_READ] = "files read",
    [W_WARNED] = "warning",
    [W_NOT_WARNED] = "no warning",
    [W_WARNED_LINE] = "warning's line",
    [W_TITLE] = "title",
    [W_CMDLINE] = "cmdline",
    [W_KERNEL] = "kernel",
    [W_ID] = "id",
    [W_GROUP] = "group",
    [W_SOURCE] = "source",
    [W_DEVICETREE] = "devicetree",
    [W_DISABLED] = "disabled",
    [W_DEV] = "kernel's device",
    [W_INITRD] = "initrd",
    [W_INITRD_DEV] = "initrd's device",
    [W_MODULE] = "module",
    [W_MODULE_ARGS] = "module's string",
    [W_NOUNZIPS] = "--nounzip bits",
    [W_MULTIBOOT] = "multiboot",
    [W_DISABLED_HAS] = "disabled",
    [W_LINE] = "line",
    [W_N_INITRDS] = "initrd count",
    [W_N_MODULES] = "module count",
    [W_METHOD] = "method",
    [W_IS_DEFAULT] = "is_default",
    [W_ON_FS] = "filesystem",
};

/* A value a case expects: a string in @str (NULL: the field is NULL), a
 * number in @num (W_INITRD, W_INITRD_DEV, W_MODULE: which file). */
struct want {
	enum what what;
	int i;
	const char *str;
	long num;
};

#define WANT_MAX 16
#define FILES_MAX 4

/* @path (relative to the tree) on filesystem @fs, with @text. */
struct file {
	size_t fs;
	const char *path, *text;
};

/* @n_fs filesystems (1 when 0) with @uuid, @device and @files; @cfg run
 * as /boot/grub/grub.cfg, or with no @cfg grub_parse_fs() over the
 * first; what the run should make. */
struct gcase {
	const char *name;
	size_t n_fs;
	const char *uuid[T_FS_MAX], *device[T_FS_MAX];
	const char *fw_off;
	struct file files[FILES_MAX];
	const char *cfg;
	struct want want[WANT_MAX];
};

/* File @w->num of the entry's initrds or modules. */
static const char *entry_file(const struct entry *e, const struct want *w)
{
	const struct entry_file *f = e->initrds;
	size_t n = e->n_initrds;

	if (w->what == W_MODULE || w->what == W_MODULE_ARGS)
		f = e->modules, n = e->n_modules;
	if (w->num < 0 || (size_t)w->num >= n)
		return "(no such file)";
	if (w->what == W_MODULE_ARGS)
		return e->module_args ? e->module_args[w->num] : "(none)";
	return w->what == W_INITRD_DEV ? f[w->num].dev : f[w->num].path;
}

static const char *entry_str(const struct entry *e, const struct want *w)
{
	switch (w->what) {
	case W_TITLE:
		return e->title;
	case W_CMDLINE:
		return e->cmdline;
	case W_KERNEL:
		return e->kernel.path;
	case W_ID:
		return e->id;
	case W_GROUP:
		return e->group;
	case W_SOURCE:
		return e->source;
	case W_DEVICETREE:
		return e->devicetree;
	case W_DISABLED:
		return e->disabled;
	case W_DEV:
		return e->kernel.dev;
	default:
		return entry_file(e, w);
	}
}

/* A number of entry @e, or -1 with no entry. */
static long entry_num(struct trun *r, const struct entry *e,
		      const struct want *w)
{
	if (!e)
		return -1;
	switch (w->what) {
	case W_LINE:
		return e->line;
	case W_N_INITRDS:
		return (long)e->n_initrds;
	case W_N_MODULES:
		return (long)e->n_modules;
	case W_NOUNZIPS: {
		long bits = 0;

		for (size_t k = 0; k < e->n_modules; k++)
			bits |=
			    (long)(e->module_nounzip && e->module_nounzip[k])
			    << k;
		return bits;
	}
	case W_MULTIBOOT:
		return e->multiboot;
	case W_METHOD:
		return e->method;
	case W_IS_DEFAULT:
		return e->is_default;
	default: /* W_ON_FS */
		for (size_t k = 0; k < r->n; k++)
			if (e->fs == &r->t[k].fs)
				return (long)k;
		return -1;
	}
}

/* A number of the whole run (@rc: what the parser returned). */
static long run_num(struct trun *r, const struct want *w, int rc)
{
	const struct warning *found;

	switch (w->what) {
	case W_RETURN:
		return rc;
	case W_COUNT:
		return (long)r->out.count;
	case W_WARNINGS:
		return (long)r->out.n_warnings;
	case W_TIMEOUT:
		return r->out.timeout_ds;
	case W_DEFAULT_AT:
		return default_index(r);
	case W_FILES_READ:
		return (long)r->ctx.files;
	default: /* W_WARNED_LINE */
		found = warned(r, w->str);
		return found ? found->line : 0;
	}
}

static void check_want(struct trun *r, const struct want *w, int rc)
{
	const struct entry *e = nth(r, w->i);

	if (w->what == W_WARNED)
		CHECK(warned(r, w->str) != NULL);
	else if (w->what == W_NOT_WARNED)
		CHECK(warned(r, w->str) == NULL);
	else if (w->what == W_DISABLED_HAS)
		CHECK(e && e->disabled && strstr(e->disabled, w->str));
	else if (w->what < W_TITLE)
		CHECK_INT(run_num(r, w, rc), w->num);
	else if (w->what < W_DISABLED_HAS)
		CHECK_STR(e ? entry_str(e, w) : "(no entry)", w->str);
	else
		CHECK_INT(entry_num(r, e, w), w->num);
}

/* Check each value @c wants of @r (@rc: what the parser returned); a
 * value that differs is followed by the case's name and what the value
 * is. */
static void check_case(struct trun *r, const struct gcase *c, int rc)
{
	for (const struct want *w = c->want;
	     w < c->want + WANT_MAX && w->what != W_END; w++) {
		int before = test_failures;

		check_want(r, w, rc);
		if (test_failures == before)
			continue;
		printf("  case %s: %s", c->name, what_name[w->what]);
		if (w->what >= W_INITRD && w->what <= W_MODULE_ARGS)
			printf(" %ld", w->num);
		if (w->what >= W_TITLE)
			printf(" of entry %d", w->i);
		else if (w->str)
			printf(" \"%s\"", w->str);
		printf("\n");
	}
}

/* Make each case's filesystems, run it and check it. */
static void run_cases(const struct gcase *cases, size_t n)
{
	for (const struct gcase *c = cases; c < cases + n; c++) {
		struct trun r;
		int rc;

		tstart(&r, c->n_fs ? c->n_fs : 1);
		for (size_t k = 0; k < r.n; k++) {
			r.t[k].fs.uuid = c->uuid[k];
			r.t[k].fs.device = c->device[k];
		}
		r.ctx.fw_off = c->fw_off;
		for (const struct file *f = c->files;
		     f < c->files + FILES_MAX && f->path; f++)
			tput(&r.t[f->fs], f->path, f->text);
		rc = c->cfg ? trun_cfg(&r, c->cfg) : grub_parse_fs(&r.ctx);
		check_case(&r, c, rc);
		tend(&r);
	}
}

#define RUN_CASES(cases) run_cases(cases, sizeof(cases) / sizeof(cases[0]))

TEST(lexer_and_variables)
{
	static const struct gcase cases[] = {
	    {.name = "quoting",
	     .cfg = "set v=V\n"
		    "menuentry 'it''s \"q\"' {\n"
		    "  linux /k \"x y\" 'q$v' a\\ b \"$v\" "
		    "\"${v}w\" x\"$v\"'$v' \\$v\n"
		    "}\n",
	     .want = {{W_RETURN, .num = 1},
		      {W_TITLE, 0, "its \"q\""},
		      {W_CMDLINE, 0,
		       "BOOT_IMAGE=/k \"x y\" q$v \"a b\" V Vw xV$v $v"},
		      {W_LINE, 0, .num = 2},
		      {W_SOURCE, 0, "/boot/grub/grub.cfg"},
		      {W_WARNINGS, .num = 0}}},
	    {.name = "comments_continuation_separators",
	     .cfg = "# a comment; menuentry 'no' { }\n"
		    "set a=1; set b=2 # trailing#comment\n"
		    "menuentry \"T\" { linux /k a=$a \\\n  b=$b c#d; initrd "
		    "/i1 \\\n /i2\n}\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/k a=1 b=2 c#d"},
		      {W_N_INITRDS, 0, .num = 2},
		      {W_INITRD, 0, "/i1", 0},
		      {W_INITRD, 0, "/i2", 1}}},
	    /* a submenu sees exported variables only (normal/context.c) */
	    {.name = "variables_split_and_scope",
	     .cfg = "set opts=\"a   b\"\n"
		    "local=L\nset shared=S\nexport shared\n"
		    "unset nothing\n"
		    "menuentry x { linux /k $opts \"$opts\" $empty \"\" z }\n"
		    "submenu sub { menuentry y { linux /k l=$local s=$shared "
		    "} }\n",
	     .want = {{W_CMDLINE, 0, "BOOT_IMAGE=/k a b \"a   b\"  z"},
		      {W_CMDLINE, 1, "BOOT_IMAGE=/k l= s=S"},
		      {W_GROUP, 1, "sub"}}},
	    /* GRUB runs a body when the entry is chosen: variables as the
	     * script left them, and changes in one body do not leak into the
	     * next */
	    {.name = "late_evaluation_of_bodies",
	     .cfg = "set k=/old\n"
		    "menuentry a { linux $k; set k=/changed }\n"
		    "menuentry b { linux $k }\n"
		    "set k=/new\n",
	     .want = {{W_KERNEL, 0, "/new"}, {W_KERNEL, 1, "/new"}}},
	};

	RUN_CASES(cases);
}

TEST(script_statements)
{
	static const struct gcase cases[] = {
	    {.name = "if_elif_else_and_tests",
	     .files = {{0, "f", "x"}, {0, "empty", ""}, {0, "boot/x", ""}},
	     .cfg = "set x=3\n"
		    "if [ $x = 1 ]; then r=one; elif [ $x -eq 3 ]; then "
		    "r=three; else r=other; fi\n"
		    "if [ -z \"$unset\" -a -n \"$x\" ]; then t1=y; fi\n"
		    "if [ ! -f /nope -o -d /nope ]; then t2=y; fi\n"
		    "if test -f /f; then t3=y; fi\n"
		    "if [ -s /empty ]; then t4=n; else t4=y; fi\n"
		    "if [ -e /boot -a -d (A)/boot ]; then t5=y; fi\n"
		    "if [ 2 -lt 10 ]; then t9=y; fi\n"
		    "if false; then t6=n; elif [ \"a\" != \"a\" ]; then t6=n; "
		    "else t6=y; fi\n"
		    "if true\nthen\n t7=y\nfi\n"
		    "if [ ( 1 = 2 ) -o ( 3 -ge 3 ) ]; then t8=y; fi\n"
		    "menuentry t { linux /k $r $t1 $t2 $t3 $t4 $t5 $t6 $t7 "
		    "$t8 $t9 }\n",
	     .want = {{W_CMDLINE, 0, "BOOT_IMAGE=/k three y y y y y y y y y"},
		      {W_WARNINGS, .num = 0}}},
	    {.name = "for_loops_and_positional",
	     .cfg = "for v in 1 2 3; do\n"
		    "  if [ $v = 2 ]; then continue; fi\n"
		    "  menuentry \"E$v\" $v --class os { linux /vmlinuz-$2 "
		    "n=$# t=\"$1\" }\n"
		    "done\n"
		    "for v in a b c; do if [ $v = b ]; then break; fi; "
		    "last=$v; done\n"
		    "menuentry L { linux /k $last $v }\n",
	     .want = {{W_COUNT, .num = 3},
		      {W_TITLE, 0, "E1"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/vmlinuz-1 n=2 t=E1"},
		      {W_KERNEL, 1, "/vmlinuz-3"},
		      {W_CMDLINE, 2, "BOOT_IMAGE=/k a b"}}},
	    {.name = "functions",
	     .cfg = "function add { menuentry \"$1\" \"$2\" { linux /$2 } ; "
		    "count=$# ; all=\"$@\" }\n"
		    "function rc { return 3 }\n"
		    "add A ka\nadd B kb extra\n"
		    "rc; st=$?\n"
		    "function load_video { insmod x }\n"
		    "menuentry C { load_video; linux /c $count \"$all\" $st "
		    "}\n",
	     .want = {{W_COUNT, .num = 3},
		      {W_TITLE, 1, "B"},
		      {W_KERNEL, 0, "/ka"},
		      {W_KERNEL, 1, "/kb"},
		      {W_CMDLINE, 2, "BOOT_IMAGE=/c 3 \"B kb extra\" 3"}}},
	    {.name = "syntax_errors_drop_only_their_statement",
	     .cfg = "menuentry a { linux /a }\n"
		    "fi\n"
		    "done\n"
		    "}\n"
		    "menuentry b { if true; then linux /b; }\n"
		    "menuentry c { linux /c }\n"
		    "menuentry 'unterminated { linux /x }\n",
	     .want = {{W_KERNEL, 0, "/a"},
		      {W_KERNEL, 1, "/b"},
		      {W_KERNEL, 2, "/c"},
		      {W_WARNED, .str = "unexpected 'fi'"},
		      {W_WARNED, .str = "without 'fi'"},
		      {W_WARNED, .str = "unterminated quote"}}},
	};

	RUN_CASES(cases);
}

/* Debian 12's 20_linux_xen (grub-common 2.06-13+deb12u2) as it writes an
 * entry for a multiboot2 Xen; multiboot/module are its older form. */
static const char xen_cfg[] =
    "menuentry 'Debian GNU/Linux, with Xen hypervisor' --class xen {\n"
    "\tinsmod part_gpt\n"
    "\techo\t'Loading Xen 4.17-amd64 ...'\n"
    "        if [ \"$grub_platform\" = \"pc\" -o \"$grub_platform\" = \"\" ]; "
    "then\n"
    "            xen_rm_opts=\n"
    "        else\n"
    "            xen_rm_opts=\"no-real-mode edd=off\"\n"
    "        fi\n"
    "\tmultiboot2\t/boot/xen-4.17-amd64.gz placeholder   ${xen_rm_opts}\n"
    "\tmodule2\t/boot/vmlinuz-6.1.0-13-amd64 placeholder root=/dev/vda2 ro "
    " quiet\n"
    "\tmodule2\t--nounzip   /boot/initrd.img-6.1.0-13-amd64\n"
    "}\n"
    "menuentry 'Xen 4.11' {\n"
    "\tmultiboot /boot/xen-4.11-amd64.gz placeholder\n"
    "\tmodule /boot/vmlinuz-4.19 placeholder root=/dev/vda2 ro\n"
    "\tmodule --nounzip /boot/initrd.img-4.19\n"
    "}\n"
    "menuentry tboot {\n"
    "\tmultiboot /boot/tboot.gz logging=serial\n"
    "\tmodule /boot/vmlinuz-5.4 root=/dev/vda2\n"
    "}\n";

/* os-prober's entry for Windows on UEFI (30_os-prober): the EFI file
 * boots through the firmware, found on the ESP that search names; a BIOS
 * boot sector stays disabled; without UEFI the entry says why. */
static const char chainloader_cfg[] =
    "menuentry_id_option=\"--id\"\n"
    "set default=osprober-efi-D0A1-E5B0\n"
    "menuentry 'Windows Boot Manager (on /dev/vda1)' --class windows "
    "$menuentry_id_option 'osprober-efi-D0A1-E5B0' {\n"
    "\tinsmod part_gpt\n\tinsmod fat\n"
    "\tsearch --no-floppy --fs-uuid --set=root D0A1-E5B0\n"
    "\tchainloader /EFI/Microsoft/Boot/bootmgfw.efi\n}\n"
    "menuentry bios { chainloader --force +1 }\n"
    "menuentry bare { chainloader }\n";

TEST(menu_entries)
{
	static const struct gcase cases[] = {
	    {.name = "menuentry_options_and_ids",
	     .cfg = "menuentry_id_option=\"--id\"\n"
		    "menuentry 'One' --class a --class=b --users u "
		    "--unrestricted $menuentry_id_option one-id { linux /1 }\n"
		    "menuentry --hotkey=x 'Two' --id=two { linux /2 }\n"
		    "menuentry 'Three' { linux /3 }\n"
		    "submenu 'Outer' { submenu 'Inner' { menuentry 'Deep' { "
		    "linux /4 } } }\n",
	     .want = {{W_COUNT, .num = 4},
		      {W_ID, 0, "one-id"},
		      {W_ID, 1, "two"},
		      {W_TITLE, 1, "Two"},
		      {W_ID, 2, "Three"},
		      {W_GROUP, 3, "Outer>Inner"},
		      {W_ID, 3, "Outer>Inner>Deep"}}},
	    {.name = "loaders_and_disabled_entries",
	     .cfg = "menuentry a { linux16 /k16 x; initrd16 /i16 }\n"
		    "menuentry b { linuxefi /ke; initrdefi /ia /ib; devicetree "
		    "/dtb }\n"
		    "menuentry win { insmod chain; chainloader +1 }\n"
		    "menuentry nolinux { echo hi }\n"
		    "menuentry 'UEFI Firmware Settings' { fwsetup }\n"
		    "menuentry order { initrd /early; linux /k; initrd /late "
		    "}\n",
	     .want = {{W_COUNT, .num = 6},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/k16 x"},
		      {W_N_INITRDS, 1, .num = 2},
		      {W_DEVICETREE, 1, "/dtb"},
		      {W_DISABLED, 2,
		       "chainloads another OS: not bootable with kexec"},
		      {W_DISABLED_HAS, 3, "no linux"},
		      {W_DISABLED_HAS, 4, ""},
		      {W_DISABLED, 0, NULL},
		      {W_N_INITRDS, 5, .num = 1},
		      {W_WARNED, .str = "initrd before linux"}}},
	    /* 20_linux_xen's entries: bootable multiboot kernels, the
	     * strings GRUB gives (the words after each file, "placeholder"
	     * where Xen skips one); tboot too (any multiboot kernel) */
	    {.name = "xen_multiboot_bootable_with_modules",
	     .cfg = xen_cfg,
	     .want = {{W_COUNT, .num = 3},
		      {W_WARNINGS, .num = 0},
		      {W_DISABLED, 0, NULL},
		      {W_MULTIBOOT, 0, .num = 2},
		      {W_KERNEL, 0, "/boot/xen-4.17-amd64.gz"},
		      {W_CMDLINE, 0, "placeholder no-real-mode edd=off"},
		      {W_N_MODULES, 0, .num = 2},
		      {W_MODULE, 0, "/boot/vmlinuz-6.1.0-13-amd64", 0},
		      {W_MODULE_ARGS, 0, "placeholder root=/dev/vda2 ro quiet",
		       0},
		      {W_MODULE, 0, "/boot/initrd.img-6.1.0-13-amd64", 1},
		      {W_MODULE_ARGS, 0, "", 1},
		      {W_NOUNZIPS, 0, .num = 2},
		      {W_DISABLED, 1, NULL},
		      {W_MULTIBOOT, 1, .num = 1},
		      {W_N_MODULES, 1, .num = 2},
		      {W_CMDLINE, 2, "logging=serial"}}},
	    {.name = "xen_arm64_and_linux_after_multiboot",
	     .cfg = "menuentry a {\n xen_hypervisor /xen\n"
		    " xen_module /vmlinuz\n}\n"
		    "menuentry b {\n multiboot2 /xen.gz\n module2 /m\n"
		    " linux /vmlinuz root=/dev/sda1\n}\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_DISABLED_HAS, 0, "arm64"},
		      {W_DISABLED, 1, NULL},
		      {W_MULTIBOOT, 1, .num = 0},
		      {W_N_MODULES, 1, .num = 0},
		      {W_CMDLINE, 1, "BOOT_IMAGE=/vmlinuz root=/dev/sda1"}}},
	    /* a second multiboot2 drops the modules loaded before it */
	    {.name = "module_needs_a_multiboot_kernel",
	     .cfg = "menuentry a {\n linux /k\n module2 /m\n}\n"
		    "menuentry b {\n multiboot2 /xen.gz\n module2 --nounzip\n"
		    " multiboot2 /xen.gz\n module2 /m2\n}\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_WARNED_LINE,
		       .str = "module2 before multiboot: ignored, as GRUB does",
		       .num = 3},
		      {W_N_MODULES, 0, .num = 0},
		      {W_DISABLED, 0, NULL},
		      {W_WARNED, .str = "module2 without a file"},
		      {W_N_MODULES, 1, .num = 1},
		      {W_WARNINGS, .num = 2}}},
	    {.name = "chainloader_efi_through_the_firmware",
	     .n_fs = 2,
	     .uuid = {NULL, "D0A1-E5B0"},
	     .cfg = chainloader_cfg,
	     .want = {{W_COUNT, .num = 3},
		      {W_METHOD, 0, .num = ENTRY_FIRMWARE},
		      {W_DISABLED, 0, NULL},
		      {W_KERNEL, 0, "/EFI/Microsoft/Boot/bootmgfw.efi"},
		      {W_DEV, 0, "UUID=D0A1-E5B0"},
		      {W_DEFAULT_AT, .num = 0},
		      {W_METHOD, 1, .num = ENTRY_KEXEC},
		      {W_DISABLED, 1,
		       "chainloads another OS: not bootable with kexec"},
		      {W_WARNED, .str = "chainloader without a file"}}},
	    {.name = "chainloader_efi_without_uefi",
	     .n_fs = 2,
	     .uuid = {NULL, "D0A1-E5B0"},
	     .fw_off = "this machine did not boot through UEFI",
	     .cfg = chainloader_cfg,
	     .want = {{W_DISABLED, 0,
		       "this machine did not boot through UEFI"}}},
	};

	RUN_CASES(cases);
}

TEST(unknown_command_keeps_config)
{
	struct trun r;
	const struct warning *w;

	tstart(&r, 1);
	trun_cfg(&r, "insmod gfxterm; terminal_output gfxterm; loadfont "
		     "unicode; set gfxmode=auto\n"
		     "frobnicate --now\n"
		     "menuentry a {\n  wibble\n  linux /k\n}\n"
		     "if [ x = x ; then oops; fi\n"
		     "menuentry b { linux /k2 }\n");
	CHECK_INT(r.out.count, 2);
	w = warned(&r, "unknown command 'frobnicate'");
	CHECK(w != NULL);
	CHECK_INT(w ? w->line : 0, 2);
	CHECK_STR(w ? w->file : NULL, "/boot/grub/grub.cfg");
	w = warned(&r, "unknown command 'wibble'");
	CHECK_INT(w ? w->line : 0, 4);
	CHECK(warned(&r, "'[' without ']'") != NULL);
	CHECK(nth(&r, 0)->disabled == NULL);
	tend(&r);
}

/* A line that warns, repeated: one warning, its count, its first line;
 * the run stays linear (a bounded look back, no memory per repeat). */
TEST(repeated_warning_once_with_count)
{
	enum { N = 100000 };
	static char cfg[N * 12 + 64];
	struct trun r;
	const struct warning *w;
	size_t n = 0;

	tstart(&r, 1);
	for (int i = 0; i < N; i++)
		n += (size_t)sprintf(cfg + n, "frobnicate\n");
	sprintf(cfg + n, "menuentry a { linux /k }\n");
	trun_cfg(&r, cfg);
	CHECK_INT(r.out.count, 1);
	CHECK_INT(r.out.n_warnings, 1);
	w = r.out.warnings;
	CHECK_INT(w ? w->count : 0, N);
	CHECK_INT(w ? w->line : 0, 1);
	CHECK_STR(w ? w->msg : NULL,
		  "unknown command 'frobnicate': ignored (100000 times)");
	tend(&r);
}

TEST(search_and_device_paths)
{
	static const struct gcase cases[] = {
	    /* not found (yet): kept as a spec, resolved when the device
	     * appears */
	    {.name = "search_forms",
	     .n_fs = 3,
	     .uuid = {NULL, "1111-AAAA"},
	     .files = {{2, "marker/here", ""}},
	     .cfg = "menuentry u { search --no-floppy --fs-uuid --set=root "
		    "--hint-bios=hd0,gpt2 --hint 'hd0' 1111-aaaa; linux /k; "
		    "initrd /i }\n"
		    "menuentry l { search --label B --set r2; linux ($r2)/k }\n"
		    "menuentry f { search -f /marker/here -s; linux /k }\n"
		    "menuentry d { search.fs_label C root; linux /k }\n"
		    "menuentry du { search.fs_uuid 1111-AAAA root; linux /k }\n"
		    "menuentry miss { search --fs-uuid --set=root dead-beef; "
		    "linux /k }\n"
		    "menuentry setonly { search --fs-uuid --set 1111-AAAA; "
		    "linux /k }\n"
		    "menuentry self { search --label A --set; linux /k }\n",
	     .want = {{W_COUNT, .num = 8},
		      {W_DEV, 0, "UUID=1111-AAAA"},
		      {W_INITRD_DEV, 0, "UUID=1111-AAAA", 0},
		      {W_DEV, 1, "UUID=1111-AAAA"},
		      {W_DEV, 2, "LABEL=C"},
		      {W_DEV, 3, "LABEL=C"},
		      {W_DEV, 4, "UUID=1111-AAAA"},
		      {W_DEV, 5, "UUID=dead-beef"},
		      {W_DEV, 6, "UUID=1111-AAAA"},
		      {W_DEV, 7, NULL},
		      {W_CMDLINE, 1, "BOOT_IMAGE=(B)/k"},
		      {W_WARNINGS, .num = 0}}},
	    /* a device path names a disk better than a label does */
	    {.name = "device_paths",
	     .n_fs = 2,
	     .uuid = {"0000-0001"},
	     .device = {"/dev/vda1", "/dev/vda2"},
	     .cfg = "menuentry a { linux (hd0,gpt2)/k; initrd (hd0,msdos1)/i "
		    "}\n"
		    "menuentry b { set root='hd1,gpt1'; linux /k }\n"
		    "menuentry c { set root=(B); linux ($root)/k; initrd /i }\n"
		    "menuentry d { linux (0000-0001)/k }\n"
		    "menuentry e { linux (lvm/vg-boot)/k }\n",
	     .want = {{W_DEV, 0, "/dev/vda2"},
		      {W_INITRD_DEV, 0, NULL, 0},
		      {W_DEV, 1, "hd1,gpt1"},
		      {W_WARNED, .str = "(hd1,gpt1) is not a known filesystem"},
		      {W_DEV, 2, "/dev/vda2"},
		      {W_INITRD_DEV, 2, "/dev/vda2", 0},
		      {W_DEV, 3, NULL},
		      {W_DEV, 4, "lvm/vg-boot"}}},
	};

	RUN_CASES(cases);
}

TEST(default_forms)
{
	static const struct {
		const char *def;
		int want;
	} cases[] = {
	    {"0", 0},	   {"2", 2},	       {"Two", 1},
	    {"id-one", 0}, {"Sub>Inner B", 3}, {"sub-id>inner-a", 2},
	    {"2>1", 3},	   {"Sub", 2},	       {"nothing", 0},
	    {"9", 0},	   {"Odd>>Title", 4},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trun r;
		char cfg[1024];

		tstart(&r, 1);
		snprintf(cfg, sizeof(cfg),
			 "set default=\"%s\"\n"
			 "menuentry One --id id-one { linux /1 }\n"
			 "menuentry Two { linux /2 }\n"
			 "submenu Sub --id sub-id { menuentry 'Inner A' --id "
			 "inner-a { linux /a }\n"
			 "  menuentry 'Inner B' { linux /b } }\n"
			 "menuentry 'Odd>Title' { linux /o }\n",
			 cases[i].def);
		trun_cfg(&r, cfg);
		if (default_index(&r) != cases[i].want)
			printf("  default=%s\n", cases[i].def);
		CHECK_INT(default_index(&r), cases[i].want);
		tend(&r);
	}
}

static const char grubenv_text[] = "# GRUB Environment Block\n"
				   "saved_entry=Sub>Inner B\n"
				   "kernelopts=root=/dev/sda1 ro\n"
				   "esc=a\\\\b\n"
				   "#comment=x\n";

static void put_grubenv(struct tfs *t, const char *path, const char *extra)
{
	char block[1024];
	size_t n;

	snprintf(block, sizeof(block), "%s%s", grubenv_text, extra);
	n = strlen(block);
	memset(block + n, '#', sizeof(block) - n - 1);
	block[sizeof(block) - 1] = '\0';
	tput(t, path, block);
}

static const char saved_cfg[] =
    "if [ -s $prefix/grubenv ]; then load_env; fi\n"
    "if [ \"${next_entry}\" ] ; then set default=\"${next_entry}\"; set "
    "next_entry=; save_env next_entry\n"
    "else set default=\"${saved_entry}\"; fi\n"
    "menuentry One { linux /1 $kernelopts $esc }\n"
    "menuentry Two { linux /2 }\n"
    "submenu Sub { menuentry 'Inner A' { linux /a }\n menuentry 'Inner B' { "
    "linux /b } }\n";

TEST(default_saved_and_next_entry)
{
	struct trun r;

	tstart(&r, 1);
	put_grubenv(&r.t[0], "boot/grub/grubenv", "");
	trun_cfg(&r, saved_cfg);
	CHECK_INT(default_index(&r), 3);
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/1 root=/dev/sda1 ro a\\\\b");
	tend(&r);

	tstart(&r, 1);
	put_grubenv(&r.t[0], "boot/grub/grubenv", "next_entry=Two\n");
	trun_cfg(&r, saved_cfg);
	CHECK_INT(default_index(&r), 1);
	tend(&r);

	tstart(&r, 1);
	put_grubenv(&r.t[0], "boot/grub/grubenv", "");
	trun_cfg(
	    &r, "load_env -f /boot/grub/grubenv kernelopts\nset default=saved\n"
		"menuentry One { linux /1 $kernelopts s=$saved_entry }\n");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/1 root=/dev/sda1 ro s=");
	tend(&r);
}

static int env_count(void *data, const char *name, const char *value)
{
	char *acc = data;

	snprintf(acc + strlen(acc), 256 - strlen(acc), "%s=%s;", name, value);
	return 0;
}

TEST(grubenv_reader)
{
	char acc[256] = "";
	static const char bad[] = "saved_entry=x\n";
	static const char odd[] =
	    "# GRUB Environment Block\n"
	    "a=1\n=novalue\nno_equals\nb=two words\\\nnext\n"
	    "c\\=d=e\n1x-y.z=ok\n####";

	CHECK_INT(
	    grub_env_parse(grubenv_text, strlen(grubenv_text), env_count, acc),
	    3);
	CHECK_STR(
	    acc,
	    "saved_entry=Sub>Inner B;kernelopts=root=/dev/sda1 ro;esc=a\\b;");
	CHECK_INT(grub_env_parse(bad, strlen(bad), env_count, acc), -EINVAL);
	acc[0] = '\0';
	CHECK_INT(grub_env_parse(odd, strlen(odd), env_count, acc), 3);
	CHECK_STR(acc, "a=1;b=two words\nnext;1x-y.z=ok;");
	CHECK_INT(grub_env_parse(odd, GRUB_ENV_MAX + 1, env_count, acc),
		  -EFBIG);
}

TEST(timeout)
{
	static const struct gcase cases[] = {
	    {.name = "timeout_hidden",
	     .cfg = "set timeout_style=hidden\nset timeout=7\n"
		    "menuentry a { linux /k }\n",
	     .want = {{W_TIMEOUT, .num = 70}}},
	    {.name = "timeout_-1",
	     .cfg = "set timeout=-1\nmenuentry a { linux /k }\n",
	     .want = {{W_TIMEOUT, .num = -1}}},
	};

	RUN_CASES(cases);
}

/* source, configfile and blscfg read other files; a loop that sources a
 * file reads it CFG_FILES_MAX times, then stops reading (a million steps
 * of reads would take seconds on a stick). */
TEST(other_files)
{
	static const struct gcase cases[] = {
	    /* configfile shows the new menu: Before, Sourced and After are
	     * gone */
	    {.name = "source_and_configfile",
	     .files =
		 {{0, "boot/grub/extra.cfg",
		   "menuentry Sourced { linux /s }\nset from_source=yes\n"},
		  {0, "boot/grub/other.cfg",
		   "menuentry Other { linux /o $from_source $exported "
		   "}\n"}},
	     .cfg = "menuentry Before { linux /b }\n"
		    "source ${config_directory}/extra.cfg\n"
		    "set exported=E; export exported\n"
		    "configfile $prefix/other.cfg\n"
		    "menuentry After { linux /a }\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_TITLE, 0, "Other"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/o E"},
		      {W_SOURCE, 0, "/boot/grub/other.cfg"}}},
	    {.name = "configfile_missing_or_itself",
	     .cfg = "menuentry Kept { linux /k }\nconfigfile /missing.cfg\n"
		    "configfile /boot/grub/grub.cfg\nmenuentry Also { linux "
		    "/a }\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_WARNED, .str = "cannot read /missing.cfg"}}},
	    {.name = "source_depth_limit",
	     .files = {{0, "loop.cfg", "set n=x$n\nsource /loop.cfg\n"},
		       {0, "boot/grub/grub.cfg",
			"configfile /boot/grub/grub.cfg\n"}},
	     .cfg = "source /loop.cfg\nmenuentry a { linux /k $n }\n",
	     .want = {{W_WARNED, .str = "source nested more than"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/k xxxxxxxx"}}},
	    {.name = "configfile_depth_limit",
	     .files = {{0, "boot/grub/grub.cfg",
			"configfile /boot/grub/grub.cfg\n"}},
	     .want = {{W_RETURN, .num = 0},
		      {W_WARNED, .str = "configfile nested more than"}}},
	    {.name = "include_read_budget",
	     .files = {{0, "x.cfg", "set n=1\n"}},
	     .cfg = "menuentry a { linux /k }\n"
		    "while true; do source /x.cfg; done\n",
	     .want = {{W_WARNED, .str = "included more than"},
		      {W_NOT_WARNED, .str = "cannot read /x.cfg"},
		      {W_FILES_READ, .num = CFG_FILES_MAX + 1},
		      {W_COUNT, .num = 1}}},
	    /* the stub into B's own grub.cfg adds nothing (B's scan shows
	     * it); the one into another file shows that file's menu, on B */
	    {.name = "esp_stub_defers_to_the_real_config",
	     .n_fs = 2,
	     .uuid = {NULL, "2222-BBBB"},
	     .files = {{0, "EFI/debian/grub.cfg",
			"search.fs_uuid 2222-bbbb root hd0,gpt2\n"
			"set prefix=($root)'/boot/grub'\n"
			"configfile $prefix/grub.cfg\n"},
		       {1, "boot/grub/grub.cfg",
			"menuentry Real { linux /boot/k }\n"},
		       {0, "EFI/other/grub.cfg",
			"search --label B --set=root\n"
			"configfile /boot/grub/alt.cfg\n"},
		       {1, "boot/grub/alt.cfg",
			"set timeout=3\nmenuentry Alt { linux /boot/k }\n"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_TITLE, 0, "Alt"},
		      {W_ON_FS, 0, .num = 1},
		      {W_DEV, 0, NULL},
		      {W_SOURCE, 0, "/boot/grub/alt.cfg"},
		      {W_IS_DEFAULT, 0, .num = 1},
		      {W_TIMEOUT, .num = 30}}},
	    {.name = "blscfg",
	     .files = {{0, "loader/entries/abc-5.0.conf",
			"title Fedora (5.0)\nversion 5.0\n"
			"linux /vmlinuz-5.0\ninitrd /initramfs-5.0.img\n"
			"options $kernelopts ${extra} rhgb\n"}},
	     .cfg = "set kernelopts=\"root=/dev/vda2 ro\"\nset extra=quiet\n"
		    "set default=abc-5.0\n"
		    "menuentry Before { linux /b }\n"
		    "blscfg\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_TITLE, 1, "Fedora (5.0)"},
		      {W_ID, 1, "abc-5.0"},
		      {W_CMDLINE, 1,
		       "BOOT_IMAGE=(A)/vmlinuz-5.0 root=/dev/vda2 ro quiet "
		       "rhgb"},
		      {W_DEFAULT_AT, .num = 1}}},
	    /* `configfile` in an entry (snapper's snapshot entries): that
	     * file's menu under the entry's title, run with the exported
	     * variables (and $btrfs_subvol); the entry adds nothing itself.
	     * In a submenu's body (grub-btrfs), the file's menu is the
	     * submenu's. */
	    {.name = "configfile_in_entries_and_submenus",
	     .files = {{0, "snap/grub.cfg",
			"menuentry In { linux /k $extra $local }\n"
			"submenu Adv { menuentry Deep { linux /k2 } }\n"},
		       {0, "sub/grub.cfg", "menuentry S1 { linux /s1 }\n"}},
	     .cfg = "set local=no\n"
		    "menuentry Snap { extra=x; export extra\n"
		    "  configfile /snap/grub.cfg }\n"
		    "submenu Sub { configfile /sub/grub.cfg }\n",
	     .want = {{W_COUNT, .num = 3},
		      {W_TITLE, 0, "In"},
		      {W_GROUP, 0, "Snap"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/k x"},
		      {W_GROUP, 1, "Snap>Adv"},
		      {W_TITLE, 2, "S1"},
		      {W_GROUP, 2, "Sub"}}},
	};

	RUN_CASES(cases);
}

/* `initrd` with thousands of words: the first ENTRY_INITRD_MAX are kept
 * (each add copies the array: 8,000 words cost 800 MB before), the entry
 * is disabled; a later `linux` starts its initrds afresh. */
TEST(initrd_words_bounded)
{
	static char cfg[8000 * 3 + 256];
	struct trun r;
	size_t n, before;

	n = (size_t)sprintf(cfg, "menuentry many { linux /k\n initrd");
	for (int i = 0; i < 8000; i++)
		n += (size_t)sprintf(cfg + n, " /a");
	sprintf(
	    cfg + n,
	    "\n}\nmenuentry again { initrd /a /b /c /d /e /f /g /h "
	    "/i /j /k /l /m /n /o /p /q /r /s /t /u /v /w /x /y /z /0 /1 /2 "
	    "/3 /4 /5 /6\n linux /k\n initrd /a\n}\n");
	tstart(&r, 1);
	before = r.a.used;
	trun_cfg(&r, cfg);
	cfg_finish(&r.out, r.all, r.n);
	CHECK(r.a.used - before < (size_t)64 * n);
	CHECK_INT(r.out.count, 2);
	CHECK_INT(nth(&r, 0)->n_initrds, ENTRY_INITRD_MAX);
	CHECK_STR(nth(&r, 0)->disabled,
		  "names more than 32 initrds, the most one boot loads");
	CHECK_INT(nth(&r, 1)->n_initrds, 1);
	CHECK_STR(nth(&r, 1)->disabled, NULL);
	tend(&r);
}

TEST(step_limit)
{
	struct trun r;
	static const char cfg[] =
	    "menuentry a { linux /k }\nwhile true; do set x=y; done\n"
	    "menuentry b { linux /k }\n";

	tstart(&r, 1);
	grub_run_config(&r.ctx, "/boot/grub/grub.cfg", cfg, strlen(cfg), 5000);
	CHECK(warned(&r, "more than 5000 steps") != NULL);
	CHECK_INT(r.out.count, 1);
	tend(&r);

	tstart(&r, 1);
	trun_cfg(&r, "function f { f }\nf\nset a=x\n"
		     "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
		     "20 21 22; do set a=$a$a$a$a; done\n"
		     "menuentry a { linux /k }\n");
	CHECK(warned(&r, "nested") != NULL);
	CHECK(warned(&r, "cut") != NULL || warned(&r, "bytes") != NULL);
	CHECK_INT(r.out.count, 1);
	tend(&r);
}

TEST(submenu_depth_limit)
{
	struct trun r;
	char cfg[4096] = "";

	tstart(&r, 1);
	for (int i = 0; i < CFG_SUBMENU_DEPTH + 2; i++)
		strcat(cfg, "submenu s {\n");
	strcat(cfg, "menuentry deep { linux /k }\n");
	for (int i = 0; i < CFG_SUBMENU_DEPTH + 2; i++)
		strcat(cfg, "}\n");
	strcat(cfg, "menuentry top { linux /t }\n");
	trun_cfg(&r, cfg);
	CHECK(warned(&r, "submenus nested more than") != NULL);
	CHECK_INT(r.out.count, 1);
	CHECK_STR(E_TITLE(&r, 0), "top");
	tend(&r);
}

/* RHEL 8 on UEFI: grub.cfg and grubenv on the ESP (A), the BLS entries on
 * /boot (B), found by `search --set=root`. GRUB lists each entry once,
 * through blscfg, with $kernelopts from the ESP's grubenv; B's own scan
 * must not list the same files again as plain BLS entries (with a literal
 * $kernelopts), whichever filesystem is parsed first. */
TEST(blscfg_across_filesystems)
{
	struct trun r;
	struct entry_list b_out;
	struct cfg_ctx b;

	tstart(&r, 2);
	r.t[1].fs.uuid = "4f6e2a1c-8d3b-4e5f-9a7c-2b1d0e9f8a76";
	tput(&r.t[0], "EFI/redhat/grubenv",
	     "# GRUB Environment Block\nkernelopts=root=/dev/vg/root ro\n");
	tput(&r.t[0], "EFI/redhat/grub.cfg",
	     "load_env -f ${config_directory}/grubenv\n"
	     "search --no-floppy --fs-uuid --set=root "
	     "4f6e2a1c-8d3b-4e5f-9a7c-2b1d0e9f8a76\n"
	     "insmod blscfg\nblscfg\n");
	tput(&r.t[1], "loader/entries/m-4.18.conf",
	     "title RHEL (4.18)\nversion 4.18\nlinux /vmlinuz-4.18\n"
	     "initrd /initramfs-4.18.img $tuned_initrd\n"
	     "options $kernelopts $tuned_params\n");
	entry_list_init(&b_out, &r.a);
	b = r.ctx;
	b.fs = &r.t[1].fs;
	b.out = &b_out;
	bls_parse_fs(&b); /* /boot first, as a scan may */
	grub_parse_fs(&r.ctx);
	entry_list_splice(&r.out, &b_out);
	cfg_finish(&r.out, r.all, r.n);
	CHECK_INT(r.out.count, 1);
	CHECK_INT(nth(&r, 0) ? (int)nth(&r, 0)->format : -1, (int)FMT_GRUB);
	CHECK_STR(E_CMD(&r, 0),
		  "BOOT_IMAGE=(B)/vmlinuz-4.18 root=/dev/vg/root ro");
	CHECK_INT(nth(&r, 0) ? (int)nth(&r, 0)->n_initrds : -1, 1);
	CHECK(nth(&r, 0) && nth(&r, 0)->kernel.fs == &r.t[1].fs);
	tend(&r);
}

TEST(primary_config_locations)
{
	static const char *const paths[] = {
	    "boot/grub/grub.cfg", "grub/grub.cfg", "boot/grub2/grub.cfg",
	    "grub2/grub.cfg", "EFI/fedora/grub.cfg",
	    /* a standalone image built with -p /EFI/BOOT/grub (Tails) */
	    "EFI/BOOT/grub/grub.cfg"};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct trun r;
		char want[64];

		tstart(&r, 1);
		tput(&r.t[0], paths[i], "menuentry x { linux /k }\n");
		grub_parse_fs(&r.ctx);
		CHECK_INT(r.out.count, 1);
		snprintf(want, sizeof(want), "/%s", paths[i]);
		CHECK_STR(nth(&r, 0) ? nth(&r, 0)->source : NULL, want);
		tend(&r);
	}
}

/* Make t[0] (its tree the top level) a btrfs filesystem whose parsers'
 * root is @home, whose default subvolume is @def and whose other
 * subvolumes are @sv[0..n). */
static void tbtrfs(struct trun *r, const char *home, const char *def,
		   const char *const *sv, size_t n)
{
	struct fs_root *fs = &r->t[0].fs;
	int top = fs->root_fd;

	fs->fstype = "btrfs";
	fs->root_fd =
	    *home ? fs_open_how(fs, home, O_PATH | O_DIRECTORY, FS_RESOLVE_AUTO)
		  : dup(top);
	if (fs->root_fd < 0 ||
	    fs_root_add_btrfs(fs, &r->a, top, home, def, sv, n))
		abort();
}

#define E_KFS(r, i) (nth(r, i) ? nth(r, i)->kernel.fs : NULL)

/* Upstream GRUB: paths from the top level (Ubuntu's /@/boot/...); a path
 * inside the root handed to parsers lands there, any other on the top
 * level; $prefix and $config_file name the top-level path. */
TEST(btrfs_paths_from_the_top_level)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "@/boot/vmlinuz-1", "k");
	tput(&r.t[0], "@snap/boot/vmlinuz-2", "k");
	tput(&r.t[0], "@/boot/grub/grub.cfg", "");
	tbtrfs(&r, "@", "", NULL, 0);
	CHECK(fs_is_file(&r.t[0].fs, "/boot/grub/grub.cfg")); /* in @ */
	trun_cfg(&r, "menuentry U { linux /@/boot/vmlinuz-1 }\n"
		     "menuentry S { linux /@snap/boot/vmlinuz-2 }\n"
		     "menuentry \"$prefix $config_file\" { linux (A)/x }\n"
		     "search --file --set=f /@snap/boot/vmlinuz-2\n"
		     "menuentry \"found $f\" { linux /x }\n");
	CHECK_STR(E_KERNEL(&r, 0), "/boot/vmlinuz-1");
	CHECK(nth(&r, 0) && !nth(&r, 0)->kernel.dev && !E_KFS(&r, 0));
	CHECK_STR(E_KERNEL(&r, 1), "/@snap/boot/vmlinuz-2");
	CHECK(E_KFS(&r, 1) == r.t[0].fs.btrfs->top);
	CHECK_STR(E_TITLE(&r, 2), "(A)/@/boot/grub (A)/@/boot/grub/grub.cfg");
	CHECK_STR(E_KERNEL(&r, 2), "/x"); /* top-level /x: not in @ */
	CHECK(E_KFS(&r, 2) == r.t[0].fs.btrfs->top);
	CHECK_STR(E_TITLE(&r, 3), "found A"); /* search --file from the top */
	CHECK_STR(r.t[0].fs.btrfs->top->name, "A:top");
	/* the entry room keeps a file on the top level there */
	cfg_finish(&r.out, r.all, 1);
	CHECK(E_KFS(&r, 0) == &r.t[0].fs);
	CHECK(E_KFS(&r, 1) == r.t[0].fs.btrfs->top);
	tend(&r);
}

/* SUSE's patches: btrfs_relative_path=y ('1' too) starts paths at the
 * default subvolume, at $btrfs_subvol when set, and a btrfs-mount-subvol
 * directory (the longest) at its subvolume; "n" is off. */
TEST(btrfs_relative_path_subvol_and_mounts)
{
	/* entries run when chosen: each sets the mode it is read in */
	static const char cfg[] =
	    "btrfs-mount-subvol ($root) /.snapshots @/.snapshots\n"
	    "btrfs-mount-subvol ($root) /.snapshots/2 @/other\n"
	    "menuentry Off { btrfs_relative_path=; linux /boot/vmlinuz }\n"
	    "menuentry Def { btrfs_relative_path=y; linux /boot/vmlinuz }\n"
	    "menuentry Mnt { btrfs_relative_path=y\n"
	    "  linux /.snapshots/3/snapshot/boot/vmlinuz }\n"
	    "menuentry Longest { btrfs_relative_path=y; linux /.snapshots/2/x "
	    "}\n"
	    "menuentry Sub { btrfs_relative_path=y\n"
	    "  btrfs_subvol=/@/.snapshots/3/snapshot; linux /boot/vmlinuz }\n"
	    "menuentry One { btrfs_relative_path=1; linux /boot/vmlinuz }\n"
	    "menuentry No { btrfs_relative_path=n; linux /boot/vmlinuz }\n"
	    "set btrfs_relative_path=y\n"
	    "source /.snapshots/3/t.cfg\n";
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "@/.snapshots/1/snapshot/boot/vmlinuz", "k1");
	tput(&r.t[0], "@/.snapshots/3/snapshot/boot/vmlinuz", "k3");
	tput(&r.t[0], "@/.snapshots/3/t.cfg",
	     "menuentry \"$config_file\" { linux /k }\n");
	tbtrfs(&r, "@/.snapshots/1/snapshot", "@/.snapshots/1/snapshot", NULL,
	       0);
	trun_cfg(&r, cfg);
	CHECK_INT(r.out.count, 8);
	/* $config_file as GRUB names it, through the mounted /.snapshots */
	CHECK_STR(E_TITLE(&r, 7), "(A)/.snapshots/3/t.cfg");
	CHECK_STR(E_KERNEL(&r, 0), "/boot/vmlinuz"); /* the top's /boot */
	CHECK(E_KFS(&r, 0) == r.t[0].fs.btrfs->top);
	CHECK_STR(E_KERNEL(&r, 1), "/boot/vmlinuz");
	CHECK(!E_KFS(&r, 1));
	CHECK_STR(E_KERNEL(&r, 2), "/@/.snapshots/3/snapshot/boot/vmlinuz");
	CHECK(E_KFS(&r, 2) == r.t[0].fs.btrfs->top);
	CHECK_STR(E_KERNEL(&r, 3), "/@/other/x");
	CHECK_STR(E_KERNEL(&r, 4), "/@/.snapshots/3/snapshot/boot/vmlinuz");
	CHECK_STR(E_KERNEL(&r, 5), "/boot/vmlinuz");
	CHECK(!E_KFS(&r, 5));
	CHECK(E_KFS(&r, 6) == r.t[0].fs.btrfs->top);
	CHECK(warned(&r, "unknown command") == NULL);
	tend(&r);
}

/* --list names the subvolume a file is in: the kernel's in the device
 * column, its files then from the subvolume's root (the top level's and
 * home's views alike); a file elsewhere with its own place; a top-level
 * file in none as the top level sees it. JSON: "subvolume" beside it. */
TEST(btrfs_list_names_the_subvolume)
{
	static const char *const sv[] = {"/@/", "@/.snap",
					 "@/.snapshots/2/snapshot", "@snap"};
	static const char want[] =
	    "0* H [grub] A[@]:/boot/k initrd=A[@snap]:/boot/i -- "
	    "BOOT_IMAGE=/@/boot/k\n"
	    "1  S [grub] A[@/.snapshots/2/snapshot]:/boot/k initrd=/boot/i -- "
	    "BOOT_IMAGE=/@/.snapshots/2/snapshot/boot/k\n"
	    "2  T [grub] A:A:top:/plain/k initrd=A[@]:/boot/i,A:top:/plain/i "
	    "-- BOOT_IMAGE=/plain/k\n";
	struct trun r;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	tstart(&r, 1);
	tput(&r.t[0], "@/boot/k", "k");
	tput(&r.t[0], "@/.snapshots/2/snapshot/boot/k", "k");
	tput(&r.t[0], "@/boot/i", "i");
	tput(&r.t[0], "@/.snapshots/2/snapshot/boot/i", "i");
	tput(&r.t[0], "@snap/boot/i", "i");
	tput(&r.t[0], "plain/k", "k");
	tput(&r.t[0], "plain/i", "i");
	tbtrfs(&r, "@", "", sv, 4);
	CHECK_INT(r.t[0].fs.btrfs->n_subvols, 4); /* the default is the top */
	CHECK_STR(r.t[0].fs.btrfs->subvols[0], "@");
	trun_cfg(&r,
		 "menuentry H { linux /@/boot/k; initrd /@snap/boot/i }\n"
		 "menuentry S { linux /@/.snapshots/2/snapshot/boot/k\n"
		 "  initrd /@/.snapshots/2/snapshot/boot/i }\n"
		 "menuentry T { linux /plain/k; initrd /@/boot/i /plain/i }\n");
	cfg_finish(&r.out, r.all, 1);
	f = open_memstream(&out, &len);
	listing_text(f, &r.out, r.out.head);
	fclose(f);
	CHECK_STR(out, want);
	free(out);
	f = open_memstream(&out, &len);
	listing_json(f, &r.out, NULL, NULL);
	fclose(f);
	CHECK(strstr(out, "\"kernel_file\":{\"path\":\"/.snapshots/2/snapshot/"
			  "boot/k\",\"device\":\"A\",\"subvolume\":\"@/"
			  ".snapshots/2/snapshot\",\"spec\":null}") != NULL);
	CHECK(strstr(out, "{\"path\":\"/@snap/boot/i\",\"device\":\"A:top\","
			  "\"subvolume\":\"@snap\",") != NULL);
	CHECK(strstr(out, "\"kernel_file\":{\"path\":\"/plain/k\",\"device\":"
			  "\"A:top\",\"subvolume\":null,") != NULL);
	free(out);
	tend(&r);
}

/* Fedora's blscfg reads $blsdir first (grubenv, when /boot is on btrfs);
 * on btrfs the entries' files are GRUB paths from the top level. */
TEST(blscfg_blsdir_and_btrfs_paths)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "root/boot/loader/entries/m-6.1.conf",
	     "title F\nversion 6.1\nlinux /root/boot/vmlinuz-6.1\n"
	     "initrd /root/boot/initramfs-6.1.img\noptions ro\n");
	tput(&r.t[0], "root/boot/vmlinuz-6.1", "k");
	tbtrfs(&r, "root", "", NULL, 0);
	trun_cfg(&r, "set blsdir=/root/boot/loader/entries\nblscfg\n");
	CHECK_INT(r.out.count, 1);
	CHECK_STR(E_KERNEL(&r, 0), "/boot/vmlinuz-6.1");
	CHECK(!E_KFS(&r, 0));
	CHECK_STR(nth(&r, 0) && nth(&r, 0)->n_initrds
		      ? nth(&r, 0)->initrds[0].path
		      : NULL,
		  "/boot/initramfs-6.1.img");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=(A)/root/boot/vmlinuz-6.1 ro");
	tend(&r);
}

TEST_MAIN("test_grub", lexer_and_variables, script_statements, menu_entries,
	  unknown_command_keeps_config, repeated_warning_once_with_count,
	  search_and_device_paths, default_forms, default_saved_and_next_entry,
	  grubenv_reader, timeout, other_files, initrd_words_bounded,
	  step_limit, submenu_depth_limit, blscfg_across_filesystems,
	  primary_config_locations, btrfs_paths_from_the_top_level,
	  btrfs_relative_path_subvol_and_mounts, btrfs_list_names_the_subvolume,
	  blscfg_blsdir_and_btrfs_paths)
