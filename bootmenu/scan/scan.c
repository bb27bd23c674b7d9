/* scan.c - the scan: sysfs at start, uevents after, one worker per device.
 *
 * Threads: the caller's (scan_next & co.), the scan's coordinator, and a
 * detached worker per device being probed. The coordinator owns the
 * device records and the arena, under s->lock; a worker only touches its
 * own struct scan_job (malloc'd, two references) and, while the job is
 * not abandoned, the coordinator's wake-up eventfd. A job that outlives
 * its time limit is abandoned: its worker, when it ever returns, undoes
 * its own mount and frees the job, touching nothing else. Root fds are
 * closed only in the caller's thread (scan_next, scan_unmount_all), so a
 * parser never sees its fd vanish underneath it.
 */
#include "scan/scan.h"
#include "scan/fs.h"
#include "scan/hotplug.h"
#include "scan/mount.h"
#include "scan/probe.h"
#include "util/arena.h"
#include "util/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#define SCAN_WORKER_STACK (256 << 10)
#define SCAN_STUCK_RETRY_MS 1000 /* re-check a device whose worker hangs */
#define SCAN_POLL_MAX_MS 1000
/* A USB storage host waits before it reports its disks (usb-storage's
 * delay_use, 1 s by default, then the SCSI scan): a host that appeared
 * with no disk yet holds the settle this long (within the settle bound),
 * or until a disk under it arrives. */
#define SCAN_HOST_WAIT_MS 3000
#define SCAN_HOSTS_MAX 16

struct scan_job {
	atomic_int refs; /* the coordinator's and the worker's */
	pthread_mutex_t lock;
	bool abandoned, finished; /* under lock */
	struct scan *s;		  /* only while !abandoned */
	/* in */
	char devnode[PROBE_PATH_MAX];
	char target[PATH_MAX];
	bool no_mount, set_ro;
	int (*mount_fn)(void *, const char *, const char *, const char *);
	void *mount_ctx;
	const char *(*filter_fn)(void *, const char *, const char *,
				 const char *);
	void *filter_ctx;
	char name[PROBE_NAME_MAX];
	/* out */
	const char *hidden; /* filter_fn's reason: not mounted */
	struct probe_result res;
	int mount_rc;
	bool mounted;
	int root_fd;
	char detail[MOUNT_DETAIL_MAX];
	char sub[MOUNT_DETAIL_MAX];
};

struct scan_rec {
	struct scan_rec *next;
	struct scan_dev pub;
	struct probe_dev sys;
	struct fs_root *fs;   /* while mounted */
	struct scan_job *job; /* running, or abandoned and maybe running */
	int64_t deadline_ms;  /* of the running job */
	int64_t pending_ms;   /* a probe is due then; 0: none */
	bool removed;	      /* gone: hidden from the views */
};

struct scan_fsnode {
	struct scan_fsnode *next;
	struct fs_root *fs;
};

struct scan_evq {
	struct scan_evq *next;
	struct scan_event ev;
	struct fs_root *fs;
};

struct scan_host {
	char devpath[UEVENT_FIELD_MAX]; /* "/devices/.../1-1:1.0/host6" */
	int64_t since_ms;
};

struct scan_msg {
	struct scan_msg *next;
	size_t len;
	char buf[];
};

