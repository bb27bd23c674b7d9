/* grub_path.c - GRUB device names and paths: "(hd0,gpt2)/boot/vmlinuz",
 * "($root)/grub.cfg", and "/vmlinuz" on $root.
 *
 * GRUB manual, "Device syntax": (hdN) is the Nth BIOS/firmware disk, 0
 * based; (hdN,msdosM) and (hdN,gptM) its Mth partition, 1 based. The
 * firmware's disk order is not known here; the disks are taken in the
 * kernel's name order, the usual case on one-disk machines. A device that
 * cannot be found stays as a spec on the file, resolved when it appears.
 */
#include "cfg/grub_path.h"
#include "cfg/grub_btrfs.h"
#include "cfg/grub_vars.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Most disks the (hdN) guess tells apart; longest kernel disk name. */
#define GRUB_DISKS_MAX 64
#define GRUB_DISK_NAME_MAX 32

static const char *const grub_primary_paths[] = {
    "/boot/grub/grub.cfg",
    "/grub/grub.cfg",
    "/boot/grub2/grub.cfg",
    "/grub2/grub.cfg",
};

const char *grub_primary_config(const struct fs_root *fs)
{
	for (size_t i = 0;
	     i < sizeof(grub_primary_paths) / sizeof(grub_primary_paths[0]);
	     i++)
		if (fs_is_file(fs, grub_primary_paths[i]))
			return grub_primary_paths[i];
	return NULL;
}

const char *grub_fs_devname(const struct fs_root *fs)
{
	if (fs->btrfs) /* the top level is the same device to GRUB */
		fs = fs->btrfs->home;
	return fs->name ? fs->name : fs->label ? fs->label : "fs";
}

const char *grub_dirname(struct grub_state *st, const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path
		   ? arena_strndup(st->a, path, (size_t)(slash - path))
		   : "";
}

