/* keys.h - the passphrases the session keeps for the hand-on step
 * (boot/hand_on.h, issue #33 "Type it once").
 *
 * Internal to the session room (session.c, unlock.c, unlock_tpm.c) and
 * its tests. Kept only when s->pass_key is not "" (bootmenu.conf's
 * luks_pass_key), one per volume bootmenu unlocked, found by the
 * volume's name ("luks-<uuid>"). Each copy is mlock(2)'d where the
 * kernel allows it, and wiped (explicit_bzero) when dropped: when its
 * volume is no longer among the scan's devices (session_update()), on
 * session_rescan() (every mapping goes) and in session_free().
 */
#ifndef BM_SESSION_KEYS_H
#define BM_SESSION_KEYS_H

#include <stddef.h>

struct boot_key;
struct scan_dev;
struct session;

#define SESSION_KEY_MAX 1024 /* longest passphrase kept */

/* Device @name (a LUKS device) was just unlocked with @key[0..len):
 * keep a copy for the volume the scan says it is unlocked as, when
 * s->pass_key asks for keys. Returns 0 (kept, or nothing to keep),
 * -ENOENT (the scan does not say what it is unlocked as) or -ENOMEM;
 * a key not kept is logged (the target will ask again), the unlock
 * itself stands. */
int session_key_keep(struct session *s, const char *name, const void *key,
		     size_t len);

/* Keep @key[0..len) for volume @volume ("luks-<uuid>"), replacing one
 * kept for it before, when s->pass_key asks for keys (else nothing).
 * Returns 0, or -ENOMEM. */
int session_key_put(struct session *s, const char *volume, const void *key,
		    size_t len);

/* The key kept for @volume ("luks-<uuid>"): 0 with *key (the
 * session's) and *len, or -ENOENT. session_keys_of() (session.h) hands
 * them to the boot. */
int session_key_of(const struct session *s, const char *volume,
		   const void **key, size_t *len);

/* session_keys_of() against @devs[0..n) (what scan_devices() gives). */
size_t session_keys_under(const struct session *s, const struct scan_dev *devs,
			  size_t n, const char *fs_name, struct boot_key *out,
			  size_t max);

/* How many keys are kept (tests, the status). */
size_t session_keys_count(const struct session *s);

/* Drop the keys whose volume is not among the scan's devices now. */
void session_keys_prune(struct session *s);
/* The same against @devs[0..n) (what scan_devices() gives). */
void session_keys_prune_to(struct session *s, const struct scan_dev *devs,
			   size_t n);

/* Drop every key. */
void session_keys_free(struct session *s);

#endif
