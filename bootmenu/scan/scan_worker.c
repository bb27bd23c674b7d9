/* scan_worker.c - a job: one device probed and mounted in a detached
 * worker thread of its own, so that a dead device only makes its own job
 * time out. What a worker may touch: see scan_int.h.
 */
#include "scan/fs.h"
#include "scan/scan_int.h"
#include "util/log.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCAN_WORKER_STACK (256 << 10)

bool scan_job_finished(struct scan_job *j)
{
	bool done;

	pthread_mutex_lock(&j->lock);
	done = j->finished;
	pthread_mutex_unlock(&j->lock);
	return done;
}

void scan_job_unref(struct scan_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) != 1)
		return;
	pthread_mutex_destroy(&j->lock);
	lvm_pv_free(&j->pv);
	free(j->subvols);
	free(j);
}

void scan_job_release(struct scan_job *j)
{
	if (j->root_fd >= 0)
		close(j->root_fd);
	j->root_fd = -1;
	if (j->top_fd >= 0)
		close(j->top_fd);
	j->top_fd = -1;
	if (j->mounted && !j->mount_fn)
		mount_release(j->target, true);
	j->mounted = false;
	if (j->mapped && vol_unmap(j->map_dev) < 0)
		log_warn("scan: cannot remove the mapping %s", j->map_dev);
	j->mapped = false;
}

/* btrfs, mounted at its top level (@mnt): the root handed on is the
 * default subvolume, or a common layout in it (btrfs_pick_root()); the
 * top level stays open for grub paths. Not btrfs after all (a test's
 * stand-in mount): false, and the mount is taken as it is. */
static bool job_open_btrfs(struct scan_job *j, int mnt)
{
	int rc = btrfs_default_path(mnt, j->def, sizeof(j->def));

	if (rc == -ENOTTY)
		return false;
	if (rc < 0) {
		log_info("scan: %s: default subvolume not known (%s): the top "
			 "level stands for it",
			 j->devnode, strerror(-rc));
		j->def[0] = '\0';
	}
	/* only for naming them in --list: without them, files are named by
	 * their path from the top level */
	rc = btrfs_subvol_list(mnt, &j->subvols, &j->n_subvols);
	if (rc < 0 && rc != -EPERM)
		log_info("scan: %s: subvolumes not listed (%s)", j->devnode,
			 strerror(-rc));
	btrfs_pick_root(mnt, j->def, j->sub);
	j->top_fd = mnt;
	/* inside the mount whatever its directories are (symlinks too) */
	j->root_fd = fs_open_how(&(struct fs_root){.root_fd = mnt},
				 j->sub[0] ? j->sub : ".", O_PATH | O_DIRECTORY,
				 FS_RESOLVE_AUTO);
	if (j->root_fd < 0) {
		j->mount_rc = j->root_fd;
		snprintf(j->detail, sizeof(j->detail),
			 "open subvolume %.64s: %s", j->sub,
			 strerror(-j->mount_rc));
	}
	return true;
}

/* The root to hand on: the mount itself, or the subvolume that
 * mount_pick_root() chose inside it. */
