/* test_grub.c - the grub.cfg reader: lexer, interpreter, menu, default,
 * search, grubenv, source/configfile, limits. Each test builds small
 * filesystem trees under /tmp and runs a config through grub_run_config()
 * or grub_parse_fs(). */
#include "cfg/bls.h"
#include "cfg/grub.h"
#include "cfg/grub_env.h"
#include "entry/entry.h"
#include "entry/entry_print.h"
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

TEST(quoting)
{
	struct trun r;

	tstart(&r, 1);
	CHECK_INT(trun_cfg(&r, "set v=V\n"
			       "menuentry 'it''s \"q\"' {\n"
			       "  linux /k \"x y\" 'q$v' a\\ b \"$v\" "
			       "\"${v}w\" x\"$v\"'$v' \\$v\n"
			       "}\n"),
		  1);
	CHECK_STR(E_TITLE(&r, 0), "its \"q\"");
	CHECK_STR(E_CMD(&r, 0),
		  "BOOT_IMAGE=/k \"x y\" q$v \"a b\" V Vw xV$v $v");
	CHECK_INT(nth(&r, 0)->line, 2);
	CHECK_STR(nth(&r, 0)->source, "/boot/grub/grub.cfg");
	CHECK_INT(r.out.n_warnings, 0);
	tend(&r);
}

TEST(comments_continuation_separators)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(&r, "# a comment; menuentry 'no' { }\n"
		     "set a=1; set b=2 # trailing#comment\n"
		     "menuentry \"T\" { linux /k a=$a \\\n  b=$b c#d; initrd "
		     "/i1 \\\n /i2\n}\n");
	CHECK_INT(r.out.count, 1);
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/k a=1 b=2 c#d");
	CHECK_INT(nth(&r, 0)->n_initrds, 2);
	if (nth(&r, 0)->n_initrds == 2) {
		CHECK_STR(nth(&r, 0)->initrds[0].path, "/i1");
		CHECK_STR(nth(&r, 0)->initrds[1].path, "/i2");
	}
	tend(&r);
}

TEST(variables_split_and_scope)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(
	    &r,
	    "set opts=\"a   b\"\n"
	    "local=L\nset shared=S\nexport shared\n"
	    "unset nothing\n"
	    "menuentry x { linux /k $opts \"$opts\" $empty \"\" z }\n"
	    "submenu sub { menuentry y { linux /k l=$local s=$shared } }\n");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/k a b \"a   b\"  z");
	/* a submenu sees exported variables only (normal/context.c) */
	CHECK_STR(E_CMD(&r, 1), "BOOT_IMAGE=/k l= s=S");
	CHECK_STR(nth(&r, 1) ? nth(&r, 1)->group : NULL, "sub");
	tend(&r);
}

TEST(late_evaluation_of_bodies)
{
	struct trun r;

	tstart(&r, 1);
	/* GRUB runs a body when the entry is chosen: variables as the script
	 * left them, and changes in one body do not leak into the next. */
	trun_cfg(&r, "set k=/old\n"
		     "menuentry a { linux $k; set k=/changed }\n"
		     "menuentry b { linux $k }\n"
		     "set k=/new\n");
	CHECK_STR(E_KERNEL(&r, 0), "/new");
	CHECK_STR(E_KERNEL(&r, 1), "/new");
	tend(&r);
}

TEST(if_elif_else_and_tests)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "f", "x");
	tput(&r.t[0], "empty", "");
	tput(&r.t[0], "boot/x", "");
	trun_cfg(&r, "set x=3\n"
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
		     "$t8 $t9 }\n");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/k three y y y y y y y y y");
	CHECK_INT(r.out.n_warnings, 0);
	tend(&r);
}

TEST(for_loops_and_positional)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(
	    &r,
	    "for v in 1 2 3; do\n"
	    "  if [ $v = 2 ]; then continue; fi\n"
	    "  menuentry \"E$v\" $v --class os { linux /vmlinuz-$2 n=$# "
	    "t=\"$1\" }\n"
	    "done\n"
	    "for v in a b c; do if [ $v = b ]; then break; fi; last=$v; done\n"
	    "menuentry L { linux /k $last $v }\n");
	CHECK_INT(r.out.count, 3);
	CHECK_STR(E_TITLE(&r, 0), "E1");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/vmlinuz-1 n=2 t=E1");
	CHECK_STR(E_KERNEL(&r, 1), "/vmlinuz-3");
	CHECK_STR(E_CMD(&r, 2), "BOOT_IMAGE=/k a b");
	tend(&r);
}

