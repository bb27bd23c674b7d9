/* grub_cmd.c - the grub.cfg commands bootmenu understands, by name.
 *
 * Semantics from the GNU GRUB manual ("Command-line and menu entry
 * commands") and grub-core/commands/: `search` takes --set[=VAR] (the
 * next word when not given with '='; "root" when none), and with --set
 * but no NAME the --set word is the NAME; loaders build the kernel
 * command line as "BOOT_IMAGE=<file> <args>", quoting an argument that
 * holds a space and escaping \ ' " in it (grub-core/lib/cmdline.c).
 * Commands that only change what GRUB shows are accepted and ignored.
 */
#include "cfg/grub_cmd.h"
#include "cfg/bls.h"
#include "cfg/cfg_text.h"
#include "cfg/grub_btrfs.h"
#include "cfg/grub_env.h"
#include "cfg/grub_parse.h"
#include "cfg/grub_path.h"
#include "cfg/grub_source.h"
#include "cfg/grub_test.h"
#include "cfg/grub_vars.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool grub_in(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (v[i][0] == s[0] && !strcmp(v[i], s))
			return true;
	return false;
}

static int grub_cmd_set(struct grub_state *st, const char *const *argv,
			size_t argc)
{
	const char *eq;
	char name[GRUB_NAME_MAX + 1];

	if (argc < 2 || !(eq = strchr(argv[1], '=')))
		return 0; /* `set` alone lists the variables */
	if (eq == argv[1] || (size_t)(eq - argv[1]) > GRUB_NAME_MAX)
		return 1;
	memcpy(name, argv[1], (size_t)(eq - argv[1]));
	name[eq - argv[1]] = '\0';
	grub_set(st, name, eq + 1);
	return 0;
}

static int grub_cmd_unset(struct grub_state *st, const char *const *argv,
			  size_t argc)
{
	for (size_t i = 1; i < argc; i++)
		grub_unset(st, argv[i]);
	return 0;
}

static int grub_cmd_export(struct grub_state *st, const char *const *argv,
			   size_t argc)
{
	for (size_t i = 1; i < argc; i++)
		grub_export(st, argv[i]);
	return 0;
}

static int grub_cmd_true(struct grub_state *st, const char *const *argv,
			 size_t argc)
{
	return 0;
}

static int grub_cmd_false(struct grub_state *st, const char *const *argv,
			  size_t argc)
{
	return 1;
}

static int grub_cmd_test(struct grub_state *st, const char *const *argv,
			 size_t argc)
{
	if (!strcmp(argv[0], "[")) {
		if (argc < 2 || strcmp(argv[argc - 1], "]")) {
			grub_warn(st, "'[' without ']'");
			return 1;
		}
		argc--;
	}
	return grub_test(st, argv + 1, argc - 1);
}

static int grub_cmd_source(struct grub_state *st, const char *const *argv,
			   size_t argc)
{
	if (argc < 2) {
		grub_warn(st, "%s without a file", argv[0]);
		return 1;
	}
	return grub_source_file(
	    st, argv[1], strcmp(argv[0], "source") && strcmp(argv[0], "."));
}

/* `break [N]`, `continue [N]`, `return [N]`, `exit [N]` */
static int grub_cmd_flow(struct grub_state *st, const char *const *argv,
			 size_t argc)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : -1;

	if (argv[0][0] == 'b' || argv[0][0] == 'c') {
		st->flow = argv[0][0] == 'b' ? GF_BREAK : GF_CONTINUE;
		st->flow_n = n > 0 && n < 1000 ? (int)n : 1;
		return 0;
	}
	st->flow = GF_RETURN;
	return n >= 0 ? (int)(n & 255) : st->status;
}

static int grub_cmd_shift(struct grub_state *st, const char *const *argv,
			  size_t argc)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	if (n < 0 || (size_t)n > st->argc)
		return 1;
	if (n)
		st->argv += n;
	st->argc -= (size_t)n;
	return 0;
}

static int grub_cmd_setparams(struct grub_state *st, const char *const *argv,
			      size_t argc)
{
	st->argv = argv + 1;
	st->argc = argc - 1;
	return 0;
}