struct scan {
	struct scan_opts o;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* s->quiet became true */
	struct arena a;
	struct scan_rec *recs;
	struct scan_fsnode
	    *all_fs; /* every fs_root made, to close at the end */
	struct scan_evq *evq, **evq_tail;
	struct scan_msg *inj, **inj_tail;
	int ev_fd, wake_fd, nl_fd;
	pthread_t thread;
	bool thread_up, stop, frozen;
	int running; /* jobs not finished nor abandoned */
	int64_t last_activity_ms, settle_deadline_ms;
	bool quiet, settled_sent;
	struct scan_host hosts[SCAN_HOSTS_MAX]; /* USB hosts with no disk yet */
	size_t n_hosts;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void efd_poke(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		log_debug("scan: eventfd write: %s", strerror(errno));
}

static void efd_drain(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		log_debug("scan: eventfd read: %s", strerror(errno));
}

const char *scan_state_name(enum scan_state st)
{
	static const char *const names[] = {
	    [SCAN_DEV_PROBING] = "probing",   [SCAN_DEV_MOUNTED] = "mounted",
	    [SCAN_DEV_SKIPPED] = "skipped",   [SCAN_DEV_FAILED] = "failed",
	    [SCAN_DEV_TIMEOUT] = "timed out",
	};

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st]
							       : "?";
}

/* --- events (under s->lock) */

static void ev_push(struct scan *s, enum scan_event_type type,
		    struct fs_root *fs, const char *name)
{
	struct scan_evq *q = calloc(1, sizeof(*q));

	if (!q) {
		log_err("scan: out of memory for an event");
		return;
	}
	q->ev.type = type;
	q->ev.fs = fs;
	q->ev.name = name;
	q->fs = fs;
	if (!s->evq)
		efd_poke(s->ev_fd);
	*s->evq_tail = q;
	s->evq_tail = &q->next;
}

int scan_fd(const struct scan *s)
{
	return s->ev_fd;
}

int scan_next(struct scan *s, struct scan_event *ev)
{
	struct scan_evq *q;

	pthread_mutex_lock(&s->lock);
	q = s->evq;
	if (q) {
		s->evq = q->next;
		if (!s->evq) {
			s->evq_tail = &s->evq;
			efd_drain(s->ev_fd);
		}
		*ev = q->ev;
		/* the caller's thread: the only one that closes root fds */
		if (q->ev.type == SCAN_EV_FS_REMOVED && q->fs->root_fd >= 0)
			fs_root_close(q->fs);
	}
	pthread_mutex_unlock(&s->lock);
	free(q);
	return q != NULL;
}

/* --- jobs: what runs in a worker */

static bool job_finished(struct scan_job *j)
{
	bool done;

	pthread_mutex_lock(&j->lock);
	done = j->finished;
	pthread_mutex_unlock(&j->lock);
	return done;
}

static void job_unref(struct scan_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) != 1)
		return;
	pthread_mutex_destroy(&j->lock);
	free(j);
}