TEST(functions)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(&r,
		 "function add { menuentry \"$1\" \"$2\" { linux /$2 } ; "
		 "count=$# ; all=\"$@\" }\n"
		 "function rc { return 3 }\n"
		 "add A ka\nadd B kb extra\n"
		 "rc; st=$?\n"
		 "function load_video { insmod x }\n"
		 "menuentry C { load_video; linux /c $count \"$all\" $st }\n");
	CHECK_INT(r.out.count, 3);
	CHECK_STR(E_TITLE(&r, 1), "B");
	CHECK_STR(E_KERNEL(&r, 0), "/ka");
	CHECK_STR(E_KERNEL(&r, 1), "/kb");
	CHECK_STR(E_CMD(&r, 2), "BOOT_IMAGE=/c 3 \"B kb extra\" 3");
	tend(&r);
}

TEST(menuentry_options_and_ids)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(&r, "menuentry_id_option=\"--id\"\n"
		     "menuentry 'One' --class a --class=b --users u "
		     "--unrestricted $menuentry_id_option one-id { linux /1 }\n"
		     "menuentry --hotkey=x 'Two' --id=two { linux /2 }\n"
		     "menuentry 'Three' { linux /3 }\n"
		     "submenu 'Outer' { submenu 'Inner' { menuentry 'Deep' { "
		     "linux /4 } } }\n");
	CHECK_INT(r.out.count, 4);
	CHECK_STR(nth(&r, 0)->id, "one-id");
	CHECK_STR(nth(&r, 1)->id, "two");
	CHECK_STR(E_TITLE(&r, 1), "Two");
	CHECK_STR(nth(&r, 2)->id, "Three");
	CHECK_STR(nth(&r, 3)->group, "Outer>Inner");
	CHECK_STR(nth(&r, 3)->id, "Outer>Inner>Deep");
	tend(&r);
}

TEST(loaders_and_disabled_entries)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(
	    &r,
	    "menuentry a { linux16 /k16 x; initrd16 /i16 }\n"
	    "menuentry b { linuxefi /ke; initrdefi /ia /ib; devicetree /dtb }\n"
	    "menuentry win { insmod chain; chainloader +1 }\n"
	    "menuentry nolinux { echo hi }\n"
	    "menuentry 'UEFI Firmware Settings' { fwsetup }\n"
	    "menuentry order { initrd /early; linux /k; initrd /late }\n");
	CHECK_INT(r.out.count, 6);
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/k16 x");
	CHECK_INT(nth(&r, 1)->n_initrds, 2);
	CHECK_STR(nth(&r, 1)->devicetree, "/dtb");
	CHECK_STR(nth(&r, 2)->disabled,
		  "chainloads another OS: not bootable with kexec");
	CHECK(nth(&r, 3)->disabled && strstr(nth(&r, 3)->disabled, "no linux"));
	CHECK(nth(&r, 4)->disabled != NULL);
	CHECK(nth(&r, 0)->disabled == NULL);
	CHECK_INT(nth(&r, 5)->n_initrds, 1);
	CHECK(warned(&r, "initrd before linux") != NULL);
	tend(&r);
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

TEST(xen_multiboot_listed_disabled_without_warnings)
{
	struct trun r;
	struct entry *e;

	tstart(&r, 1);
	trun_cfg(&r, xen_cfg);
	CHECK_INT(r.out.count, 3);
	CHECK_INT(r.out.n_warnings, 0);
	e = nth(&r, 0);
	CHECK_STR(e->disabled,
		  "Xen (multiboot) is not bootable with kexec yet");
	CHECK_STR(e->kernel.path, "/boot/xen-4.17-amd64.gz");
	CHECK_INT(e->n_modules, 2);
	CHECK_STR(e->n_modules > 1 ? e->modules[0].path : NULL,
		  "/boot/vmlinuz-6.1.0-13-amd64");
	CHECK_STR(e->n_modules > 1 ? e->modules[1].path : NULL,
		  "/boot/initrd.img-6.1.0-13-amd64");
	e = nth(&r, 1);
	CHECK_STR(e->disabled,
		  "Xen (multiboot) is not bootable with kexec yet");
	CHECK_INT(e->n_modules, 2);
	/* multiboot that is not Xen (Intel TXT's tboot): named for what it
	 * is; its modules still count */
	e = nth(&r, 2);
	CHECK_STR(e->disabled,
		  "loads a kernel with multiboot: not bootable with kexec");
	CHECK_INT(e->n_modules, 1);
	tend(&r);
}