/* `eval WORDS...`: the words joined with spaces, run as a script. */
static int grub_cmd_eval(struct grub_state *st, const char *const *argv,
			 size_t argc)
{
	char *s = arena_strdup(st->a, "");

	for (size_t i = 1; i < argc; i++)
		s = arena_printf(st->a, "%s%s%s", s, i > 1 ? " " : "", argv[i]);
	st->bytes += strlen(s);
	return grub_exec_buffer(st, st->fs, st->file, s, strlen(s));
}

/* search: which filesystem matches @key by @how ('u', 'l', 'f'). */
static const struct fs_root *grub_search_fs(struct grub_state *st, char how,
					    const char *key)
{
	const struct fs_root *const *all = st->ctx->all;

	if (how == 'f' && grub_has_file(st, st->fs, key))
		return st->fs->btrfs ? st->fs->btrfs->home : st->fs;
	for (size_t i = 0; i < st->ctx->n_all; i++) {
		const struct fs_root *fs = all[i];

		if ((how == 'u' && fs->uuid && !strcasecmp(fs->uuid, key)) ||
		    (how == 'l' && fs->label && !strcmp(fs->label, key)) ||
		    (how == 'f' && grub_has_file(st, fs, key)))
			return fs;
	}
	return NULL;
}

/* Set @var to the found filesystem; when none is known (yet) set it to
 * a spec so the files named through it resolve once the device appears. */
static int grub_search_set(struct grub_state *st, char how, const char *key,
			   const char *var)
{
	const struct fs_root *fs = grub_search_fs(st, how, key);

	cfg_reached(st->ctx, fs);
	if (fs) {
		if (var)
			grub_set(st, var, grub_fs_devname(fs));
		return 0;
	}
	if (var && how != 'f')
		grub_set(st, var,
			 arena_printf(st->a, "%s=%s",
				      how == 'u' ? "UUID" : "LABEL", key));
	return 1;
}

static bool grub_search_opt(const char *w, const char *const *argv, size_t argc,
			    size_t *i, char *how, const char **var, bool *set)
{
	if (!strcmp(w, "--fs-uuid") || !strcmp(w, "-u"))
		*how = 'u';
	else if (!strcmp(w, "--label") || !strcmp(w, "-l"))
		*how = 'l';
	else if (!strcmp(w, "--file") || !strcmp(w, "-f"))
		*how = 'f';
	else if (!strcmp(w, "--set") || !strcmp(w, "-s")) {
		*set = true;
		if (*i + 1 < argc && argv[*i + 1][0] != '-')
			*var = argv[++*i];
	} else if (!strncmp(w, "--set=", 6)) {
		*set = true;
		*var = w + 6;
	} else if (!strncmp(w, "--hint", 6)) {
		if (!strchr(w, '=') && *i + 1 < argc)
			++*i;
	} else if (strcmp(w, "--no-floppy") && strcmp(w, "-n") &&
		   strcmp(w, "--efidisk-only")) {
		return false;
	}
	return true;
}

static int grub_cmd_search(struct grub_state *st, const char *const *argv,
			   size_t argc)
{
	const char *var = NULL, *key = NULL;
	bool set = false;
	char how = 0;

	for (size_t i = 1; i < argc; i++) {
		if (grub_search_opt(argv[i], argv, argc, &i, &how, &var, &set))
			continue;
		if (!key)
			key = argv[i];
	}
	if (!key && set && var) {
		key = var;
		var = NULL;
	}
	if (set && !var)
		var = "root";
	if (!key || !how) {
		grub_warn(st, "search without %s",
			  key ? "--fs-uuid, --label or --file" : "a name");
		return 1;
	}
	return grub_search_set(st, how, key, var);
}

/* search.fs_uuid NAME [VAR], search.fs_label, search.file */
static int grub_cmd_search_dot(struct grub_state *st, const char *const *argv,
			       size_t argc)
{
	char how = !strcmp(argv[0], "search.fs_uuid")	 ? 'u'
		   : !strcmp(argv[0], "search.fs_label") ? 'l'
							 : 'f';

	if (argc < 2) {
		grub_warn(st, "%s without a name", argv[0]);
		return 1;
	}
	return grub_search_set(st, how, argv[1], argc > 2 ? argv[2] : NULL);
}

struct grub_env_ctx {
	struct grub_state *st;
	const char *const *only;
	size_t n_only;
};