static void job_mount(struct scan_job *j)
{
	const char *type = j->res.type;
	int mnt;

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
	mnt = open(j->target, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mnt < 0) {
		j->mount_rc = -errno;
		snprintf(j->detail, sizeof(j->detail), "open mount: %s",
			 strerror(errno));
		return;
	}
	mount_pick_root(mnt, type, j->sub);
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

/* What an abandoned worker leaves behind when it finally returns. */
static void job_undo(struct scan_job *j)
{
	if (j->root_fd >= 0)
		close(j->root_fd);
	if (j->mounted && !j->mount_fn)
		mount_release(j->target, true);
	log_info("scan: %s answered after it was given up", j->devnode);
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

	probe_path(j->devnode, 0, 0, &j->res);
	job_filter(j);
	if (!j->res.skip && !j->hidden && !j->no_mount)
		job_mount(j);
	pthread_mutex_lock(&j->lock);
	j->finished = true;
	undo = j->abandoned;
	if (!undo)
		efd_poke(j->s->wake_fd);
	pthread_mutex_unlock(&j->lock);
	if (undo)
		job_undo(j);
	job_unref(j);
	return NULL;
}

/* Give up on @j: from now on its worker touches nothing of the scan. */
static void job_abandon(struct scan *s, struct scan_job *j)
{
	bool was_running;

	pthread_mutex_lock(&j->lock);
	was_running = !j->finished && !j->abandoned;
	j->abandoned = true;
	if (j->finished && j->root_fd >= 0) { /* done but not reaped */
		close(j->root_fd);
		if (j->mounted && !j->mount_fn)
			mount_release(j->target, true);
		j->root_fd = -1;
	}
	pthread_mutex_unlock(&j->lock);
	if (was_running)
		s->running--;
}

static int job_start(struct scan *s, struct scan_rec *r)
{
	pthread_attr_t attr;
	struct scan_job *j = calloc(1, sizeof(*j));
	pthread_t t;
	int rc;

	if (!j)
		return -ENOMEM;
	atomic_init(&j->refs, 2);
	pthread_mutex_init(&j->lock, NULL);
	j->s = s;
	j->root_fd = -1;
	snprintf(j->devnode, sizeof(j->devnode), "%s", r->sys.devnode);
	snprintf(j->target, sizeof(j->target), "%s/%s", s->o.mount_base,
		 r->sys.name);
	j->no_mount = s->o.no_mount;
	j->set_ro = !s->o.keep_writable;
	j->mount_fn = s->o.mount_fn;
	j->mount_ctx = s->o.mount_ctx;
	j->filter_fn = s->o.filter_fn;
	j->filter_ctx = s->o.filter_ctx;
	snprintf(j->name, sizeof(j->name), "%s", r->sys.name);
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

/* --- device records (under s->lock) */

static struct scan_rec *rec_find(struct scan *s, const char *name)
{
	for (struct scan_rec *r = s->recs; r; r = r->next)
		if (!strcmp(r->pub.name, name))
			return r;
	return NULL;
}

static struct scan_rec *rec_get(struct scan *s, const char *name)
{
	struct scan_rec *r = rec_find(s, name), **tail;

	if (r)
		return r;
	r = arena_alloc(&s->a, sizeof(*r));
	r->pub.name = arena_strdup(&s->a, name);
	r->pub.disk = r->pub.name;
	r->pub.devnode = r->pub.fstype = r->pub.uuid = r->pub.label = "";
	r->pub.partuuid = r->pub.partlabel = r->pub.pttype = "";
	r->removed = true; /* until something schedules it */
	for (tail = &s->recs; *tail; tail = &(*tail)->next)
		;
	*tail = r;
	return r;
}

static void rec_set_state(struct scan *s, struct scan_rec *r,
			  enum scan_state st, const char *reason)
{
	r->pub.state = st;
	r->pub.reason = reason ? arena_strdup(&s->a, reason) : NULL;
	ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
}

/* Unmount @r's filesystem and tell the caller; lazily when it vanished. */
static void rec_drop_fs(struct scan *s, struct scan_rec *r, bool lazy)
{
	struct fs_root *fs = r->fs;
	char target[PATH_MAX];

	if (!fs)
		return;
	snprintf(target, sizeof(target), "%s/%s", s->o.mount_base, r->pub.name);
	if (!s->o.mount_fn)
		mount_release(target, lazy);
	r->fs = NULL;
	r->pub.fs = NULL;
	ev_push(s, SCAN_EV_FS_REMOVED, fs, r->pub.name);
}

static void rec_remove(struct scan *s, struct scan_rec *r)
{
	if (r->removed)
		return;
	r->pending_ms = 0;
	if (r->job && !r->job->abandoned)
		job_abandon(s, r->job);
	rec_drop_fs(s, r, true);
	r->removed = true;
	log_info("scan: %s removed", r->pub.name);
	ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
}

static void rec_schedule(struct scan_rec *r, int64_t when)
{
	r->pending_ms = when;
	r->removed = false;
	r->pub.state = SCAN_DEV_PROBING;
	r->pub.reason = NULL;
}

/* --- results of a finished job */

static const char *dup0(struct scan *s, const char *v)
{
	return arena_strdup(&s->a, v ? v : "");
}

static void rec_take_probe(struct scan *s, struct scan_rec *r,
			   const struct probe_result *p)
{
	r->pub.fstype = dup0(s, p->type);
	r->pub.uuid = dup0(s, p->uuid);
	r->pub.label = dup0(s, p->label);
	r->pub.partuuid = dup0(s, p->partuuid);
	r->pub.partlabel = dup0(s, p->partlabel);
	r->pub.pttype = dup0(s, p->part_scheme[0] ? p->part_scheme : p->pttype);
	if (p->partno > 0)
		r->pub.partno = p->partno;
	r->pub.esp = p->esp;
	r->pub.xbootldr = p->xbootldr;
}

static struct fs_root *rec_make_fs(struct scan *s, struct scan_rec *r,
				   struct scan_job *j)
{
	struct fs_root *fs = arena_alloc(&s->a, sizeof(*fs));
	struct scan_fsnode *n = arena_alloc(&s->a, sizeof(*n));
	const struct scan_dev *d = &r->pub;

	fs->root_fd = j->root_fd;
	j->root_fd = -1;
	fs->name = d->name;
	fs->device = d->devnode;
	fs->fstype = d->fstype;
	fs->uuid = *d->uuid ? d->uuid : NULL;
	fs->label = *d->label ? d->label : NULL;
	fs->partuuid = *d->partuuid ? d->partuuid : NULL;
	fs->partlabel = *d->partlabel ? d->partlabel : NULL;
	fs->mountpoint = j->sub[0]
			     ? arena_printf(&s->a, "%s/%s", j->target, j->sub)
			     : arena_strdup(&s->a, j->target);
	fs->casefold = !strcmp(d->fstype, "vfat");
	fs->esp = d->esp;
	fs->xbootldr = d->xbootldr;
	fs->priv = r;
	n->fs = fs;
	n->next = s->all_fs;
	s->all_fs = n;
	return fs;
}

static void rec_reap(struct scan *s, struct scan_rec *r)
{
	struct scan_job *j = r->job;
	const struct probe_result *p = &j->res;
	char why[PROBE_DETAIL_MAX + MOUNT_DETAIL_MAX + 64];

	s->running--;
	r->job = NULL;
	rec_take_probe(s, r, p);
	snprintf(why, sizeof(why), "%s%s%s", p->skip ? p->skip : j->detail,
		 p->skip && p->detail[0] ? ": " : "", p->skip ? p->detail : "");
	if (p->skip) {
		rec_set_state(
		    s, r, p->rc < 0 ? SCAN_DEV_FAILED : SCAN_DEV_SKIPPED, why);
	} else if (j->hidden) {
		rec_set_state(s, r, SCAN_DEV_SKIPPED, j->hidden);
	} else if (s->o.no_mount) {
		rec_set_state(s, r, SCAN_DEV_SKIPPED,
			      "not mounted (probe only)");
	} else if (j->mount_rc < 0) {
		if (j->root_fd >= 0)
			close(j->root_fd);
		j->root_fd = -1;
		if (j->mounted && !j->mount_fn)
			mount_release(j->target, true);
		rec_set_state(s, r,
			      j->mount_rc == -EPROTONOSUPPORT ? SCAN_DEV_SKIPPED
							      : SCAN_DEV_FAILED,
			      why);
	} else {
		r->fs = rec_make_fs(s, r, j);
		r->pub.fs = r->fs;
		log_info("scan: %s: %s at %s", r->pub.name, r->pub.fstype,
			 r->fs->mountpoint);
		ev_push(s, SCAN_EV_FS_ADDED, r->fs, r->pub.name);
		rec_set_state(s, r, SCAN_DEV_MOUNTED, j->detail);
	}
	if (r->pub.state != SCAN_DEV_MOUNTED)
		log_info("scan: %s: %s: %s", r->pub.name,
			 scan_state_name(r->pub.state),
			 r->pub.reason ? r->pub.reason : "");
	job_unref(j);
}

/* --- the coordinator's steps (under s->lock) */

static void rec_take_sys(struct scan *s, struct scan_rec *r)
{
	r->pub.disk = arena_strdup(&s->a, r->sys.disk);
	r->pub.devnode = arena_strdup(&s->a, r->sys.devnode);
	r->pub.partno = r->sys.partno;
	r->pub.size = r->sys.size;
	r->pub.removable = r->sys.removable;
}

/* Start @r's probe now. False when it must wait (its old worker hangs). */
static bool rec_start(struct scan *s, struct scan_rec *r, int64_t now)
{
	unsigned flags = s->o.loop ? PROBE_SYSFS_LOOP : 0;
	const char *hidden;
	int rc;

	if (r->job) {
		if (!job_finished(r->job))
			return false;
		job_unref(r->job); /* an abandoned worker came back */
		r->job = NULL;
	}
	r->pending_ms = 0;
	rec_drop_fs(s, r, false); /* a change: probe again from scratch */
	rc = probe_sysfs_dev(s->o.sysfs, s->o.devdir, r->pub.name, flags,
			     &r->sys);
	if (rc < 0) {
		r->removed = true;
		ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
		return true;
	}
	rec_take_sys(s, r);
	if (r->sys.skip) {
		rec_set_state(s, r, SCAN_DEV_SKIPPED, r->sys.skip);
		return true;
	}
	if (r->sys.partno > 0 && r->sys.start == 0) {
		rec_set_state(s, r, SCAN_DEV_SKIPPED, probe_skip_overlap);
		return true;
	}
	hidden = s->o.filter_fn
		     ? s->o.filter_fn(s->o.filter_ctx, r->pub.name, NULL, NULL)
		     : NULL;
	if (hidden) { /* by name: not even probed */
		rec_set_state(s, r, SCAN_DEV_SKIPPED, hidden);
		return true;
	}
	rc = job_start(s, r);
	if (rc < 0) {
		rec_set_state(s, r, SCAN_DEV_FAILED, strerror(-rc));
		return true;
	}
	r->deadline_ms = now + (int64_t)(s->o.timeout_s * 1000);
	rec_set_state(s, r, SCAN_DEV_PROBING, NULL);
	return true;
}

static void step_jobs(struct scan *s, int64_t now)
{
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		struct scan_job *j = r->job;

		if (j && !j->abandoned) {
			if (job_finished(j)) {
				rec_reap(s, r);
			} else if (now >= r->deadline_ms) {
				char why[64];

				job_abandon(s, j);
				snprintf(why, sizeof(why),
					 "no answer within %g s",
					 s->o.timeout_s);
				log_warn("scan: %s: %s", r->pub.name, why);
				rec_set_state(s, r, SCAN_DEV_TIMEOUT, why);
			}
		}
		if (r->pending_ms && r->pending_ms <= now &&
		    s->running < SCAN_WORKERS_MAX && !rec_start(s, r, now))
			r->pending_ms = now + SCAN_STUCK_RETRY_MS;
	}
}

/* Look at sysfs again: at start, and when the uevent socket overflowed. */
static void step_resync(struct scan *s, int64_t now)
{
	unsigned flags = s->o.loop ? PROBE_SYSFS_LOOP : 0;
	struct probe_dev *devs;
	size_t n;
	int rc = probe_sysfs_list(s->o.sysfs, s->o.devdir, flags, &devs, &n);

	if (rc < 0) {
		log_err("scan: %s/class/block: %s", s->o.sysfs, strerror(-rc));
		return;
	}
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		bool present = false;

		for (size_t i = 0; i < n && !present; i++)
			present = !strcmp(devs[i].name, r->pub.name);
		if (!present)
			rec_remove(s, r);
	}
	for (size_t i = 0; i < n; i++) {
		struct scan_rec *r = rec_get(s, devs[i].name);

		if (r->removed && !r->pending_ms)
			rec_schedule(r, now);
	}
	free(devs);
}