TEST(module_needs_a_multiboot_kernel)
{
	struct trun r;
	const struct warning *w;

	tstart(&r, 1);
	trun_cfg(&r, "menuentry a {\n linux /k\n module2 /m\n}\n"
		     "menuentry b {\n multiboot2 /xen.gz\n module2 --nounzip\n"
		     " multiboot2 /xen.gz\n module2 /m2\n}\n");
	CHECK_INT(r.out.count, 2);
	w = warned(&r, "module2 before multiboot: ignored, as GRUB does");
	CHECK_INT(w ? w->line : 0, 3);
	CHECK_INT(nth(&r, 0)->n_modules, 0);
	CHECK(nth(&r, 0)->disabled == NULL);
	CHECK(warned(&r, "module2 without a file") != NULL);
	/* a second multiboot2 drops the modules loaded before it */
	CHECK_INT(nth(&r, 1)->n_modules, 1);
	CHECK_INT(r.out.n_warnings, 2);
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

TEST(syntax_errors_drop_only_their_statement)
{
	struct trun r;

	tstart(&r, 1);
	trun_cfg(&r, "menuentry a { linux /a }\n"
		     "fi\n"
		     "done\n"
		     "}\n"
		     "menuentry b { if true; then linux /b; }\n"
		     "menuentry c { linux /c }\n"
		     "menuentry 'unterminated { linux /x }\n");
	CHECK_STR(E_KERNEL(&r, 0), "/a");
	CHECK_STR(E_KERNEL(&r, 1), "/b");
	CHECK_STR(E_KERNEL(&r, 2), "/c");
	CHECK(warned(&r, "unexpected 'fi'") != NULL);
	CHECK(warned(&r, "without 'fi'") != NULL);
	CHECK(warned(&r, "unterminated quote") != NULL);
	tend(&r);
}

TEST(search_forms)
{
	struct trun r;

	tstart(&r, 3);
	r.t[1].fs.uuid = "1111-AAAA";
	tput(&r.t[2], "marker/here", "");
	trun_cfg(
	    &r,
	    "menuentry u { search --no-floppy --fs-uuid --set=root "
	    "--hint-bios=hd0,gpt2 --hint 'hd0' 1111-aaaa; linux /k; initrd /i "
	    "}\n"
	    "menuentry l { search --label B --set r2; linux ($r2)/k }\n"
	    "menuentry f { search -f /marker/here -s; linux /k }\n"
	    "menuentry d { search.fs_label C root; linux /k }\n"
	    "menuentry du { search.fs_uuid 1111-AAAA root; linux /k }\n"
	    "menuentry miss { search --fs-uuid --set=root dead-beef; linux /k "
	    "}\n"
	    "menuentry setonly { search --fs-uuid --set 1111-AAAA; linux /k }\n"
	    "menuentry self { search --label A --set; linux /k }\n");
	CHECK_INT(r.out.count, 8);
	CHECK_STR(nth(&r, 0)->kernel.dev, "UUID=1111-AAAA");
	CHECK_STR(nth(&r, 0)->initrds[0].dev, "UUID=1111-AAAA");
	CHECK_STR(nth(&r, 1)->kernel.dev, "UUID=1111-AAAA");
	CHECK_STR(nth(&r, 2)->kernel.dev, "LABEL=C");
	CHECK_STR(nth(&r, 3)->kernel.dev, "LABEL=C");
	CHECK_STR(nth(&r, 4)->kernel.dev, "UUID=1111-AAAA");
	/* not found (yet): kept as a spec, resolved when the device appears */
	CHECK_STR(nth(&r, 5)->kernel.dev, "UUID=dead-beef");
	CHECK_STR(nth(&r, 6)->kernel.dev, "UUID=1111-AAAA");
	CHECK(nth(&r, 7)->kernel.dev == NULL);
	CHECK_STR(E_CMD(&r, 1), "BOOT_IMAGE=(B)/k");
	CHECK_INT(r.out.n_warnings, 0);
	tend(&r);
}

TEST(device_paths)
{
	struct trun r;

	tstart(&r, 2);
	r.t[1].fs.device = "/dev/vda2";
	r.t[0].fs.device = "/dev/vda1";
	r.t[0].fs.uuid = "0000-0001";
	trun_cfg(&r,
		 "menuentry a { linux (hd0,gpt2)/k; initrd (hd0,msdos1)/i }\n"
		 "menuentry b { set root='hd1,gpt1'; linux /k }\n"
		 "menuentry c { set root=(B); linux ($root)/k; initrd /i }\n"
		 "menuentry d { linux (0000-0001)/k }\n"
		 "menuentry e { linux (lvm/vg-boot)/k }\n");
	/* a device path names a disk better than a label does */
	CHECK_STR(nth(&r, 0)->kernel.dev, "/dev/vda2");
	CHECK(nth(&r, 0)->initrds[0].dev == NULL);
	CHECK_STR(nth(&r, 1)->kernel.dev, "hd1,gpt1");
	CHECK(warned(&r, "(hd1,gpt1) is not a known filesystem") != NULL);
	CHECK_STR(nth(&r, 2)->kernel.dev, "/dev/vda2");
	CHECK_STR(nth(&r, 2)->initrds[0].dev, "/dev/vda2");
	CHECK(nth(&r, 3)->kernel.dev == NULL);
	CHECK_STR(nth(&r, 4)->kernel.dev, "lvm/vg-boot");
	tend(&r);
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
	struct trun r;

	tstart(&r, 1);
	trun_cfg(&r, "set timeout_style=hidden\nset timeout=7\nmenuentry a { "
		     "linux /k }\n");
	CHECK_INT(r.out.timeout_ds, 70);
	tend(&r);
	tstart(&r, 1);
	trun_cfg(&r, "set timeout=-1\nmenuentry a { linux /k }\n");
	CHECK_INT(r.out.timeout_ds, -1);
	tend(&r);
}

TEST(source_and_configfile)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "boot/grub/extra.cfg",
	     "menuentry Sourced { linux /s }\nset from_source=yes\n");
	tput(&r.t[0], "boot/grub/other.cfg",
	     "menuentry Other { linux /o $from_source $exported }\n");
	trun_cfg(&r, "menuentry Before { linux /b }\n"
		     "source ${config_directory}/extra.cfg\n"
		     "set exported=E; export exported\n"
		     "configfile $prefix/other.cfg\n"
		     "menuentry After { linux /a }\n");
	/* configfile shows the new menu: Before, Sourced and After are gone */
	CHECK_INT(r.out.count, 1);
	CHECK_STR(E_TITLE(&r, 0), "Other");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/o E");
	CHECK_STR(nth(&r, 0)->source, "/boot/grub/other.cfg");
	tend(&r);

	tstart(&r, 1);
	trun_cfg(
	    &r,
	    "menuentry Kept { linux /k }\nconfigfile /missing.cfg\n"
	    "configfile /boot/grub/grub.cfg\nmenuentry Also { linux /a }\n");
	CHECK_INT(r.out.count, 2);
	CHECK(warned(&r, "cannot read /missing.cfg") != NULL);
	tend(&r);
}