/* "/dev/sda2" -> disk "sda", part 2; "/dev/nvme0n1p1" -> "nvme0n1", 1. */
static bool grub_split_dev(const char *dev, char *disk, long *part)
{
	const char *s, *d;
	size_t n;

	if (!dev || strncmp(dev, "/dev/", 5))
		return false;
	s = dev + 5;
	n = strlen(s);
	for (d = s + n; d > s && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (d == s + n || d == s)
		return false;
	*part = strtol(d, NULL, 10);
	n = (size_t)(d - s);
	if (n > 1 && s[n - 1] == 'p' && s[n - 2] >= '0' && s[n - 2] <= '9')
		n--;
	else if (s[n - 1] >= '0' && s[n - 1] <= '9')
		return false; /* "nvme0n1": a whole disk */
	if (n >= GRUB_DISK_NAME_MAX)
		return false;
	memcpy(disk, s, n);
	disk[n] = '\0';
	return true;
}

static int grub_disk_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* "hdN[,msdosM|,gptM|,M]" -> N and M (M = 0 for the whole disk). */
static bool grub_parse_hd(const char *dev, long *disk, long *part)
{
	char *end;

	if (strncmp(dev, "hd", 2) || dev[2] < '0' || dev[2] > '9')
		return false;
	*disk = strtol(dev + 2, &end, 10);
	*part = 0;
	if (!*end)
		return true;
	if (*end++ != ',')
		return false;
	if (!strncmp(end, "msdos", 5))
		end += 5;
	else if (!strncmp(end, "gpt", 3))
		end += 3;
	if (*end < '1' || *end > '9')
		return false;
	*part = strtol(end, &end, 10);
	return !*end;
}

static const struct fs_root *grub_map_hd(struct grub_state *st, long n,
					 long part)
{
	static const size_t nm = GRUB_DISK_NAME_MAX;
	char disks[GRUB_DISKS_MAX][GRUB_DISK_NAME_MAX], d[GRUB_DISK_NAME_MAX];
	size_t nd = 0;
	long p;

	for (size_t i = 0; i < st->ctx->n_all; i++) {
		bool seen = false;

		if (!grub_split_dev(st->ctx->all[i]->device, d, &p))
			continue;
		for (size_t k = 0; k < nd; k++)
			seen |= !strcmp(disks[k], d);
		if (!seen && nd < GRUB_DISKS_MAX)
			memcpy(disks[nd++], d, nm);
	}
	qsort(disks, nd, nm, grub_disk_cmp);
	st->ctx->all_deps = true; /* (hdN) numbers shift as disks come */
	if (n < 0 || (size_t)n >= nd || part <= 0)
		return NULL;
	for (size_t i = 0; i < st->ctx->n_all; i++)
		if (grub_split_dev(st->ctx->all[i]->device, d, &p) &&
		    !strcmp(d, disks[n]) && p == part)
			return st->ctx->all[i];
	return NULL;
}

static const struct fs_root *grub_find_dev_in(struct grub_state *st,
					      const char *dev)
{
	const struct fs_root *const *all = st->ctx->all;
	long n, part;

	for (size_t i = 0; i < st->ctx->n_all; i++)
		if (!strcmp(grub_fs_devname(all[i]), dev))
			return all[i];
	if (strchr(dev, '='))
		return fs_find(dev, all, st->ctx->n_all);
	for (size_t i = 0; i < st->ctx->n_all; i++)
		if (all[i]->uuid && !strcasecmp(all[i]->uuid, dev))
			return all[i];
	if (grub_parse_hd(dev, &n, &part))
		return grub_map_hd(st, n, part);
	return NULL;
}

static const struct fs_root *grub_find_dev(struct grub_state *st,
					   const char *dev)
{
	const struct fs_root *fs = grub_find_dev_in(st, dev);

	cfg_reached(st->ctx, fs);
	return fs;
}

/* @p made absolute, with runs of '/' made one ("$prefix/" + "/x"). */
static const char *grub_clean_path(struct grub_state *st, const char *p)
{
	char *out = arena_alloc(st->a, strlen(p) + 2), *o = out;

	*o++ = '/';
	for (; *p; p++)
		if (*p != '/' || o[-1] != '/')
			*o++ = *p;
	*o = '\0';
	return out;
}

/* "(dev)rest" -> dev; "((dev))" too, for `set root=(hd0,1)` used as
 * ($root). Returns the rest, or @arg when there is no device. */
static const char *grub_split_devpath(struct grub_state *st, const char *arg,
				      const char **dev)
{
	size_t open = strspn(arg, "(");
	const char *close = open ? strchr(arg, ')') : NULL;

	if (!close)
		return arg;
	*dev = arena_strndup(st->a, arg + open, (size_t)(close - arg) - open);
	while (open-- && *close == ')')
		close++;
	return close;
}

void grub_where(struct grub_state *st, const char *arg, struct grub_where *w)
{
	const char *dev = NULL;

	arg = grub_split_devpath(st, arg, &dev);
	if (!dev && (dev = grub_get(st, "root")) && *dev == '(')
		grub_split_devpath(st, dev, &dev);
	w->path = grub_clean_path(st, arg);
	w->fs = dev && *dev ? grub_find_dev(st, dev) : st->fs;
	w->dev = w->fs ? NULL : dev;
	if (w->fs && w->fs->btrfs)
		grub_btrfs_where(st, w);
	if (w->fs || !dev || strchr(dev, '='))
		return;
	if (!st->warned_dev || strcmp(st->warned_dev, dev)) {
		grub_warn(
		    st,
		    "GRUB device (%s) is not a known filesystem: kept as is",
		    dev);
		st->warned_dev = dev;
	}
}

const char *grub_where_dev(struct grub_state *st, const struct grub_where *w,
			   const struct fs_root *home)
{
	const struct fs_root *fs = w->fs;

	if (!fs)
		return w->dev;
	if (fs == home)
		return NULL;
	if (fs->uuid)
		return arena_printf(st->a, "UUID=%s", fs->uuid);
	if (fs->partuuid)
		return arena_printf(st->a, "PARTUUID=%s", fs->partuuid);
	if (fs->device)
		return fs->device;
	if (fs->label)
		return arena_printf(st->a, "LABEL=%s", fs->label);
	return grub_fs_devname(fs);
}

int grub_read(struct grub_state *st, const struct grub_where *w, size_t max,
	      char **buf, size_t *len)
{
	int rc;

	if (!w->fs)
		return -ENODEV;
	if (!cfg_budget(st->ctx, w->path, 1, 0))
		return -ECANCELED;
	rc = fs_read_file(w->fs, w->path, max, buf, len);
	if (rc == 0 && !cfg_budget(st->ctx, w->path, 0, *len)) {
		free(*buf);
		return -ECANCELED;
	}
	return rc;
}
