/* scan_event.c - the bottom of the scan room: its clock, its eventfds,
 * the names of the device states, the records' strings, and the two
 * queues between the caller and the coordinator (the events the caller
 * takes with scan_next(), the uevents it hands in with
 * scan_inject_uevent()). Calls no other scan_* file. The threads and who
 * owns what: see scan_int.h.
 */
#include "scan/fs.h"
#include "scan/scan_int.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int64_t scan_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void scan_efd_poke(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		log_debug("scan: eventfd write: %s", strerror(errno));
}

void scan_efd_drain(int fd)
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
	    [SCAN_DEV_TIMEOUT] = "timed out", [SCAN_DEV_LOCKED] = "locked",
	};

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st]
							       : "?";
}

/* --- strings */

/* FNV-1a */
static size_t str_hash(const char *v)
{
	uint32_t h = 2166136261u;

	for (; *v; v++)
		h = (h ^ (unsigned char)*v) * 16777619u;
	return h;
}

/* Where @v is in the table t[0..cap), or the empty slot it would take. */
static size_t str_slot(const char *const *t, size_t cap, const char *v)
{
	size_t i = str_hash(v) & (cap - 1);

	while (t[i] && strcmp(t[i], v))
		i = (i + 1) & (cap - 1);
	return i;
}

void *scan_calloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p) { /* as arena.h: a boot menu without memory cannot go on */
		fputs("bootmenu: out of memory\n", stderr);
		abort();
	}
	return p;
}

static void strs_grow(struct scan *s)
{
	size_t cap = s->strs_cap ? s->strs_cap * 2 : 64;
	const char **t = scan_calloc(cap * sizeof(*t));

	for (size_t i = 0; i < s->strs_cap; i++)
		if (s->strs[i])
			t[str_slot(t, cap, s->strs[i])] = s->strs[i];
	free(s->strs);
	s->strs = t;
	s->strs_cap = cap;
}

const char *scan_str(struct scan *s, const char *v)
{
	size_t i;

	if (!v)
		return NULL;
	/* at most three quarters full, so a probe ends at an empty slot */
	if ((s->n_strs + 1) * 4 > s->strs_cap * 3)
		strs_grow(s);
	i = str_slot(s->strs, s->strs_cap, v);
	if (!s->strs[i]) {
		s->strs[i] = arena_strdup(&s->a, v);
		s->n_strs++;
	}
	return s->strs[i];
}

/* --- events */

void scan_ev_push(struct scan *s, enum scan_event_type type, struct fs_root *fs,
		  const char *name)
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
		scan_efd_poke(s->ev_fd);
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
			scan_efd_drain(s->ev_fd);
		}
		*ev = q->ev;
		/* the caller's thread: the only one that closes root fds;
		 * the caller may hand the fs_root back from now on */
		if (q->ev.type == SCAN_EV_FS_REMOVED) {
			fs_root_close(q->fs);
			scan_fsnode_of(q->fs)->taken = true;
		}
	}
	pthread_mutex_unlock(&s->lock);
	free(q);
	return q != NULL;
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
	scan_efd_poke(s->wake_fd);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void scan_queues_free(struct scan *s)
{
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
}
