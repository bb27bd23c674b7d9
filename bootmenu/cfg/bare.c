/* bare.c - kernels in /boot that no config names.
 *
 * A filesystem with /boot/vmlinuz-VERSION (a root filesystem) or
 * /vmlinuz-VERSION (a separate /boot) gets one entry per kernel, newest
 * first by the UAPI version comparison, with the initrd that the usual
 * generators put beside it (Debian's initrd.img-V, dracut's
 * initramfs-V.img, initrd-V[.img], Arch's initramfs-<pkg>.img after its
 * microcode images) and "root=UUID=<filesystem> ro". Kernels that an entry
 * of another format on this filesystem already boots or loads as a module
 * (Xen's dom0 kernel), after resolving symlinks such as /vmlinuz, are left
 * out: this parser runs last.
 */
#include "cfg/bare.h"
#include "cfg/cfg_text.h"
#include "cfg/verscmp.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Most kernels one filesystem contributes. */
#define BARE_KERNELS_MAX 64
/* Largest /etc/fstab read when looking for the root of a separate /boot. */
#define BARE_FSTAB_MAX (64u * 1024)

struct bare_kernel {
	const char *path; /* symlinks resolved */
	const char *version;
};

struct bare_scan {
	struct cfg_ctx *ctx;
	struct bare_kernel k[BARE_KERNELS_MAX];
	size_t n;
	const char **named; /* kernels other entries boot, resolved */
	size_t n_named;
};

static const char *bare_real(struct cfg_ctx *ctx, const char *path)
{
	char *real;

	return fs_realpath(ctx->fs, path, ctx->a, &real) == 0 ? real : path;
}

static void bare_name(struct bare_scan *s, const struct entry_file *f)
{
	if (f->path && !f->dev)
		s->named[s->n_named++] = bare_real(s->ctx, f->path);
}

/* The kernels the entries so far boot, and the ones they load as modules
 * (Xen's dom0 kernel: GRUB's `module`), on this filesystem. */
static void bare_named(struct bare_scan *s)
{
	size_t n = 0;

	for (const struct entry *e = s->ctx->out->head; e; e = e->next)
		n += 1 + e->n_modules;
	s->named = arena_alloc(s->ctx->a, (n + 1) * sizeof(*s->named));
	for (const struct entry *e = s->ctx->out->head; e; e = e->next) {
		bare_name(s, &e->kernel);
		for (size_t i = 0; i < e->n_modules; i++)
			bare_name(s, &e->modules[i]);
	}
}

static bool bare_known(const struct bare_scan *s, const char *real)
{
	for (size_t i = 0; i < s->n_named; i++)
		if (!strcmp(s->named[i], real))
			return true;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->k[i].path, real))
			return true;
	return false;
}

/* Signatures and HMACs that sit beside kernels are not kernels. */
static bool bare_is_kernel_name(const char *name)
{
	static const char *const skip[] = {
	    ".sig", ".hmac", ".asc", ".p7s", ".bak", ".dpkg-tmp", ".dpkg-new"};
	size_t n = strlen(name);

	if (strncmp(name, "vmlinuz-", 8) && strncmp(name, "vmlinux-", 8))
		return false;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++) {
		size_t m = strlen(skip[i]);

		if (n > m && !strcasecmp(name + n - m, skip[i]))
			return false;
	}
	return n > 8;
}

static void bare_add(struct bare_scan *s, const char *path)
{
	const char *real = bare_real(s->ctx, path), *base;

	if (s->n == BARE_KERNELS_MAX || !fs_is_file(s->ctx->fs, real) ||
	    bare_known(s, real))
		return;
	base = cfg_text_basename(real);
	s->k[s->n].path = real;
	s->k[s->n].version = bare_is_kernel_name(base) ? base + 8 : NULL;
	s->n++;
}