/* --- USB storage hosts that have not reported their disks yet */

static void host_expect(struct scan *s, const char *devpath, int64_t now)
{
	for (size_t i = 0; i < s->n_hosts; i++)
		if (!strcmp(s->hosts[i].devpath, devpath))
			return;
	if (s->n_hosts == SCAN_HOSTS_MAX)
		return;
	snprintf(s->hosts[s->n_hosts].devpath, sizeof(s->hosts[0].devpath),
		 "%s", devpath);
	s->hosts[s->n_hosts++].since_ms = now;
	log_debug("scan: %s: waiting for its disks", devpath);
}

/* Forget the hosts that @devpath is (removed) or is under (their disk). */
static void host_forget(struct scan *s, const char *devpath)
{
	for (size_t i = 0; i < s->n_hosts;) {
		size_t n = strlen(s->hosts[i].devpath);

		if (!strncmp(devpath, s->hosts[i].devpath, n) &&
		    (devpath[n] == '/' || !devpath[n]))
			s->hosts[i] = s->hosts[--s->n_hosts];
		else
			i++;
	}
}

/* True while a host may still report a disk; drops those that waited. */
static bool hosts_waiting(struct scan *s, int64_t now)
{
	for (size_t i = 0; i < s->n_hosts;) {
		if (now - s->hosts[i].since_ms < SCAN_HOST_WAIT_MS) {
			i++;
			continue;
		}
		log_info("scan: %s: no disk within %d ms", s->hosts[i].devpath,
			 SCAN_HOST_WAIT_MS);
		s->hosts[i] = s->hosts[--s->n_hosts];
	}
	return s->n_hosts > 0;
}