static int grub_env_var(void *data, const char *name, const char *value)
{
	struct grub_env_ctx *ec = data;

	if (!ec->n_only || grub_in(ec->only, ec->n_only, name))
		grub_set(ec->st, name, value);
	return 0;
}

/* load_env [-f FILE] [--skip-sig] [VAR...]: the default file is
 * $prefix/grubenv (grub-core/commands/loadenv.c). */
static int grub_cmd_load_env(struct grub_state *st, const char *const *argv,
			     size_t argc)
{
	struct grub_env_ctx ec = {.st = st};
	const char *file = NULL;
	struct grub_where w;
	size_t i, len;
	char *buf;
	int rc;

	for (i = 1; i < argc && argv[i][0] == '-'; i++)
		if ((!strcmp(argv[i], "-f") || !strcmp(argv[i], "--file")) &&
		    i + 1 < argc)
			file = argv[++i];
		else if (!strncmp(argv[i], "--file=", 7))
			file = argv[i] + 7;
	ec.only = argv + i;
	ec.n_only = argc - i;
	if (!file)
		file = arena_printf(st->a, "%s/grubenv",
				    grub_get(st, "prefix") ?: "");
	grub_where(st, file, &w);
	rc = grub_read(st, &w, GRUB_ENV_MAX, &buf, &len);
	if (rc < 0)
		return 1;
	rc = grub_env_parse(buf, len, grub_env_var, &ec);
	free(buf);
	if (rc < 0)
		grub_warn(st, "%s is not a GRUB environment block", w.path);
	return rc < 0;
}

static const char *grub_version_of(struct grub_state *st, const char *path)
{
	static const char *const pre[] = {"vmlinuz-", "vmlinux-", "kernel-",
					  "linux-"};
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(base, pre[i], strlen(pre[i])) &&
		    base[strlen(pre[i])])
			return arena_strdup(st->a, base + strlen(pre[i]));
	return NULL;
}

/* One argument as grub_create_loader_cmdline() writes it. */
static char *grub_cmdline_arg(struct grub_state *st, char *p, const char *s)
{
	bool space = strchr(s, ' ') != NULL;

	if (space)
		*p++ = '"';
	for (; *s; s++) {
		if (*s == '\\' || *s == '\'' || *s == '"')
			*p++ = '\\';
		*p++ = *s;
	}
	if (space)
		*p++ = '"';
	return p;
}

static const char *grub_cmdline(struct grub_state *st, const char *const *argv,
				size_t argc)
{
	size_t len = sizeof("BOOT_IMAGE=");
	char *s, *p;

	for (size_t i = 0; i < argc; i++)
		len += 2 * strlen(argv[i]) + 3;
	s = arena_alloc(st->a, len);
	p = stpcpy(s, "BOOT_IMAGE=");
	for (size_t i = 0; i < argc; i++) {
		if (i)
			*p++ = ' ';
		p = grub_cmdline_arg(st, p, argv[i]);
	}
	*p = '\0';
	st->bytes += len;
	return s;
}

static struct grub_load *grub_loading(struct grub_state *st, const char *cmd)
{
	if (!st->load)
		grub_warn(st, "%s outside a menu entry: ignored", cmd);
	return st->load;
}

static int grub_cmd_linux(struct grub_state *st, const char *const *argv,
			  size_t argc)
{
	struct grub_load *ld = grub_loading(st, argv[0]);
	struct grub_where w;

	if (!ld)
		return 0;
	if (argc < 2) {
		grub_warn(st, "%s without a kernel", argv[0]);
		return 1;
	}
	grub_where(st, argv[1], &w);
	ld->e->kernel.path = w.path;
	ld->e->kernel.dev = grub_where_dev(st, &w, ld->e->fs);
	ld->e->kernel.fs = grub_where_top(&w);
	ld->e->cmdline = grub_cmdline(st, argv + 1, argc - 1);
	ld->e->version = grub_version_of(st, w.path);
	ld->e->initrds = NULL; /* a new kernel drops the old initrds */
	ld->e->n_initrds = 0;
	ld->e->initrds_over = false;
	ld->e->multiboot = 0; /* a new kernel replaces a multiboot one */
	ld->e->n_modules = 0;
	ld->linux_seen = true;
	return 0;
}

