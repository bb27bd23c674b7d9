/* scan_coord.c - the coordinator thread: sysfs at start, uevents after;
 * starts a job per device (at most SCAN_WORKERS_MAX at once), reaps or
 * gives up on them, and says when the scan has settled. Runs under
 * s->lock except while it waits in poll().
 */
#include "scan/hotplug.h"
#include "scan/scan_int.h"
#include "util/log.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_STUCK_RETRY_MS 1000 /* re-check a device whose worker hangs */
#define SCAN_POLL_MAX_MS 1000

/* Give up on @r's job: it did not answer by its deadline. */
static void job_timed_out(struct scan *s, struct scan_rec *r)
{
	char why[64];

	scan_job_abandon(s, r->job);
	snprintf(why, sizeof(why), "no answer within %g s", s->o.timeout_s);
	log_warn("scan: %s: %s", r->pub.name, why);
	scan_rec_set_state(s, r, SCAN_DEV_TIMEOUT, why);
}

static void step_jobs(struct scan *s, int64_t now)
{
	for (struct scan_rec *r = s->recs; r; r = r->next) {
		struct scan_job *j = r->job;

		if (j && !j->abandoned) {
			if (scan_job_finished(j))
				scan_rec_reap(s, r);
			else if (now >= r->deadline_ms)
				job_timed_out(s, r);
		}
		if (r->pending_ms && r->pending_ms <= now &&
		    s->running < SCAN_WORKERS_MAX && !scan_rec_start(s, r, now))
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
		bool present = r->vol != NULL; /* volumes go with members */

		for (size_t i = 0; i < n && !present; i++)
			present = !strcmp(devs[i].name, r->pub.name);
		if (!present)
			scan_rec_remove(s, r);
	}
	for (size_t i = 0; i < n; i++) {
		struct scan_rec *r = scan_rec_get(s, devs[i].name);

		if (r->removed && !r->pending_ms)
			scan_rec_schedule(r, now);
	}
	free(devs);
}

static void on_uevent(struct scan *s, const struct uevent *ev, int64_t now)
{
	const char *name = ev->devname;
	struct scan_rec *r;

	if (scan_on_host_uevent(s, ev, now))
		return;
	if (!uevent_is_block(ev) || strchr(name, '/') ||
	    strlen(name) >= PROBE_NAME_MAX)
		return;
	s->last_activity_ms = now;
	if (ev->action == UEVENT_ADD || ev->action == UEVENT_CHANGE)
		scan_host_forget(s, ev->devpath);
	r = scan_rec_find(s, name);
	log_debug("scan: uevent %s %s", ev->action_name, name);
	switch (ev->action) {
	case UEVENT_ADD:
		/* one we already follow (listed at start as it appeared): a
		 * duplicate */
		if (!r || r->removed)
			scan_rec_schedule(scan_rec_get(s, name),
					  now + SCAN_COALESCE_MS);
		break;
	case UEVENT_CHANGE:
		/* a mounted device changes only by new media; the rest is noise
		 */
		if (r && !r->removed && r->fs && !ev->media_change)
			break;
		scan_rec_schedule(scan_rec_get(s, name),
				  now + SCAN_COALESCE_MS);
		break;
	case UEVENT_REMOVE:
		if (r)
			scan_rec_remove(s, r);
		break;
	default:
		break;
	}
}

static void step_inputs(struct scan *s, int64_t now)
{
	struct uevent ev;
	int rc;

	scan_efd_drain(s->wake_fd);
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

/* Quiet: nothing queued or probing, no USB host about to report its
 * disks, no uevent waiting. The first settle then needs nothing owed
 * (scan_owed.c) for a short gap: what was owed and came is followed by
 * its uevent, or by what it owes in turn; later ones, no uevent for a
 * moment. */
static bool step_quiet(struct scan *s, int64_t now)
{
	int64_t gap = s->settled_sent ? SCAN_QUIET_MS : SCAN_KNOWN_GAP_MS;
	bool owed;

	if (scan_busy(s) || scan_hosts_pending(s, now) ||
	    now - s->last_activity_ms < gap || uevent_pending(s))
		return false;
	if (s->settled_sent || s->nl_fd < 0)
		return true;
	owed = scan_owed(s, now);
	if (!owed && !s->was_owed)
		return true;
	s->was_owed = owed;
	s->last_activity_ms = now; /* asked again after the gap */
	return false;
}

/* Settled: quiet, or the settle bound reached. */
static void step_settle(struct scan *s, int64_t now)
{
	bool quiet = step_quiet(s, now);

	/* the members that came have come: incomplete volumes now */
	if ((quiet || now >= s->settle_deadline_ms) && !s->vol_settled) {
		s->vol_settled = true;
		if (scan_rec_vol_update(s, now) > 0)
			quiet = false;
	}
	if (quiet && !s->quiet)
		pthread_cond_broadcast(&s->cond);
	s->quiet = quiet;
	if (!s->settled_sent && (quiet || now >= s->settle_deadline_ms)) {
		s->settled_sent = true;
		log_info("scan: settled%s", quiet ? "" : " (bound reached)");
		scan_ev_push(s, SCAN_EV_SETTLED, NULL, NULL);
	}
}

/* Milliseconds until the next deadline of any kind. */
static int step_timeout(const struct scan *s, int64_t now)
{
	int64_t next = now + SCAN_POLL_MAX_MS;
	int64_t gap = s->settled_sent ? SCAN_QUIET_MS : SCAN_KNOWN_GAP_MS;

	for (const struct scan_rec *r = s->recs; r; r = r->next) {
		if (r->pending_ms && r->pending_ms < next)
			next = r->pending_ms;
		if (r->job && !r->job->abandoned && r->deadline_ms < next)
			next = r->deadline_ms;
	}
	if (!s->quiet && s->last_activity_ms + gap > now &&
	    s->last_activity_ms + gap < next)
		next = s->last_activity_ms + gap;
	for (size_t i = 0; i < s->n_hosts; i++)
		if (s->hosts[i].since_ms + SCAN_HOST_WAIT_MS < next)
			next = s->hosts[i].since_ms + SCAN_HOST_WAIT_MS;
	if (!s->settled_sent && s->settle_deadline_ms < next)
		next = s->settle_deadline_ms;
	return next <= now ? 0 : (int)(next - now);
}

void *scan_coord_main(void *arg)
{
	struct scan *s = arg;

	pthread_mutex_lock(&s->lock);
	scan_hosts_from_sysfs(s, scan_now_ms());
	step_resync(s, scan_now_ms());
	while (!s->stop) {
		struct pollfd p[2] = {
		    {.fd = s->wake_fd, .events = POLLIN},
		    {.fd = s->nl_fd, .events = POLLIN},
		};
		int64_t now = scan_now_ms();
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
