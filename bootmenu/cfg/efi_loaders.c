/* efi_loaders.c - EFI loaders on an ESP, booted by the firmware.
 *
 * What rEFInd and systemd-boot list on their own: on a filesystem whose
 * partition type says ESP, \EFI\Microsoft\Boot\bootmgfw.efi as "Windows
 * Boot Manager"; in each other \EFI\<vendor>\ its first-stage loader
 * (shimx64.efi, else grubx64.efi, systemd-bootx64.efi, refind_x64.efi,
 * else the first other *.efi in name order that is not one of shim's
 * helpers, mmx64.efi and fbx64.efi, nor a tool below) as "<vendor> (EFI
 * loader)"; \EFI\BOOT\BOOTX64.EFI unless it is bootmenu itself or a
 * copy of a loader already listed (rEFInd's DuplicatesFallback()); the
 * tools: memtest*.efi, shell*.efi and xen*.efi (Xen's EFI loader, which
 * a UEFI machine boots where a kexec'd Xen cannot) in \EFI or one of its
 * directories, and every *.efi of \EFI\memtest86\. \EFI\Linux\ holds
 * UKIs (bls.c's); a file an entry of another format here already boots
 * is not listed again. FAT ignores case, so every name is compared
 * without it. Each entry boots through the firmware (ENTRY_FIRMWARE:
 * boot/firmware.h), disabled with ctx->fw_off where it cannot. The
 * firmware's own boot options and "UEFI Firmware Settings" belong to the
 * machine, not to an ESP: they are a source of entries of their own
 * (source/firmware.c).
 */
#include "cfg/efi_loaders.h"
#include "cfg/cfg_text.h"
#include "format/bzimage.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "util/file.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Files compared byte for byte with the fallback loader, at most. */
#define EFIL_COMPARE_MAX (64u << 20)

#define EFIL_WINDOWS "Windows Boot Manager"

/* One name in \EFI: a directory and its listing, or a file. */
struct efil_dir {
	const char *name, *path;
	char **names;
	size_t n;
	bool dir;
};

struct efil {
	struct cfg_ctx *ctx;
	const char *efi; /* \EFI as spelled on the disk */
	struct efil_dir *d;
	size_t n;
	const char *listed[64]; /* vendor loaders, for the fallback's copy */
	size_t n_listed;
};

static bool efil_is_efi(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && name[0] != '.' && !strcasecmp(name + n - 4, ".efi");
}

static bool efil_is_tool(const char *name)
{
	return efil_is_efi(name) &&
	       (!strncasecmp(name, "memtest", 7) ||
		!strncasecmp(name, "shell", 5) || !strncasecmp(name, "xen", 3));
}

/* The name in dir[0..n) that is @want without case, or NULL. */
static const char *efil_name(char *const *names, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(names[i], want))
			return names[i];
	return NULL;
}

/* @dir/@want as spelled on the disk, or NULL when it is not there. */
static const char *efil_find(struct efil *s, const char *dir, const char *want)
{
	char **names;
	size_t n;
	const char *name;

	if (fs_list(s->ctx->fs, dir, s->ctx->a, &names, &n) < 0 ||
	    !(name = efil_name(names, n, want)))
		return NULL;
	return cfg_text_path(s->ctx->a, dir, name);
}

/* A regular file that no entry of this filesystem boots yet. */
static bool efil_usable(struct efil *s, const char *path)
{
	for (const struct entry *e = s->ctx->out->head; e; e = e->next)
		if (e->fs == s->ctx->fs && !e->kernel.dev && e->kernel.path &&
		    !strcasecmp(e->kernel.path, path))
			return false;
	return fs_is_file(s->ctx->fs, path);
}

/* Why @path cannot be a loader the firmware reads whole, or NULL: a file
 * larger than its filesystem. Its FAT cluster chain must then come back
 * to a cluster it already passed (FAT spec section 4: a chain is a list,
 * one entry per cluster); the kernel's FAT follows such a loop up to the
 * file's size (fat_get_cluster stops only at s_maxbytes), so reading it
 * gives no error, only the same clusters again. */
