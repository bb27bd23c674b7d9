/* scan.c - the top of the scan_*.c files: starting and freeing a scan,
 * waiting for it to settle, and its views (roots, devices). The event
 * queue the caller reads is scan_event.c's. The threads and who owns
 * what: see scan_int.h.
 */
#include "scan/scan.h"
#include "scan/hotplug.h"
#include "scan/scan_int.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* --- start and end */

static int scan_start(struct scan *s)
{
	int rc;

	s->ev_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->ev_fd < 0 || s->wake_fd < 0)
		return -errno;
	s->nl_fd = -1;
	if (s->o.hotplug) {
		s->nl_fd = hotplug_open();
		if (s->nl_fd < 0)
			log_warn("scan: no uevents (%s): devices plugged in "
				 "later are not seen",
				 strerror(-s->nl_fd));
	}
	if (!s->o.no_mount && !s->o.mount_fn &&
	    (rc = mount_cleanup(s->o.mount_base)) > 0)
		log_info("scan: detached %d stale mounts under %s", rc,
			 s->o.mount_base);
	/* with a uevent stream, settling waits for it to be quiet a moment */
	s->last_activity_ms =
	    scan_now_ms() - (s->nl_fd >= 0 ? 0 : SCAN_QUIET_MS);
	s->started_ms = scan_now_ms();
	s->settle_deadline_ms = s->started_ms + (int64_t)(s->o.settle_s * 1000);
	rc = -pthread_create(&s->thread, NULL, scan_coord_main, s);
	s->thread_up = rc == 0;
	return rc;
}

/* @opts (or the defaults) into s->o, strings copied into the arena. */
static void scan_set_opts(struct scan *s, const struct scan_opts *opts)
{
	if (opts)
		s->o = *opts;
	s->o.sysfs = arena_strdup(&s->a, s->o.sysfs ? s->o.sysfs : "/sys");
	s->o.devdir = arena_strdup(&s->a, s->o.devdir ? s->o.devdir : "/dev");
	s->o.mount_base =
	    arena_strdup(&s->a, s->o.mount_base ? s->o.mount_base : MOUNT_BASE);
	if (s->o.settle_s <= 0)
		s->o.settle_s = SCAN_SETTLE_DEFAULT_S;
	if (s->o.timeout_s <= 0)
		s->o.timeout_s = SCAN_TIMEOUT_DEFAULT_S;
	if (!s->o.usb_port_fn)
		s->o.usb_port_fn = scan_usb_port_status;
}

struct scan *scan_new(const struct scan_opts *opts)
{
	struct scan *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	char path[PATH_MAX];
	int rc;

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	scan_set_opts(s, opts);
	s->evq_tail = &s->evq;
	s->inj_tail = &s->inj;
	s->ev_fd = s->wake_fd = s->nl_fd = -1;
	snprintf(path, sizeof(path), "%s/class/block", s->o.sysfs);
	rc = access(path, R_OK) < 0 ? -errno : scan_start(s);
	if (rc < 0) {
		scan_free(s);
		errno = -rc;
		return NULL;
	}
	return s;
}

static void fsnode_free(struct scan_fsnode *n)
{
	arena_free(&n->a);
	free(n);
}

void scan_free(struct scan *s)
{
	if (!s)
		return;
	if (s->ev_fd >= 0 && s->wake_fd >= 0)
		scan_unmount_all(s);
	scan_queues_free(s);
	while (s->all_fs) {
		struct scan_fsnode *n = s->all_fs;

		s->all_fs = n->next;
		fsnode_free(n);
	}
	free(s->strs);
	if (s->nl_fd >= 0)
		close(s->nl_fd);
	if (s->ev_fd >= 0)
		close(s->ev_fd);
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	scan_vol_free(s);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	arena_free(&s->a);
	free(s);
}

int scan_release(struct scan *s, const struct fs_root *fs)
{
	struct scan_fsnode **pp, *n = NULL;
	int rc = -ENOENT;

	pthread_mutex_lock(&s->lock);
	for (pp = &s->all_fs; *pp; pp = &(*pp)->next) {
		if (&(*pp)->fs != fs)
			continue;
		rc = (*pp)->taken ? 0 : -EBUSY;
		if (rc == 0) {
			n = *pp;
			*pp = n->next;
		}
		break;
	}
	pthread_mutex_unlock(&s->lock);
	if (n)
		fsnode_free(n);
	return rc;
}

/* --- waiting and views */

int scan_settle(struct scan *s, double seconds)
{
	int64_t end = scan_now_ms() + (int64_t)(seconds * 1000);
	bool quiet;

	pthread_mutex_lock(&s->lock);
	while (!s->quiet && !s->stop && scan_now_ms() < end) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 50 * 1000000L; /* re-check at least every 50 ms */
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	}
	quiet = s->quiet;
	pthread_mutex_unlock(&s->lock);
	return quiet ? 0 : -ETIMEDOUT;
}

int scan_all(struct scan *s, double settle_s)
{
	int rc = scan_settle(s, settle_s);

	if (rc < 0)
		log_warn("scan: devices still busy after %g s", settle_s);
	return (int)scan_roots(s, NULL, 0);
}

size_t scan_roots(struct scan *s, const struct fs_root **out, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&s->lock);
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		if (!r->fs || r->removed)
			continue;
		if (n < max)
			out[n] = r->fs;
		n++;
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct scan_dev *x = a, *y = b;

	return probe_dev_cmp(x->disk, x->partno, x->name, y->disk, y->partno,
			     y->name);
}

size_t scan_devices(struct scan *s, struct scan_dev *out, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&s->lock);
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		if (r->removed)
			continue;
		if (n < max)
			out[n] = r->pub;
		n++;
	}
	pthread_mutex_unlock(&s->lock);
	qsort(out, n < max ? n : max, sizeof(*out), cmp_dev);
	return n;
}

size_t scan_mem_bytes(struct scan *s)
{
	size_t n;

	pthread_mutex_lock(&s->lock);
	n = s->a.used + s->strs_cap * sizeof(*s->strs);
	for (const struct scan_fsnode *f = s->all_fs; f; f = f->next)
		n += sizeof(*f) + f->a.used;
	pthread_mutex_unlock(&s->lock);
	return n;
}