TEST(include_depth_limit)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "loop.cfg", "set n=x$n\nsource /loop.cfg\n");
	tput(&r.t[0], "boot/grub/grub.cfg", "configfile /boot/grub/grub.cfg\n");
	trun_cfg(&r, "source /loop.cfg\nmenuentry a { linux /k $n }\n");
	CHECK(warned(&r, "source nested more than") != NULL);
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/k xxxxxxxx");
	tend(&r);

	tstart(&r, 1);
	tput(&r.t[0], "boot/grub/grub.cfg", "configfile /boot/grub/grub.cfg\n");
	CHECK_INT(grub_parse_fs(&r.ctx), 0);
	CHECK(warned(&r, "configfile nested more than") != NULL);
	tend(&r);
}

/* A loop that sources a file reads it CFG_FILES_MAX times, then stops
 * reading (a million steps of reads would take seconds on a stick). */
TEST(include_read_budget)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "x.cfg", "set n=1\n");
	trun_cfg(&r, "menuentry a { linux /k }\n"
		     "while true; do source /x.cfg; done\n");
	CHECK(warned(&r, "included more than") != NULL);
	CHECK(!warned(&r, "cannot read /x.cfg"));
	CHECK_INT(r.ctx.files, CFG_FILES_MAX + 1);
	CHECK_INT(r.out.count, 1);
	tend(&r);
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
	entry_finish(&r.out, r.all, r.n);
	CHECK(r.a.used - before < (size_t)64 * n);
	CHECK_INT(r.out.count, 2);
	CHECK_INT(nth(&r, 0)->n_initrds, ENTRY_INITRD_MAX);
	CHECK_STR(nth(&r, 0)->disabled,
		  "names more than 32 initrds, the most one boot loads");
	CHECK_INT(nth(&r, 1)->n_initrds, 1);
	CHECK_STR(nth(&r, 1)->disabled, NULL);
	tend(&r);
}