static bool has_target(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = !strncmp(de->d_name, "target", 6);
	closedir(d);
	return found;
}

/* At start: USB hosts already there whose disks are not (yet). */
static void hosts_from_sysfs(struct scan *s, int64_t now)
{
	char path[PATH_MAX], dir[PATH_MAX], base[PATH_MAX];
	struct dirent *de;
	size_t n;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class/scsi_host", s->o.sysfs);
	if (!realpath(s->o.sysfs, base) || !(d = opendir(path)))
		return;
	n = strlen(base);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/class/scsi_host/%s/device",
			 s->o.sysfs, de->d_name);
		if (realpath(path, dir) && !strncmp(dir, base, n) &&
		    strstr(dir + n, "/usb") && !has_target(dir))
			host_expect(s, dir + n, now);
	}
	closedir(d);
}

/* A USB storage host came or went: its disks follow a second later. */
static bool on_host_uevent(struct scan *s, const struct uevent *ev, int64_t now)
{
	if (!strcmp(ev->subsystem, "usb"))
		s->last_activity_ms = now;
	if (strcmp(ev->subsystem, "scsi") || strcmp(ev->devtype, "scsi_host") ||
	    !strstr(ev->devpath, "/usb"))
		return false;
	s->last_activity_ms = now;
	if (ev->action == UEVENT_ADD)
		host_expect(s, ev->devpath, now);
	else if (ev->action == UEVENT_REMOVE)
		host_forget(s, ev->devpath);
	return true;
}

