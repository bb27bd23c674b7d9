/* locked.c - ENTRY_UNLOCK entries and LUKS device lines (locked.h). */
#include "session/locked.h"
#include "session/session.h"
#include "entry/entry.h"
#include "scan/scan.h"
#include "util/arena.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

void session_locked_what(const struct scan_dev *d, char *buf, size_t len)
{
	const char *label = str_or(d->luks_label, NULL);

	if (label)
		snprintf(buf, len, "LUKS%d '%s'", d->luks_version, label);
	else
		snprintf(buf, len, "LUKS%d", d->luks_version);
}

/* The volume's name as session.h gives it: "luks-<uuid>"; a header
 * without a UUID (never written so by cryptsetup) falls back to the
 * device's name, so that the id stays unique. */
static void locked_id(const struct scan_dev *d, char *buf, size_t len)
{
	snprintf(buf, len, "luks-%s", str_or(d->luks_uuid, d->name));
}

static void locked_title(const struct scan_dev *d, char *buf, size_t len)
{
	char what[SESSION_LOCKED_TEXT_MAX / 2];

	session_locked_what(d, what, sizeof(what));
	snprintf(buf, len, "Encrypted: %s, %s - Enter to unlock", d->name,
		 what);
}

bool session_locked_same(const struct session *s, const struct scan_dev *devs,
			 size_t n)
{
	char title[SESSION_LOCKED_TEXT_MAX], id[SESSION_LOCKED_TEXT_MAX];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct entry *e;

		if (devs[i].state != SCAN_DEV_LOCKED)
			continue;
		if (k == s->n_locked)
			return false;
		e = s->locked[k++];
		locked_title(&devs[i], title, sizeof(title));
		locked_id(&devs[i], id, sizeof(id));
		if (strcmp(e->title, title) || strcmp(e->id, id) ||
		    strcmp(e->unlock_dev, devs[i].name))
			return false;
	}
	return k == s->n_locked;
}

static struct entry *locked_entry(struct arena *a, const struct scan_dev *d)
{
	struct entry *e = arena_alloc(a, sizeof(*e));
	char buf[SESSION_LOCKED_TEXT_MAX];

	e->method = ENTRY_UNLOCK;
	e->format = FMT_BARE; /* none fits; listings name it by method */
	e->tries_left = e->tries_done = -1;
	e->cmdline = "";
	locked_title(d, buf, sizeof(buf));
	e->title = arena_strdup(a, buf);
	locked_id(d, buf, sizeof(buf));
	e->id = arena_strdup(a, buf);
	e->unlock_dev = arena_strdup(a, d->name);
	e->unlock_uuid = arena_strdup(a, str_or(d->luks_uuid, ""));
	e->unlock_label = arena_strdup(a, str_or(d->luks_label, ""));
	return e;
}

void session_locked_make(struct session *s, const struct scan_dev *devs,
			 size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += devs[i].state == SCAN_DEV_LOCKED;
	s->n_locked = 0;
	s->locked =
	    k ? arena_alloc(&s->locked_a, k * sizeof(*s->locked)) : NULL;
	for (size_t i = 0; i < n && s->n_locked < k; i++)
		if (devs[i].state == SCAN_DEV_LOCKED)
			s->locked[s->n_locked++] =
			    locked_entry(&s->locked_a, &devs[i]);
}

void session_locked_link(struct session *s, struct entry_list *l)
{
	for (size_t i = 0; i < s->n_locked; i++) {
		struct entry *e = s->locked[i];

		e->next = NULL;
		*l->tail = e;
		l->tail = &e->next;
		l->count++;
	}
}

bool session_unlock_at_start(const struct entry *e, const char *pats)
{
	if (!e || e->method != ENTRY_UNLOCK || !pats || !*pats)
		return false;
	return session_spec_match(pats, e->unlock_dev, e->unlock_uuid,
				  e->unlock_label);
}

/* Is @devs[i] the volume another device of the list was unlocked as? */
static bool is_unlocked_volume(const struct scan_dev *devs, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++)
		if (j != i && devs[j].unlocked_as && *devs[j].unlocked_as &&
		    !strcmp(devs[j].unlocked_as, devs[i].name))
			return true;
	return false;
}

void session_device_line(FILE *f, const struct scan_dev *devs, size_t n,
			 size_t i)
{
	const struct scan_dev *d = &devs[i];
	const char *type = str_or(d->fstype, "-");
	char what[SESSION_LOCKED_TEXT_MAX / 2], id[SESSION_LOCKED_TEXT_MAX];

	if (d->unlocked_as && *d->unlocked_as) {
		fprintf(f, "device: %s %s: unlocked as %s\n", d->name, type,
			d->unlocked_as);
	} else if (d->state == SCAN_DEV_LOCKED) {
		session_locked_what(d, what, sizeof(what));
		locked_id(d, id, sizeof(id));
		fprintf(f, "device: %s %s: locked: %s (%s)\n", d->name, type,
			what, id);
	} else if (d->state != SCAN_DEV_MOUNTED ||
		   is_unlocked_volume(devs, n, i)) {
		fprintf(f, "device: %s %s: %s%s%s\n", d->name, type,
			scan_state_name(d->state), d->reason ? ": " : "",
			d->reason ? d->reason : "");
	}
}

/* The pieces of a title locked_title() made: "LUKS2 'cr_root'" is what
 * stands between "Encrypted: vda3, " and " - Enter to unlock". */
int session_unlock_what(struct session *s, const char *name, char *buf,
			size_t len)
{
	static const char tail[] = " - Enter to unlock";
	char head[SESSION_LOCKED_TEXT_MAX];

	snprintf(head, sizeof(head), "Encrypted: %s, ", name);
	for (size_t i = 0; i < s->n_locked; i++) {
		const char *t = s->locked[i]->title;
		size_t n = strlen(t), h = strlen(head);

		if (strcmp(s->locked[i]->unlock_dev, name) ||
		    strncmp(t, head, h) || n < h + sizeof(tail) - 1)
			continue;
		snprintf(buf, len, "%.*s", (int)(n - h - (sizeof(tail) - 1)),
			 t + h);
		return 0;
	}
	return -ENOENT;
}