static const char *efil_damage(struct efil *s, const char *path)
{
	struct stat st;
	struct statvfs v;
	const char *why = NULL;
	int fd;

	if (fs_stat(s->ctx->fs, path, &st) || st.st_size < 0 ||
	    (fd = fs_open(s->ctx->fs, path, false)) < 0)
		return NULL;
	if (fstatvfs(fd, &v) == 0 && v.f_frsize &&
	    v.f_blocks <= UINT64_MAX / v.f_frsize &&
	    (uint64_t)st.st_size > (uint64_t)v.f_blocks * v.f_frsize)
		why = arena_printf(s->ctx->a,
				   "%s is %llu bytes, more than its filesystem "
				   "holds (%llu): its cluster chain loops or "
				   "ends before the file does",
				   path, (unsigned long long)st.st_size,
				   (unsigned long long)v.f_blocks * v.f_frsize);
	close(fd);
	return why;
}

/* The loader @path listed as @title, disabled for @why when not NULL
 * (else for the firmware method's reason, if any). */
static struct entry *efil_add_as(struct efil *s, const char *path,
				 const char *title, const char *why)
{
	struct entry *e = entry_new(s->ctx->out, FMT_EFI, s->ctx->fs);

	e->method = ENTRY_FIRMWARE;
	e->id = path;
	e->title = title;
	e->kernel.path = path;
	e->source = path;
	e->disabled = why ? why : s->ctx->fw_off;
	return entry_add(s->ctx->out, e) == 0 ? e : NULL;
}

static struct entry *efil_add(struct efil *s, const char *path,
			      const char *title)
{
	return efil_add_as(s, path, title, efil_damage(s, path));
}

static void efil_windows(struct efil *s)
{
	const char *ms = efil_find(s, s->efi, "Microsoft");
	const char *boot = ms ? efil_find(s, ms, "Boot") : NULL;
	const char *mgr = boot ? efil_find(s, boot, "bootmgfw.efi") : NULL;

	if (mgr && efil_usable(s, mgr))
		efil_add(s, mgr, EFIL_WINDOWS);
}

/* Whether @path on @fs is bootmenu itself (format/bzimage.h): the first
 * loader of a directory or the fallback loader may be a copy of it. */
static bool efil_is_bootmenu(const struct fs_root *fs, const char *path)
{
	int fd = fs_open(fs, path, false);
	bool yes = fd >= 0 && bzimage_fd_is_bootmenu(fd);

	if (fd >= 0)
		close(fd);
	return yes;
}

/* The first-stage loader of one vendor directory, or NULL (bootmenu
 * itself, \EFI\bootmenu\bootmenu.efi as installed, is not one). */
static const char *efil_pick(struct efil *s, const struct efil_dir *d)
{
	static const char *const prefer[] = {"shimx64.efi", "grubx64.efi",
					     "systemd-bootx64.efi",
					     "refind_x64.efi"};
	const char *name, *path;

	for (size_t i = 0; i < sizeof(prefer) / sizeof(prefer[0]); i++)
		if ((name = efil_name(d->names, d->n, prefer[i])) &&
		    efil_usable(s,
				path = cfg_text_path(s->ctx->a, d->path, name)))
			return path;
	for (size_t i = 0; i < d->n; i++) {
		name = d->names[i];
		if (!efil_is_efi(name) || efil_is_tool(name) ||
		    !strcasecmp(name, "mmx64.efi") ||
		    !strcasecmp(name, "fbx64.efi"))
			continue;
		path = cfg_text_path(s->ctx->a, d->path, name);
		if (efil_usable(s, path) && !efil_is_bootmenu(s->ctx->fs, path))
			return path;
	}
	return NULL;
}

static void efil_vendors(struct efil *s)
{
	static const char *const not_vendors[] = {"Microsoft", "BOOT", "Linux",
						  "memtest86"};
	const char *path;

	for (size_t i = 0; i < s->n; i++) {
		const struct efil_dir *d = &s->d[i];
		bool skip = !d->dir;

		for (size_t k = 0;
		     k < sizeof(not_vendors) / sizeof(*not_vendors) && !skip;
		     k++)
			skip = !strcasecmp(d->name, not_vendors[k]);
		if (skip || !(path = efil_pick(s, d)))
			continue;
		if (efil_add(
			s, path,
			arena_printf(s->ctx->a, "%s (EFI loader)", d->name)) &&
		    s->n_listed < sizeof(s->listed) / sizeof(s->listed[0]))
			s->listed[s->n_listed++] = path;
	}
}

/* Whether files @a and @b hold the same bytes (both read in pieces):
 * 1 or 0, or -errno when one cannot be read to its size (*@bad: @a's
 * error, 0, or @b's, 1). */