static int grub_cmd_initrd(struct grub_state *st, const char *const *argv,
			   size_t argc)
{
	struct grub_load *ld = grub_loading(st, argv[0]);

	if (!ld)
		return 0;
	if (!ld->linux_seen) {
		grub_warn(st, "%s before linux: ignored, as GRUB does",
			  argv[0]);
		return 1;
	}
	for (size_t i = 1; i < argc; i++) {
		struct grub_where w;

		if (!strncmp(argv[i], "--", 2))
			continue; /* --nounzip and friends */
		grub_where(st, argv[i], &w);
		entry_add_initrd(st->ctx->out, ld->e,
				 grub_where_dev(st, &w, ld->e->fs), w.path);
		if (ld->e->n_initrds && !ld->e->initrds_over)
			ld->e->initrds[ld->e->n_initrds - 1].fs =
			    grub_where_top(&w);
	}
	return 0;
}

static int grub_cmd_devicetree(struct grub_state *st, const char *const *argv,
			       size_t argc)
{
	struct grub_load *ld = grub_loading(st, argv[0]);
	struct grub_where w;

	if (!ld || argc < 2)
		return !ld ? 0 : 1;
	grub_where(st, argv[1], &w);
	ld->e->devicetree = w.path;
	return 0;
}

static void grub_refuse(struct grub_state *st, const char *why)
{
	if (st->load && !st->load->why)
		st->load->why = why;
}

#define GRUB_CHAIN_WHY "chainloads another OS: not bootable with kexec"

static int grub_cmd_ntldr(struct grub_state *st, const char *const *argv,
			  size_t argc)
{
	grub_refuse(st, GRUB_CHAIN_WHY);
	return 0;
}

static bool grub_file_arg(struct grub_state *st, const char *const *argv,
			  size_t argc, const char *what, struct grub_where *w);

/* chainloader [--force] FILE: an EFI application (os-prober's entry for
 * Windows, another distribution's loader) boots through the firmware as
 * the ESPs' own loaders do; a boot sector ("+1", BIOS) cannot. */
static int grub_cmd_chainloader(struct grub_state *st, const char *const *argv,
				size_t argc)
{
	struct grub_load *ld = grub_loading(st, argv[0]);
	struct grub_where w;
	size_t n;

	if (!ld)
		return 0;
	if (!grub_file_arg(st, argv, argc, "file", &w))
		return 1;
	n = strlen(w.path);
	if (n < 4 || strcasecmp(w.path + n - 4, ".efi")) {
		grub_refuse(st, GRUB_CHAIN_WHY);
		return 0;
	}
	ld->e->method = ENTRY_FIRMWARE;
	ld->e->kernel.path = w.path;
	ld->e->kernel.dev = grub_where_dev(st, &w, ld->e->fs);
	ld->e->kernel.fs = grub_where_top(&w);
	ld->linux_seen = true;
	if (st->ctx->fw_off)
		grub_refuse(st, st->ctx->fw_off);
	return 0;
}

static int grub_cmd_other_kernel(struct grub_state *st, const char *const *argv,
				 size_t argc)
{
	grub_refuse(
	    st, arena_printf(st->a,
			     "loads a kernel with %s: not bootable with kexec",
			     argv[0]));
	return 0;
}

#define GRUB_XEN_ARM_WHY                                                       \
	"Xen on arm64 (xen_hypervisor) is not bootable with kexec"

/* The index in argv[1..argc) of the first word that is not an option,
 * or 0 after a warning "CMD without a @what" when there is none. */
static size_t grub_file_at(struct grub_state *st, const char *const *argv,
			   size_t argc, const char *what)
{
	size_t i = 1;

	while (i < argc && !strncmp(argv[i], "--", 2))
		i++;
	if (i == argc) {
		grub_warn(st, "%s without a %s", argv[0], what);
		return 0;
	}
	return i;
}

/* The first word of argv[1..argc) that is not an option, located into
 * @w; false after a warning "CMD without a @what" when there is none. */
static bool grub_file_arg(struct grub_state *st, const char *const *argv,
			  size_t argc, const char *what, struct grub_where *w)
{
	size_t i = grub_file_at(st, argv, argc, what);

	if (i)
		grub_where(st, argv[i], w);
	return i != 0;
}

/* multiboot.c, multiboot2: the words after the file, with no BOOT_IMAGE=
 * (20_linux_xen's "placeholder" stands where Xen skips a first word). */