static void job_open_root(struct scan_job *j)
{
	int mnt = open(j->target, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (mnt < 0) {
		j->mount_rc = -errno;
		snprintf(j->detail, sizeof(j->detail), "open mount: %s",
			 strerror(errno));
		return;
	}
	if (!strcmp(j->res.type, "btrfs") && job_open_btrfs(j, mnt))
		return;
	mount_pick_root(mnt, j->res.type, j->sub);
	j->root_fd = mnt;
	if (j->sub[0]) {
		j->root_fd = openat(
		    mnt, j->sub, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(mnt);
		if (j->root_fd < 0) {
			j->mount_rc = -errno;
			snprintf(j->detail, sizeof(j->detail),
				 "open subvolume: %s", strerror(errno));
		}
	}
}

static void job_mount(struct scan_job *j)
{
	const char *type = j->res.type;

	if (!mount_supported(type)) {
		j->mount_rc = -EPROTONOSUPPORT;
		snprintf(j->detail, sizeof(j->detail), "no support for %s",
			 type);
		return;
	}
	if (j->mount_fn)
		j->mount_rc =
		    j->mount_fn(j->mount_ctx, j->devnode, type, j->target);
	else
		j->mount_rc =
		    mount_fs(j->devnode, type, j->target, j->set_ro, j->detail);
	if (j->mount_rc < 0) {
		if (!j->detail[0])
			snprintf(j->detail, sizeof(j->detail), "mount: %s",
				 strerror(-j->mount_rc));
		return;
	}
	j->mounted = true;
	job_open_root(j);
}

/* Ask the filter with what the probe found; under j->lock, so that it is
 * never called once the job is abandoned (its context may be gone). */
static void job_filter(struct scan_job *j)
{
	pthread_mutex_lock(&j->lock);
	if (!j->abandoned && j->filter_fn && !j->res.skip)
		j->hidden = j->filter_fn(j->filter_ctx, j->name, j->res.uuid,
					 j->res.label);
	pthread_mutex_unlock(&j->lock);
}

static void *job_main(void *arg)
{
	struct scan_job *j = arg;
	bool undo;

	if (!j->is_vol || scan_vol_job_map(j) == 0)
		probe_path(j->devnode, 0, 0, &j->res);
	if (!strcmp(j->res.type, "crypto_LUKS"))
		scan_luks_job_read(j);
	/* a volume may hold an LVM2 PV too (LVM on an md mirror) */
	if (j->res.skip == probe_skip_lvm ||
	    (!j->is_vol && j->res.skip == probe_skip_raid))
		scan_vol_job_read(j);
	job_filter(j);
	if (!j->res.skip && !j->hidden && !j->no_mount)
		job_mount(j);
	pthread_mutex_lock(&j->lock);
	j->finished = true;
	undo = j->abandoned;
	if (!undo)
		scan_efd_poke(j->s->wake_fd);
	pthread_mutex_unlock(&j->lock);
	if (undo) { /* what an abandoned worker leaves behind */
		scan_job_release(j);
		log_info("scan: %s answered after it was given up", j->devnode);
	}
	scan_job_unref(j);
	return NULL;
}

void scan_job_abandon(struct scan *s, struct scan_job *j)
{
	bool was_running;

	pthread_mutex_lock(&j->lock);
	was_running = !j->finished && !j->abandoned;
	j->abandoned = true;
	if (j->finished && (j->root_fd >= 0 || j->mapped)) /* not reaped */
		scan_job_release(j);
	pthread_mutex_unlock(&j->lock);
	if (was_running)
		s->running--;
}

void scan_target(const struct scan *s, const char *name, char target[PATH_MAX])
{
	char *p;
	int n = snprintf(target, PATH_MAX, "%s/", s->o.mount_base);

	/* a volume's "vgsys/boot" is one directory, "vgsys:boot" */
	snprintf(target + n, PATH_MAX - (size_t)n, "%s", name);
	while ((p = strchr(target + n, '/')))
		*p = ':';
}

/* A new job for @r's device, with copies of what its worker needs. */
static struct scan_job *job_new(struct scan *s, const struct scan_rec *r)
{
	struct scan_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	atomic_init(&j->refs, 2);
	pthread_mutex_init(&j->lock, NULL);
	j->s = s;
	j->root_fd = -1;
	j->top_fd = -1;
	snprintf(j->devnode, sizeof(j->devnode), "%s", r->sys.devnode);
	j->dev_size = r->sys.size;
	snprintf(j->holders, sizeof(j->holders), "%s/class/block/%s/holders",
		 s->o.sysfs, r->pub.name);
	if (r->vol)
		scan_vol_job_init(r, j);
	scan_target(s, r->pub.name, j->target);
	j->no_mount = s->o.no_mount;
	j->set_ro = !s->o.keep_writable;
	j->mount_fn = s->o.mount_fn;
	j->mount_ctx = s->o.mount_ctx;
	j->filter_fn = s->o.filter_fn;
	j->filter_ctx = s->o.filter_ctx;
	snprintf(j->name, sizeof(j->name), "%s", r->pub.name);
	return j;
}

int scan_job_start(struct scan *s, struct scan_rec *r)
{
	pthread_attr_t attr;
	struct scan_job *j = job_new(s, r);
	pthread_t t;
	int rc;

	if (!j)
		return -ENOMEM;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SCAN_WORKER_STACK);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = -pthread_create(&t, &attr, job_main, j);
	pthread_attr_destroy(&attr);
	if (rc < 0) {
		pthread_mutex_destroy(&j->lock);
		free(j);
		return rc;
	}
	r->job = j;
	s->running++;
	return 0;
}