static void on_uevent(struct scan *s, const struct uevent *ev, int64_t now)
{
	const char *name = ev->devname;
	struct scan_rec *r;

	if (on_host_uevent(s, ev, now))
		return;
	if (!uevent_is_block(ev) || strchr(name, '/') ||
	    strlen(name) >= PROBE_NAME_MAX)
		return;
	s->last_activity_ms = now;
	if (ev->action == UEVENT_ADD || ev->action == UEVENT_CHANGE)
		host_forget(s, ev->devpath);
	r = rec_find(s, name);
	log_debug("scan: uevent %s %s", ev->action_name, name);
	switch (ev->action) {
	case UEVENT_ADD:
		/* one we already follow (listed at start as it appeared): a
		 * duplicate */
		if (!r || r->removed)
			rec_schedule(rec_get(s, name), now + SCAN_COALESCE_MS);
		break;
	case UEVENT_CHANGE:
		/* a mounted device changes only by new media; the rest is noise
		 */
		if (r && !r->removed && r->fs && !ev->media_change)
			break;
		rec_schedule(rec_get(s, name), now + SCAN_COALESCE_MS);
		break;
	case UEVENT_REMOVE:
		if (r)
			rec_remove(s, r);
		break;
	default:
		break;
	}
}

static void step_inputs(struct scan *s, int64_t now)
{
	struct uevent ev;
	int rc;

	efd_drain(s->wake_fd);
	while (s->inj) {
		struct scan_msg *m = s->inj;

		s->inj = m->next;
		if (uevent_parse(m->buf, m->len, &ev) == 0)
			on_uevent(s, &ev, now);
		free(m);
	}
	s->inj_tail = &s->inj;
	while (s->nl_fd >= 0 && (rc = hotplug_recv(s->nl_fd, &ev)) != 0) {
		if (rc == -ENOBUFS) {
			log_warn(
			    "scan: uevents were lost; looking at sysfs again");
			step_resync(s, now);
		} else if (rc < 0) {
			log_warn("scan: uevent socket: %s", strerror(-rc));
			break;
		} else {
			on_uevent(s, &ev, now);
		}
	}
}