TEST(esp_stub_defers_to_the_real_config)
{
	struct trun r;

	tstart(&r, 2);
	r.t[1].fs.uuid = "2222-BBBB";
	tput(&r.t[0], "EFI/debian/grub.cfg",
	     "search.fs_uuid 2222-bbbb root hd0,gpt2\n"
	     "set prefix=($root)'/boot/grub'\nconfigfile $prefix/grub.cfg\n");
	tput(&r.t[1], "boot/grub/grub.cfg",
	     "menuentry Real { linux /boot/k }\n");
	tput(&r.t[0], "EFI/other/grub.cfg",
	     "search --label B --set=root\nconfigfile /boot/grub/alt.cfg\n");
	tput(&r.t[1], "boot/grub/alt.cfg",
	     "set timeout=3\nmenuentry Alt { linux /boot/k }\n");
	grub_parse_fs(&r.ctx);
	/* the stub into B's own grub.cfg adds nothing (B's scan shows it);
	 * the one into another file shows that file's menu, on B */
	CHECK_INT(r.out.count, 1);
	CHECK_STR(E_TITLE(&r, 0), "Alt");
	CHECK(nth(&r, 0)->fs == &r.t[1].fs);
	CHECK(nth(&r, 0)->kernel.dev == NULL);
	CHECK_STR(nth(&r, 0)->source, "/boot/grub/alt.cfg");
	CHECK_INT(nth(&r, 0)->is_default, 1);
	CHECK_INT(r.out.timeout_ds, 30);
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

TEST(blscfg)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "loader/entries/abc-5.0.conf",
	     "title Fedora (5.0)\nversion 5.0\nlinux /vmlinuz-5.0\ninitrd "
	     "/initramfs-5.0.img\n"
	     "options $kernelopts ${extra} rhgb\n");
	trun_cfg(&r, "set kernelopts=\"root=/dev/vda2 ro\"\nset extra=quiet\n"
		     "set default=abc-5.0\n"
		     "menuentry Before { linux /b }\n"
		     "blscfg\n");
	CHECK_INT(r.out.count, 2);
	CHECK_STR(E_TITLE(&r, 1), "Fedora (5.0)");
	CHECK_STR(nth(&r, 1) ? nth(&r, 1)->id : NULL, "abc-5.0");
	CHECK_STR(E_CMD(&r, 1),
		  "BOOT_IMAGE=(A)/vmlinuz-5.0 root=/dev/vda2 ro quiet rhgb");
	CHECK_INT(default_index(&r), 1);
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
	entry_finish(&r.out, r.all, r.n);
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

/* os-prober's entry for Windows on UEFI (30_os-prober): the EFI file
 * boots through the firmware, found on the ESP that search names; a BIOS
 * boot sector stays disabled; without UEFI the entry says why. */