static void bare_scan_dir(struct bare_scan *s, const char *dir)
{
	static const char *const links[] = {"vmlinuz", "vmlinuz.old", "vmlinux",
					    "vmlinux.old"};
	char **names;
	size_t n;

	if (fs_list(s->ctx->fs, dir, s->ctx->a, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (bare_is_kernel_name(names[i]))
			bare_add(s, cfg_text_path(s->ctx->a, dir, names[i]));
	/* /vmlinuz -> boot/vmlinuz-6.1.0-13-amd64, or a plain kernel file */
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		bare_add(s, cfg_text_path(s->ctx->a, dir, links[i]));
}

static int bare_cmp(const void *x, const void *y)
{
	const struct bare_kernel *a = x, *b = y;
	int r = -cfg_verscmp(a->version, b->version);

	return r ? r : strcmp(a->path, b->path);
}

static void bare_initrds(struct bare_scan *s, struct entry *e,
			 const struct bare_kernel *k)
{
	static const char *const ucode[] = {"intel-ucode.img", "amd-ucode.img"};
	static const char *const fmts[] = {"initrd.img-%s", "initramfs-%s.img",
					   "initrd-%s.img", "initrd-%s",
					   "initramfs-%s"};
	struct arena *a = s->ctx->a;
	const char *dir = cfg_text_dirname(a, k->path);

	if (!k->version)
		return;
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *p =
		    cfg_text_path(a, dir, arena_printf(a, fmts[i], k->version));

		if (!fs_is_file(s->ctx->fs, p))
			continue;
		/* Arch's mkinitcpio images expect the microcode first */
		for (size_t j = 0;
		     i == 1 && j < sizeof(ucode) / sizeof(ucode[0]); j++) {
			char *u = cfg_text_path(a, dir, ucode[j]);

			if (fs_is_file(s->ctx->fs, u))
				entry_add_initrd(s->ctx->out, e, NULL, u);
		}
		entry_add_initrd(s->ctx->out, e, NULL, p);
		return;
	}
}

/* The device field of the fstab line that mounts @mnt, owned by @a. */
static char *bare_fstab_spec(struct arena *a, const char *buf, size_t len,
			     const char *mnt)
{
	struct cfg_text_lines it;
	const char *p;
	size_t n;

	cfg_text_lines_init(&it, buf, len);
	while (cfg_text_next_line(&it, &p, &n)) {
		const char *spec, *rest, *m, *r2;
		size_t sn, rn, mn, r2n;

		cfg_text_split_word(p, n, &spec, &sn, &rest, &rn);
		cfg_text_split_word(rest, rn, &m, &mn, &r2, &r2n);
		if (sn && spec[0] != '#' && mn == strlen(mnt) &&
		    !strncmp(m, mnt, mn))
			return arena_strndup(a, spec, sn);
	}
	return NULL;
}

/* Does fstab spec @sp name @fs? */
static bool bare_spec_is(const char *sp, const struct fs_root *fs)
{
	return (fs->uuid && !strncasecmp(sp, "UUID=", 5) &&
		!strcasecmp(sp + 5, fs->uuid)) ||
	       (fs->label && !strncmp(sp, "LABEL=", 6) &&
		!strcmp(sp + 6, fs->label)) ||
	       (fs->device && !strcmp(sp, fs->device));
}

static char *bare_read_fstab_spec(struct cfg_ctx *ctx, const struct fs_root *fs,
				  const char *mnt)
{
	char *buf, *spec;
	size_t len;

	if (fs_read_file(fs, "/etc/fstab", BARE_FSTAB_MAX, &buf, &len) < 0)
		return NULL;
	spec = bare_fstab_spec(ctx->a, buf, len, mnt);
	free(buf);
	return spec;
}

/* The root filesystem whose /etc/fstab mounts this one on /boot. */
static const struct fs_root *bare_root_of_boot(struct cfg_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n_all; i++) {
		const struct fs_root *r = ctx->all[i];
		char *spec;

		if (r == ctx->fs)
			continue;
		spec = bare_read_fstab_spec(ctx, r, "/boot");
		if (spec && bare_spec_is(spec, ctx->fs)) {
			cfg_reached(ctx, r);
			return r;
		}
	}
	cfg_reached(ctx, NULL);
	return NULL;
}