static bool scan_busy(const struct scan *s)
{
	for (const struct scan_rec *r = s->recs; r; r = r->next)
		if (r->pending_ms || (r->job && !r->job->abandoned))
			return true;
	return false;
}

/* A uevent the coordinator has not read yet (it came after step_inputs). */
static bool uevent_pending(const struct scan *s)
{
	struct pollfd p = {.fd = s->nl_fd, .events = POLLIN};

	return s->nl_fd >= 0 && poll(&p, 1, 0) > 0;
}

/* Settled: nothing queued or probing, no USB host about to report its
 * disks, and no uevent for a moment. */
static void step_settle(struct scan *s, int64_t now)
{
	bool quiet = !scan_busy(s) && !hosts_waiting(s, now) &&
		     now - s->last_activity_ms >= SCAN_QUIET_MS &&
		     !uevent_pending(s);

	if (quiet && !s->quiet)
		pthread_cond_broadcast(&s->cond);
	s->quiet = quiet;
	if (!s->settled_sent && (quiet || now >= s->settle_deadline_ms)) {
		s->settled_sent = true;
		log_info("scan: settled%s", quiet ? "" : " (bound reached)");
		ev_push(s, SCAN_EV_SETTLED, NULL, NULL);
	}
}

static int step_timeout(const struct scan *s, int64_t now)
{
	int64_t next = now + SCAN_POLL_MAX_MS;

	for (const struct scan_rec *r = s->recs; r; r = r->next) {
		if (r->pending_ms && r->pending_ms < next)
			next = r->pending_ms;
		if (r->job && !r->job->abandoned && r->deadline_ms < next)
			next = r->deadline_ms;
	}
	if (!s->quiet && s->last_activity_ms + SCAN_QUIET_MS < next)
		next = s->last_activity_ms + SCAN_QUIET_MS;
	for (size_t i = 0; i < s->n_hosts; i++)
		if (s->hosts[i].since_ms + SCAN_HOST_WAIT_MS < next)
			next = s->hosts[i].since_ms + SCAN_HOST_WAIT_MS;
	if (!s->settled_sent && s->settle_deadline_ms < next)
		next = s->settle_deadline_ms;
	return next <= now ? 0 : (int)(next - now);
}

