/* source/disks.c - block devices as a source: the scan room's events. */
#include "scan/scan.h"
#include "source/source.h"

#include <errno.h>
#include <stdlib.h>

static int disks_fd(const struct source *src)
{
	return scan_fd(src->priv);
}

static int disks_next(struct source *src, struct source_event *ev)
{
	static const enum source_event_type map[] = {
	    [SCAN_EV_FS_ADDED] = SOURCE_FS_ADDED,
	    [SCAN_EV_FS_REMOVED] = SOURCE_FS_REMOVED,
	    [SCAN_EV_DEVICE] = SOURCE_DEVICE,
	    [SCAN_EV_SETTLED] = SOURCE_SETTLED,
	};
	struct scan_event sev;

	if (scan_next(src->priv, &sev) <= 0)
		return 0;
	ev->type = map[sev.type];
	ev->fs = sev.fs;
	return 1;
}

static void disks_release(struct source *src, const struct fs_root *fs)
{
	scan_release(src->priv, fs);
}

static void disks_stop(struct source *src)
{
	scan_unmount_all(src->priv);
}

static void disks_free(struct source *src)
{
	scan_free(src->priv);
	free(src);
}

static const struct source_ops disks_ops = {
    .name = "disks",
    .fd = disks_fd,
    .next = disks_next,
    .stop = disks_stop,
    .free = disks_free,
    .release = disks_release,
    .sorted = true,
};

struct source *source_disks_new(const struct scan_opts *opts,
				struct scan **scan_out)
{
	struct source *src = calloc(1, sizeof(*src));

	if (!src)
		return NULL;
	src->ops = &disks_ops;
	src->priv = scan_new(opts);
	if (!src->priv) {
		int e = errno;

		free(src);
		errno = e;
		return NULL;
	}
	*scan_out = src->priv;
	return src;
}