static const char *bare_root_arg(struct cfg_ctx *ctx, const struct fs_root *r)
{
	char *spec;

	if (r->uuid)
		return arena_printf(ctx->a, "root=UUID=%s ro", r->uuid);
	if (r->partuuid)
		return arena_printf(ctx->a, "root=PARTUUID=%s ro", r->partuuid);
	if (r->device)
		return arena_printf(ctx->a, "root=%s ro", r->device);
	/* a directory given with --root: its own fstab says what "/" is */
	spec = bare_read_fstab_spec(ctx, r, "/");
	if (spec)
		return arena_printf(ctx->a, "root=%s ro", spec);
	return NULL;
}

/* "root=UUID=... ro" for kernels in @dir: this filesystem when they are
 * in its /boot, else the root that mounts it on /boot. */
static const char *bare_cmdline(struct bare_scan *s, const char *dir)
{
	struct cfg_ctx *ctx = s->ctx;
	const struct fs_root *root =
	    strcmp(dir, "/boot") ? bare_root_of_boot(ctx) : ctx->fs;

	/* a kernel at the top of a root filesystem (no /etc/fstab mounting
	 * it elsewhere) boots that filesystem */
	if (!root && fs_is_file(ctx->fs, "/etc/fstab"))
		root = ctx->fs;
	const char *c = root ? bare_root_arg(ctx, root) : NULL;

	if (c)
		return c;
	if (root)
		entry_warn(
		    ctx->out, ctx->fs, dir, 0,
		    "bare kernels: their root "
		    "filesystem %s has no UUID, PARTUUID or device: root= "
		    "left out",
		    root->name ? root->name : "?");
	else
		entry_warn(ctx->out, ctx->fs, dir, 0,
			   "bare kernels on a separate "
			   "/boot that no /etc/fstab mounts: root= left out");
	return "ro";
}

/* A kernel in /boot of this filesystem boots with this filesystem as
 * root; one at its top is on a separate /boot. */
static bool bare_in_boot(const char *path)
{
	return !strncmp(path, "/boot/", 6);
}

static void bare_emit(struct bare_scan *s)
{
	struct arena *a = s->ctx->a;
	const char *cmd[2] = {NULL, NULL};

	qsort(s->k, s->n, sizeof(s->k[0]), bare_cmp);
	for (size_t i = 0; i < s->n; i++) {
		const struct bare_kernel *k = &s->k[i];
		struct entry *e = entry_new(s->ctx->out, FMT_BARE, s->ctx->fs);
		bool in_boot = bare_in_boot(k->path);

		if (!cmd[in_boot])
			cmd[in_boot] = bare_cmdline(s, in_boot ? "/boot" : "/");
		e->id = arena_printf(a, "bare:%s", k->path);
		e->title = k->version
			       ? arena_printf(a, "Linux %s", k->version)
			       : arena_printf(a, "Linux (%s)",
					      cfg_text_basename(k->path));
		e->version = k->version;
		e->kernel.path = k->path;
		e->source = k->path;
		e->cmdline = cmd[in_boot];
		bare_initrds(s, e, k);
		if (entry_add(s->ctx->out, e) < 0)
			return;
	}
}

int bare_parse_fs(struct cfg_ctx *ctx)
{
	static const char *const dirs[] = {"/boot", "/"};
	struct bare_scan *s = calloc(1, sizeof(*s));

	if (!s)
		return 0;
	s->ctx = ctx;
	bare_named(s);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		bare_scan_dir(s, dirs[i]);
	bare_emit(s);
	free(s);
	return 0;
}
