/* keys.c - the passphrases kept for the hand-on step (keys.h). */
#include "session/keys.h"
#include "boot/hand_on.h"
#include "session/session.h"
#include "scan/scan.h"
#include "util/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct session_key {
	struct session_key *next;
	char volume[64]; /* "luks-<uuid>" */
	size_t len;
	unsigned char key[SESSION_KEY_MAX];
};

static void key_drop(struct session_key *k)
{
	explicit_bzero(k, sizeof(*k));
	(void)munlock(k, sizeof(*k));
	free(k);
}

/* The scan's devices now, in memory of their own (the caller frees):
 * at most SESSION_MAX_FS of them in *@n, none without a scan; NULL when
 * there is no memory for them. */
static struct scan_dev *keys_devices(const struct session *s, size_t *n)
{
	struct scan_dev *devs = calloc(SESSION_MAX_FS, sizeof(*devs));

	*n = 0;
	if (devs && s->scan)
		*n = scan_devices(s->scan, devs, SESSION_MAX_FS);
	if (*n > SESSION_MAX_FS)
		*n = SESSION_MAX_FS;
	return devs;
}

/* What the scan says device @name is unlocked as, into @out. */
static int key_volume(struct session *s, const char *name, char *out,
		      size_t cap)
{
	size_t n;
	struct scan_dev *devs = keys_devices(s, &n);
	int rc = -ENOENT;

	if (!devs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(devs[i].name, name) && devs[i].unlocked_as &&
		    devs[i].unlocked_as[0] &&
		    snprintf(out, cap, "%s", devs[i].unlocked_as) < (int)cap)
			rc = 0;
	free(devs);
	return rc;
}

static struct session_key **key_find(struct session *s, const char *volume)
{
	struct session_key **pp = &s->keys;

	while (*pp && strcmp((*pp)->volume, volume))
		pp = &(*pp)->next;
	return pp;
}

int session_key_put(struct session *s, const char *volume, const void *key,
		    size_t len)
{
	struct session_key *k, **pp;

	if (!s->pass_key || !s->pass_key[0])
		return 0;
	if (len > SESSION_KEY_MAX || strlen(volume) >= sizeof(k->volume)) {
		log_warn("%s: a passphrase of %zu bytes is not kept to hand "
			 "on (at most %d)",
			 volume, len, SESSION_KEY_MAX);
		return 0;
	}
	if (!(k = calloc(1, sizeof(*k))))
		return -ENOMEM;
	(void)mlock(k, sizeof(*k)); /* out of swap where the kernel lets us */
	snprintf(k->volume, sizeof(k->volume), "%s", volume);
	memcpy(k->key, key, len);
	k->len = len;
	pp = key_find(s, volume);
	if (*pp) { /* unlocked again after a rescan: the newer key */
		k->next = (*pp)->next;
		key_drop(*pp);
	}
	*pp = k;
	return 0;
}

int session_key_keep(struct session *s, const char *name, const void *key,
		     size_t len)
{
	char volume[64];
	int rc;

	if (!s->pass_key || !s->pass_key[0])
		return 0;
	rc = key_volume(s, name, volume, sizeof(volume));
	if (rc == 0)
		rc = session_key_put(s, volume, key, len);
	if (rc < 0)
		log_warn("%s: its key could not be kept to hand on: the "
			 "target will ask for the passphrase again",
			 name);
	return rc;
}

int session_key_of(const struct session *s, const char *volume,
		   const void **key, size_t *len)
{
	const struct session_key *k = s->keys;

	while (k && strcmp(k->volume, volume))
		k = k->next;

	if (!k)
		return -ENOENT;
	*key = k->key;
	*len = k->len;
	return 0;
}

size_t session_keys_count(const struct session *s)
{
	size_t n = 0;

	for (const struct session_key *k = s->keys; k; k = k->next)
		n++;
	return n;
}

#define KEYS_DEPTH_MAX 4 /* LVM on md on LUKS, and one more */

/* The device of @name in @devs[0..n), or NULL. */
static const struct scan_dev *keys_dev(const struct scan_dev *devs, size_t n,
				       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(devs[i].name, name))
			return &devs[i];
	return NULL;
}

/* The key of volume @name into @out[*got], once. */
static void keys_put(const struct session *s, const char *name,
		     struct boot_key *out, size_t max, size_t *got)
{
	struct boot_key k = {0};

	if (*got >= max || strlen(name) >= sizeof(k.volume) ||
	    session_key_of(s, name, &k.key, &k.len) < 0)
		return;
	for (size_t i = 0; i < *got; i++)
		if (!strcmp(out[i].volume, name))
			return;
	memcpy(k.volume, name, strlen(name) + 1);
	out[(*got)++] = k;
}

/* @name's keys: its own when it is a LUKS volume, else its members'. */
static void keys_walk(const struct session *s, const struct scan_dev *devs,
		      size_t n, const char *name, int depth,
		      struct boot_key *out, size_t max, size_t *got)
{
	const struct scan_dev *d = keys_dev(devs, n, name);
	const char *m = d && d->members ? d->members : "";

	if (!strncmp(name, "luks-", 5)) {
		keys_put(s, name, out, max, got);
		return;
	}
	while (depth < KEYS_DEPTH_MAX && *m) {
		char one[BOOT_KEY_VOLUME_MAX];
		size_t k = strcspn(m, " ");

		if (k && k < sizeof(one)) {
			memcpy(one, m, k);
			one[k] = '\0';
			keys_walk(s, devs, n, one, depth + 1, out, max, got);
		}
		m += k + (m[k] == ' ');
	}
}

size_t session_keys_under(const struct session *s, const struct scan_dev *devs,
			  size_t n, const char *fs_name, struct boot_key *out,
			  size_t max)
{
	size_t got = 0;

	if (s->keys)
		keys_walk(s, devs, n, fs_name, 0, out, max, &got);
	return got;
}

size_t session_keys_of(void *ctx, const char *fs_name, struct boot_key *out,
		       size_t max)
{
	struct session *s = ctx;
	struct scan_dev *devs;
	size_t n, got;

	if (!s->keys || !(devs = keys_devices(s, &n)))
		return 0;
	got = session_keys_under(s, devs, n, fs_name, out, max);
	free(devs);
	return got;
}

/* Whether volume @v is among @devs[0..n). */
static bool key_present(const struct scan_dev *devs, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(devs[i].name, v))
			return true;
	return false;
}

void session_keys_prune_to(struct session *s, const struct scan_dev *devs,
			   size_t n)
{
	struct session_key **pp = &s->keys;

	while (*pp) {
		struct session_key *k = *pp;

		if (key_present(devs, n, k->volume)) {
			pp = &k->next;
			continue;
		}
		log_info("%s is gone: its key is dropped", k->volume);
		*pp = k->next;
		key_drop(k);
	}
}

void session_keys_prune(struct session *s)
{
	struct scan_dev *devs;
	size_t n;

	if (!s->keys || !(devs = keys_devices(s, &n)))
		return; /* no memory: kept until the next look */
	session_keys_prune_to(s, devs, n);
	free(devs);
}

void session_keys_free(struct session *s)
{
	while (s->keys) {
		struct session_key *k = s->keys;

		s->keys = k->next;
		key_drop(k);
	}
}