static int efil_same_bytes(int fa, int fb, off_t size, int *bad)
{
	static const size_t piece = 64u * 1024;
	uint8_t *x = malloc(2 * piece);
	int same = x != NULL;

	for (off_t done = 0; same == 1 && done < size; done += (off_t)piece) {
		ssize_t na = util_read_full(fa, x, piece);
		ssize_t nb = util_read_full(fb, x + piece, piece);

		/* the kernel's FAT gives EIO where a chain ends before the
		 * file's size */
		if (na < 0 || nb < 0) {
			*bad = na >= 0;
			same = (int)(na < 0 ? na : nb);
		} else
			same = na > 0 && na == nb &&
			       !memcmp(x, x + piece, (size_t)na);
	}
	free(x);
	return same;
}

static int efil_same_file(struct efil *s, const char *a, const char *b,
			  int *bad)
{
	struct stat sa, sb;
	int fa, fb, same = 0;

	if (fs_stat(s->ctx->fs, a, &sa) || fs_stat(s->ctx->fs, b, &sb) ||
	    sa.st_size != sb.st_size || sa.st_size > EFIL_COMPARE_MAX)
		return 0;
	fa = fs_open(s->ctx->fs, a, false);
	fb = fs_open(s->ctx->fs, b, false);
	if (fa >= 0 && fb >= 0)
		same = efil_same_bytes(fa, fb, sa.st_size, bad);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* The fallback loader unless it is bootmenu or a copy of a vendor's; one
 * that cannot be read whole is listed disabled with the reason, for the
 * firmware would meet the same damage. */
static void efil_fallback(struct efil *s)
{
	const char *boot = efil_find(s, s->efi, "BOOT");
	const char *f = boot ? efil_find(s, boot, "BOOTX64.EFI") : NULL;
	const char *title = "EFI fallback loader (BOOTX64.EFI)", *why;

	if (!f || !efil_usable(s, f) || efil_is_bootmenu(s->ctx->fs, f))
		return;
	why = efil_damage(s, f);
	if (why) { /* listed with why, not read whole */
		efil_add_as(s, f, title, why);
		return;
	}
	for (size_t i = 0; i < s->n_listed && !why; i++) {
		int bad = 0, same = efil_same_file(s, f, s->listed[i], &bad);

		if (same == 1)
			return;
		/* a vendor loader's damage is not the fallback's */
		if (same < 0 && !bad)
			why = arena_printf(s->ctx->a, "%s cannot be read: %s",
					   f, strerror(-same));
	}
	efil_add_as(s, f, title, why);
}

static void efil_tool(struct efil *s, const char *dir, const char *name,
		      bool memtest_dir)
{
	const char *path = cfg_text_path(s->ctx->a, dir, name);
	bool memtest = memtest_dir || !strncasecmp(name, "memtest", 7);
	const char *what = memtest			  ? "Memory test"
			   : !strncasecmp(name, "xen", 3) ? "Xen"
							  : "UEFI Shell";

	if ((memtest_dir ? efil_is_efi(name) : efil_is_tool(name)) &&
	    efil_usable(s, path))
		efil_add(s, path,
			 arena_printf(s->ctx->a, "%s (%s)", what, name));
}

/* memtest*.efi, shell*.efi and xen*.efi in \EFI and its directories, and every
 * *.efi of \EFI\memtest86\. */
static void efil_tools(struct efil *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct efil_dir *d = &s->d[i];
		bool mt = !strcasecmp(d->name, "memtest86");

		if (!d->dir)
			efil_tool(s, s->efi, d->name, false);
		for (size_t k = 0; d->dir && k < d->n; k++)
			efil_tool(s, d->path, d->names[k], mt);
	}
}

/* \EFI's names, each directory listed once. */
static int efil_list(struct efil *s)
{
	char **names;
	size_t n;

	if (!(s->efi = efil_find(s, "/", "EFI")) ||
	    fs_list(s->ctx->fs, s->efi, s->ctx->a, &names, &n) < 0)
		return -1;
	s->d = arena_alloc(s->ctx->a, (n ? n : 1) * sizeof(*s->d));
	for (size_t i = 0; i < n; i++) {
		struct efil_dir *d = &s->d[s->n++];

		d->name = names[i];
		d->path = cfg_text_path(s->ctx->a, s->efi, names[i]);
		d->dir = fs_list(s->ctx->fs, d->path, s->ctx->a, &d->names,
				 &d->n) == 0;
	}
	return 0;
}

int efi_loaders_parse_fs(struct cfg_ctx *ctx)
{
	struct efil s = {.ctx = ctx};

	if (!ctx->fs->esp || efil_list(&s) < 0)
		return 0;
	efil_windows(&s);
	efil_vendors(&s);
	efil_fallback(&s);
	efil_tools(&s);
	return 0;
}