static void *scan_thread(void *arg)
{
	struct scan *s = arg;

	pthread_mutex_lock(&s->lock);
	hosts_from_sysfs(s, now_ms());
	step_resync(s, now_ms());
	while (!s->stop) {
		struct pollfd p[2] = {
		    {.fd = s->wake_fd, .events = POLLIN},
		    {.fd = s->nl_fd, .events = POLLIN},
		};
		int64_t now = now_ms();
		int ms;

		step_inputs(s, now);
		step_jobs(s, now);
		step_settle(s, now);
		ms = step_timeout(s, now);
		pthread_mutex_unlock(&s->lock);
		poll(p, s->nl_fd >= 0 ? 2 : 1, ms);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* --- the public side */

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
	s->last_activity_ms = now_ms() - (s->nl_fd >= 0 ? 0 : SCAN_QUIET_MS);
	s->settle_deadline_ms = now_ms() + (int64_t)(s->o.settle_s * 1000);
	rc = -pthread_create(&s->thread, NULL, scan_thread, s);
	s->thread_up = rc == 0;
	return rc;
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

int scan_settle(struct scan *s, double seconds)
{
	int64_t end = now_ms() + (int64_t)(seconds * 1000);
	bool quiet;

	pthread_mutex_lock(&s->lock);
	while (!s->quiet && !s->stop && now_ms() < end) {
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

int scan_all(struct scan *s, double settle_s)
{
	int rc = scan_settle(s, settle_s);

	if (rc < 0)
		log_warn("scan: devices still busy after %g s", settle_s);
	return (int)scan_roots(s, NULL, 0);
}

static int cmp_dev(const void *a, const void *b)
{
	const struct scan_dev *x = a, *y = b;
	int c = strcmp(x->disk, y->disk);

	if (c)
		return c;
	if (x->partno != y->partno)
		return x->partno < y->partno ? -1 : 1;
	return strcmp(x->name, y->name);
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

size_t scan_hosts_waiting(struct scan *s)
{
	int64_t now = now_ms();
	size_t n = 0;

	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->n_hosts; i++)
		n += now - s->hosts[i].since_ms < SCAN_HOST_WAIT_MS;
	pthread_mutex_unlock(&s->lock);
	return n;
}

int scan_inject_uevent(struct scan *s, const void *msg, size_t len)
{
	struct scan_msg *m;

	if (len > UEVENT_MSG_MAX)
		return -EMSGSIZE;
	m = malloc(sizeof(*m) + len);
	if (!m)
		return -ENOMEM;
	m->next = NULL;
	m->len = len;
	memcpy(m->buf, msg, len);
	pthread_mutex_lock(&s->lock);
	*s->inj_tail = m;
	s->inj_tail = &m->next;
	s->quiet = false; /* until the coordinator has seen it */
	efd_poke(s->wake_fd);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int scan_unmount_all(struct scan *s)
{
	int rc = 0;

	if (s->frozen)
		return 0;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->thread_up) {
		efd_poke(s->wake_fd);
		pthread_join(s->thread, NULL);
		s->thread_up = false;
	}
	/* the coordinator is gone: this thread owns everything now */
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		if (r->job) {
			job_abandon(s, r->job);
			job_unref(r->job);
			r->job = NULL;
		}
	}
	for (struct scan_fsnode *n = s->all_fs; n; n = n->next)
		fs_root_close(n->fs);
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		char target[PATH_MAX];
		int e;

		if (!r->fs)
			continue;
		snprintf(target, sizeof(target), "%s/%s", s->o.mount_base,
			 r->pub.name);
		e = s->o.mount_fn ? 0 : mount_release(target, false);
		if (e < 0 && !rc)
			rc = e;
		r->fs = NULL;
		r->pub.fs = NULL;
	}
	s->frozen = true;
	return rc;
}

void scan_free(struct scan *s)
{
	if (!s)
		return;
	if (s->ev_fd >= 0 && s->wake_fd >= 0)
		scan_unmount_all(s);
	while (s->evq) {
		struct scan_evq *q = s->evq;

		s->evq = q->next;
		free(q);
	}
	while (s->inj) {
		struct scan_msg *m = s->inj;

		s->inj = m->next;
		free(m);
	}
	if (s->nl_fd >= 0)
		close(s->nl_fd);
	if (s->ev_fd >= 0)
		close(s->ev_fd);
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	arena_free(&s->a);
	free(s);
}