TEST(chainloader_efi_through_the_firmware)
{
	static const char cfg[] =
	    "menuentry_id_option=\"--id\"\n"
	    "set default=osprober-efi-D0A1-E5B0\n"
	    "menuentry 'Windows Boot Manager (on /dev/vda1)' --class windows "
	    "$menuentry_id_option 'osprober-efi-D0A1-E5B0' {\n"
	    "\tinsmod part_gpt\n\tinsmod fat\n"
	    "\tsearch --no-floppy --fs-uuid --set=root D0A1-E5B0\n"
	    "\tchainloader /EFI/Microsoft/Boot/bootmgfw.efi\n}\n"
	    "menuentry bios { chainloader --force +1 }\n"
	    "menuentry bare { chainloader }\n";
	struct trun r;

	tstart(&r, 2);
	r.t[1].fs.uuid = "D0A1-E5B0";
	trun_cfg(&r, cfg);
	CHECK_INT(r.out.count, 3);
	CHECK_INT(nth(&r, 0)->method, ENTRY_FIRMWARE);
	CHECK(nth(&r, 0)->disabled == NULL);
	CHECK_STR(nth(&r, 0)->kernel.path, "/EFI/Microsoft/Boot/bootmgfw.efi");
	CHECK_STR(nth(&r, 0)->kernel.dev, "UUID=D0A1-E5B0");
	CHECK_INT(default_index(&r), 0);
	CHECK_INT(nth(&r, 1)->method, ENTRY_KEXEC);
	CHECK_STR(nth(&r, 1)->disabled,
		  "chainloads another OS: not bootable with kexec");
	CHECK(warned(&r, "chainloader without a file") != NULL);
	tend(&r);

	tstart(&r, 2);
	r.t[1].fs.uuid = "D0A1-E5B0";
	r.ctx.fw_off = "this machine did not boot through UEFI";
	trun_cfg(&r, cfg);
	CHECK_STR(nth(&r, 0)->disabled,
		  "this machine did not boot through UEFI");
	tend(&r);
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
	entry_finish(&r.out, r.all, 1);
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
	entry_finish(&r.out, r.all, 1);
	f = open_memstream(&out, &len);
	entry_print_text(f, &r.out, r.out.head);
	fclose(f);
	CHECK_STR(out, want);
	free(out);
	f = open_memstream(&out, &len);
	entry_print_json(f, &r.out, NULL, NULL);
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

/* `configfile` in an entry (snapper's snapshot entries): that file's
 * menu under the entry's title, run with the exported variables (and
 * $btrfs_subvol); the entry adds nothing itself. In a submenu's body
 * (grub-btrfs), the file's menu is the submenu's. */
TEST(configfile_in_entries_and_submenus)
{
	struct trun r;

	tstart(&r, 1);
	tput(&r.t[0], "snap/grub.cfg",
	     "menuentry In { linux /k $extra $local }\n"
	     "submenu Adv { menuentry Deep { linux /k2 } }\n");
	tput(&r.t[0], "sub/grub.cfg", "menuentry S1 { linux /s1 }\n");
	trun_cfg(&r, "set local=no\n"
		     "menuentry Snap { extra=x; export extra\n"
		     "  configfile /snap/grub.cfg }\n"
		     "submenu Sub { configfile /sub/grub.cfg }\n");
	CHECK_INT(r.out.count, 3);
	CHECK_STR(E_TITLE(&r, 0), "In");
	CHECK_STR(nth(&r, 0) ? nth(&r, 0)->group : NULL, "Snap");
	CHECK_STR(E_CMD(&r, 0), "BOOT_IMAGE=/k x");
	CHECK_STR(nth(&r, 1) ? nth(&r, 1)->group : NULL, "Snap>Adv");
	CHECK_STR(E_TITLE(&r, 2), "S1");
	CHECK_STR(nth(&r, 2) ? nth(&r, 2)->group : NULL, "Sub");
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

TEST_MAIN("test_grub", quoting, comments_continuation_separators,
	  variables_split_and_scope, late_evaluation_of_bodies,
	  if_elif_else_and_tests, for_loops_and_positional, functions,
	  menuentry_options_and_ids, loaders_and_disabled_entries,
	  unknown_command_keeps_config, syntax_errors_drop_only_their_statement,
	  search_forms, device_paths, default_forms,
	  default_saved_and_next_entry, grubenv_reader, timeout,
	  source_and_configfile, include_depth_limit, include_read_budget,
	  initrd_words_bounded, esp_stub_defers_to_the_real_config, step_limit,
	  submenu_depth_limit, blscfg, blscfg_across_filesystems,
	  primary_config_locations,
	  xen_multiboot_listed_disabled_without_warnings,
	  module_needs_a_multiboot_kernel, repeated_warning_once_with_count,
	  chainloader_efi_through_the_firmware, btrfs_paths_from_the_top_level,
	  btrfs_relative_path_subvol_and_mounts, btrfs_list_names_the_subvolume,
	  configfile_in_entries_and_submenus, blscfg_blsdir_and_btrfs_paths)