static const char *grub_mb_cmdline(struct grub_state *st,
				   const char *const *argv, size_t argc)
{
	return grub_cmdline(st, argv, argc) + strlen("BOOT_IMAGE=");
}

/* multiboot, multiboot2 (and arm64's xen_hypervisor) [--quirk-...] FILE
 * [ARGS]: in practice Xen, its dom0 kernel and initrd loaded as modules
 * after it (grub.d/20_linux_xen). A new kernel drops the modules loaded
 * before. */
static int grub_cmd_multiboot(struct grub_state *st, const char *const *argv,
			      size_t argc)
{
	struct grub_load *ld = grub_loading(st, argv[0]);
	struct grub_where w;
	size_t i;

	if (!ld)
		return 0;
	i = grub_file_at(st, argv, argc, "kernel");
	if (!i)
		return 1;
	grub_where(st, argv[i], &w);
	ld->e->kernel.path = w.path;
	ld->e->kernel.dev = grub_where_dev(st, &w, ld->e->fs);
	ld->e->kernel.fs = grub_where_top(&w);
	ld->e->cmdline = grub_mb_cmdline(st, argv + i + 1, argc - i - 1);
	ld->e->modules = NULL;
	ld->e->n_modules = 0;
	ld->e->multiboot = strcmp(argv[0], "multiboot2") ? 1 : 2;
	ld->multiboot_seen = true;
	if (!strcmp(argv[0], "xen_hypervisor"))
		grub_refuse(st, GRUB_XEN_ARM_WHY);
	return 0;
}

/* Record @w as one more module of @e with its command line and
 * --nounzip (past GRUB_MODULES_MAX: not kept, and the entry is
 * disabled). */
static void grub_add_module(struct grub_state *st, struct entry *e,
			    const struct grub_where *w, const char *args,
			    bool nounzip)
{
	size_t n = e->n_modules;
	struct entry_file *v;
	const char **a;
	bool *z;

	if (n >= GRUB_MODULES_MAX) {
		grub_refuse(st, "more modules than bootmenu loads");
		return;
	}
	v = arena_alloc(st->a, (n + 1) * sizeof(*v));
	a = arena_alloc(st->a, (n + 1) * sizeof(*a));
	z = arena_alloc(st->a, (n + 1) * sizeof(*z));
	for (size_t i = 0; i < n; i++) {
		v[i] = e->modules[i];
		a[i] = e->module_args ? e->module_args[i] : NULL;
		z[i] = e->module_nounzip ? e->module_nounzip[i] : false;
	}
	v[n].dev = grub_where_dev(st, w, e->fs);
	v[n].fs = grub_where_top(w);
	v[n].path = w->path;
	a[n] = args;
	z[n] = nounzip;
	e->modules = v;
	e->module_args = a;
	e->module_nounzip = z;
	e->n_modules++;
}

/* module, module2, xen_module [--nounzip] FILE [ARGS]: the first word not
 * an option is the file, the rest its command line. */
static int grub_cmd_module(struct grub_state *st, const char *const *argv,
			   size_t argc)
{
	struct grub_load *ld = grub_loading(st, argv[0]);
	struct grub_where w;
	bool nounzip = false;
	size_t i;

	if (!ld)
		return 0;
	if (!ld->multiboot_seen) {
		grub_warn(st, "%s before multiboot: ignored, as GRUB does",
			  argv[0]);
		return 1;
	}
	i = grub_file_at(st, argv, argc, "file");
	if (!i)
		return 1;
	for (size_t k = 1; k < i; k++)
		nounzip |= !strcmp(argv[k], "--nounzip");
	grub_where(st, argv[i], &w);
	grub_add_module(st, ld->e, &w,
			grub_mb_cmdline(st, argv + i + 1, argc - i - 1),
			nounzip);
	return 0;
}

static int grub_cmd_firmware(struct grub_state *st, const char *const *argv,
			     size_t argc)
{
	grub_refuse(st,
		    strcmp(argv[0], "fwsetup")
			? "reboots or halts: not a kernel to boot"
			: "enters the firmware setup: not a kernel to boot");
	return 0;
}

/* blscfg.c: the id is the file name without ".conf", and the entry runs
 * "linux ($root)<linux> <options>" as script, so the options are split
 * into words (and quotes removed) as any linux line's are. */
