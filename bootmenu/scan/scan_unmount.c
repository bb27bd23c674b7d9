/* scan_unmount.c - taking filesystems down: one device's when it changes
 * or goes, every one before kexec (scan_unmount_all). A test's mount_fn
 * mounted nothing, so nothing is unmounted for it.
 */
#include "scan/fs.h"
#include "scan/scan_int.h"

void scan_rec_drop_fs(struct scan *s, struct scan_rec *r, bool lazy)
{
	struct fs_root *fs = r->fs;
	char target[PATH_MAX];

	if (!fs)
		return;
	scan_target(s, r->pub.name, target);
	if (!s->o.mount_fn)
		mount_release(target, lazy);
	scan_vol_unmap(r); /* a volume's loop device: the mount is gone */
	r->fs = NULL;
	r->pub.fs = NULL;
	scan_ev_push(s, SCAN_EV_FS_REMOVED, fs, r->pub.name);
}

/* Stop the coordinator and wait for it; then this thread owns it all. */
static void stop_coordinator(struct scan *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->thread_up) {
		scan_efd_poke(s->wake_fd);
		pthread_join(s->thread, NULL);
		s->thread_up = false;
	}
}

/* Unmount every mounted record now (not lazily). Returns 0 or the first
 * -errno. */
static int release_all(struct scan *s)
{
	int rc = 0;

	for (struct scan_rec *r = s->recs; r; r = r->next) {
		char target[PATH_MAX];
		int e;

		if (!r->fs) {
			/* a PV's mapping (LVM on md), an unlocked LUKS
			 * volume's */
			scan_vol_close(r);
			continue;
		}
		scan_target(s, r->pub.name, target);
		e = s->o.mount_fn ? 0 : mount_release(target, false);
		if (e < 0 && !rc)
			rc = e;
		scan_vol_close(r);
		r->fs = NULL;
		r->pub.fs = NULL;
	}
	return rc;
}

int scan_unmount_all(struct scan *s)
{
	int rc;

	if (s->frozen)
		return 0;
	stop_coordinator(s);
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		if (r->job) {
			scan_job_abandon(s, r->job);
			scan_job_unref(r->job);
			r->job = NULL;
		}
	}
	for (struct scan_fsnode *n = s->all_fs; n; n = n->next)
		fs_root_close(&n->fs);
	rc = release_all(s);
	s->frozen = true;
	return rc;
}
