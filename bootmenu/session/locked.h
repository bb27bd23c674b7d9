/* locked.h - the session's lines for locked LUKS devices (issue #33).
 *
 * Internal to the session room (session.c, listing.c) and its tests: the
 * ENTRY_UNLOCK entries made from the scan's devices in state
 * SCAN_DEV_LOCKED, and the devices listing's lines of LUKS devices. Pure:
 * a copy of the devices in, entries and text out.
 */
#ifndef BM_SESSION_LOCKED_H
#define BM_SESSION_LOCKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct arena;
struct entry;
struct entry_list;
struct scan_dev;
struct session;

#define SESSION_LOCKED_TEXT_MAX 512

/* "LUKS2 'cr_root'", or "LUKS1" for a device without a label, into
 * buf[0..len). */
void session_locked_what(const struct scan_dev *d, char *buf, size_t len);

/* Whether s->locked[] is already one entry per locked device of
 * @devs[0..n), in that order, each titled and named as now. */
bool session_locked_same(const struct session *s, const struct scan_dev *devs,
			 size_t n);

/* s->locked[] made again from @devs[0..n) in s->locked_a, which the
 * caller emptied (retired) first: one ENTRY_UNLOCK entry per device in
 * state SCAN_DEV_LOCKED, titled "Encrypted: vda3, LUKS2 'cr_root' - Enter
 * to unlock", id "luks-<uuid>", unlock_dev the device's name, no
 * filesystem. Their strings are copies. */
void session_locked_make(struct session *s, const struct scan_dev *devs,
			 size_t n);

/* Append s->locked[] to @l (after cfg_finish(): they resolve nothing). */
void session_locked_link(struct session *s, struct entry_list *l);

/* The devices listing's line for @devs[i] (or nothing): a device the
 * scan did not mount, "device: vda3 crypto_LUKS: locked: LUKS2 'cr_root'
 * (luks-<uuid>)" for a locked one, "device: vda3 crypto_LUKS: unlocked as
 * luks-<uuid>" once it is open, and the volume it was opened as even
 * when mounted ("device: luks-<uuid> ext4: mounted"); @devs[0..n) is the
 * whole list, to know which devices are such volumes. */
void session_device_line(FILE *f, const struct scan_dev *devs, size_t n,
			 size_t i);

/* Whether one of the fnmatch(3) patterns @pats (separated by spaces)
 * matches the device @name, "LABEL=@label" or "UUID=@uuid" (case
 * ignored); @uuid and @label may be NULL or "". hide's rule
 * (session.c). */
bool session_spec_match(const char *pats, const char *name, const char *uuid,
			const char *label);

#endif