static void grub_bls_fix(struct grub_state *st, struct entry *e,
			 const char *root)
{
	size_t n = e->id ? strlen(e->id) : 0;
	struct grub_fields f = {0};
	struct grub_node *list = NULL;
	const char *src;

	if (n > 5 && !strcmp(e->id + n - 5, ".conf"))
		e->id = arena_strndup(st->a, e->id, n - 5);
	if (!e->kernel.path || e->disabled)
		return;
	src = arena_printf(st->a, "(%s)%s %s", root ?: "", e->kernel.path,
			   e->cmdline);
	grub_parse(st->a, src, strlen(src), &list, NULL, NULL);
	if (list && list->kind == GN_CMD)
		grub_expand(st, list->words, list->n_words, &f);
	if (f.n)
		e->cmdline = grub_cmdline(st, f.v, f.n);
}

static const char *grub_bls_expand(void *data, const char *s)
{
	struct grub_state *st = data;
	char *v = grub_expand_refs(st->a, s, grub_lookup, st, GRUB_VALUE_MAX);

	st->bytes += strlen(v);
	return v;
}

/* On btrfs, blscfg.c opens an entry's files as "($root)<path>" GRUB
 * paths: from the top level (Fedora's 20-grub.install writes
 * /root/boot/vmlinuz-... there, grub2-mkrelpath's answer). */
static void grub_bls_btrfs_file(struct grub_state *st, struct entry *e,
				struct entry_file *f)
{
	struct grub_where w;

	if (!f->path || f->dev)
		return;
	grub_where(st, f->path, &w);
	f->path = w.path;
	f->dev = grub_where_dev(st, &w, e->fs);
	f->fs = grub_where_top(&w);
}

static void grub_bls_btrfs(struct grub_state *st, struct entry *e)
{
	if (!e->fs || !e->fs->btrfs)
		return;
	grub_bls_btrfs_file(st, e, &e->kernel);
	for (size_t i = 0; i < e->n_initrds; i++)
		grub_bls_btrfs_file(st, e, &e->initrds[i]);
}

/* Collect the entries of $blsdir (Fedora's grub2-mkconfig sets it in
 * grubenv when /boot is on btrfs), else /loader/entries, then
 * /boot/loader/entries, on $root (blscfg.c bls_load_entries()). */
static int grub_bls_dir(struct grub_state *st, struct cfg_ctx *c)
{
	const char *blsdir = grub_get(st, "blsdir");
	const char *dirs[] = {blsdir && *blsdir ? blsdir : "/loader/entries",
			      "/boot/loader/entries"};
	struct grub_where w;
	int n = -ENOENT;

	for (size_t i = 0; i < 2 && n < 0; i++) {
		grub_where(st, dirs[i], &w);
		if (!w.fs) {
			grub_warn(st, "blscfg: the filesystem %s is not known",
				  w.dev ?: "?");
			return -ENODEV;
		}
		c->fs = w.fs;
		n = bls_collect(c, w.path, FMT_GRUB, grub_bls_expand, st);
	}
	return n;
}

static int grub_cmd_blscfg(struct grub_state *st, const char *const *argv,
			   size_t argc)
{
	struct entry_list tmp;
	struct cfg_ctx c = *st->ctx;
	int n;

	entry_list_init(&tmp, st->a);
	c.out = &tmp;
	n = grub_bls_dir(st, &c);
	for (struct entry *e = tmp.head, *next; e; e = next) {
		struct grub_item *it = arena_alloc(st->a, sizeof(*it));

		next = e->next;
		grub_bls_fix(st, e, grub_get(st, "root"));
		grub_bls_btrfs(st, e);
		it->title = e->title;
		it->id = e->id;
		it->built = e;
		grub_menu_add(st->menu, it);
	}
	tmp.head = NULL;
	tmp.tail = &tmp.head;
	entry_list_splice(st->ctx->out, &tmp);
	return n < 0;
}

/* Every command, by name; grub.c hands the table to grub_exec.c. */
const struct grub_cmd grub_cmds[] = {
    {"set", grub_cmd_set},
    {"unset", grub_cmd_unset},
    {"export", grub_cmd_export},
    {"true", grub_cmd_true},
    {"false", grub_cmd_false},
    {"test", grub_cmd_test},
    {"[", grub_cmd_test},
    {"source", grub_cmd_source},
    {".", grub_cmd_source},
    {"configfile", grub_cmd_source},
    {"normal", grub_cmd_source},
    {"break", grub_cmd_flow},
    {"continue", grub_cmd_flow},
    {"return", grub_cmd_flow},
    {"exit", grub_cmd_flow},
    {"shift", grub_cmd_shift},
    {"setparams", grub_cmd_setparams},
    {"eval", grub_cmd_eval},
    {"search", grub_cmd_search},
    {"search.fs_uuid", grub_cmd_search_dot},
    {"search.fs_label", grub_cmd_search_dot},
    {"search.file", grub_cmd_search_dot},
    {"load_env", grub_cmd_load_env},
    {"linux", grub_cmd_linux},
    {"linux16", grub_cmd_linux},
    {"linuxefi", grub_cmd_linux},
    {"initrd", grub_cmd_initrd},
    {"initrd16", grub_cmd_initrd},
    {"initrdefi", grub_cmd_initrd},
    {"devicetree", grub_cmd_devicetree},
    {"chainloader", grub_cmd_chainloader},
    {"multiboot", grub_cmd_multiboot},
    {"multiboot2", grub_cmd_multiboot},
    {"xen_hypervisor", grub_cmd_multiboot},
    {"module", grub_cmd_module},
    {"module2", grub_cmd_module},
    {"xen_module", grub_cmd_module},
    {"kfreebsd", grub_cmd_other_kernel},
    {"knetbsd", grub_cmd_other_kernel},
    {"kopenbsd", grub_cmd_other_kernel},
    {"xnu_kernel", grub_cmd_other_kernel},
    {"xnu_kernel64", grub_cmd_other_kernel},
    {"appleloader", grub_cmd_other_kernel},
    {"ntldr", grub_cmd_ntldr},
    {"reboot", grub_cmd_firmware},
    {"halt", grub_cmd_firmware},
    {"fwsetup", grub_cmd_firmware},
    {"blscfg", grub_cmd_blscfg},
    {"bls_import", grub_cmd_blscfg},
    {"btrfs-mount-subvol", grub_cmd_btrfs_mount_subvol},
    /* display, terminal, security and module commands: no effect on
     * what kexec boots */
    {"insmod", NULL},
    {"rmmod", NULL},
    {"lsmod", NULL},
    {"terminal_input", NULL},
    {"terminal_output", NULL},
    {"terminal", NULL},
    {"terminfo", NULL},
    {"gfxmode", NULL},
    {"loadfont", NULL},
    {"load_video", NULL},
    {"echo", NULL},
    {"serial", NULL},
    {"background_image", NULL},
    {"background_color", NULL},
    {"play", NULL},
    {"clear", NULL},
    {"sleep", NULL},
    {"save_env", NULL},
    {"savedefault", NULL},
    {"recordfail", NULL},
    {"gettext", NULL},
    {"password", NULL},
    {"password_pbkdf2", NULL},
    {"lsfonts", NULL},
    {"videoinfo", NULL},
    {"vbeinfo", NULL},
    {"videotest", NULL},
    {"badram", NULL},
    {"cutmem", NULL},
    {"cryptomount", NULL},
    {"font", NULL},
    {"boot", NULL},
    {"ls", NULL},
    {"cat", NULL},
    {"help", NULL},
    {"hiddenmenu", NULL},
    {"usb", NULL},
    {"nativedisk", NULL},
    {"tpm", NULL},
    {"verify_detached", NULL},
    {"trust", NULL},
    {"distrust", NULL},
    {"set_gfxpayload", NULL},
    {"gfxpayload", NULL},
    {"date", NULL},
    {"lspci", NULL},
    {"outb", NULL},
    {"inb", NULL},
    {"fallback", NULL},
    {"mouse", NULL},
    {"export_env", NULL},
    {"gptsync", NULL},
    {"parttool", NULL},
    {"drivemap", NULL},
    {"efi_gop", NULL},
    {"efi_uga", NULL},
    {"all_video", NULL},
    {"fix_video", NULL},
    {"smbios", NULL},
    {"setpci", NULL},
    {"lsefi", NULL},
    {"lsefimmap", NULL},
    {"lsefisystab", NULL},
    {"progress", NULL},
    /* keystatus: no key is held while bootmenu reads the config */
    {"keystatus", grub_cmd_false},
    {NULL, NULL},
};
