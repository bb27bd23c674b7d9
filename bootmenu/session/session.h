/* session.h - one scan of every disk, turned into one list of entries.
 *
 * The wiring between the scan room, the parsers and the entry list that
 * both the menu and `--list` without `--root` use. The session owns the
 * scan, the arena and the list; session_free() releases all of them.
 */
#ifndef BM_SESSION_H
#define BM_SESSION_H

#include "entry/entry.h"
#include "util/arena.h"

#include <stdbool.h>
#include <stdio.h>

struct scan;
struct scan_opts;
struct fs_root;
struct session_part;
struct session_key;
struct boot_key;

#define SESSION_MAX_FS 256
#define SESSION_SOURCES_MAX 8 /* disks, dirs; network, volumes to come */

struct source;
struct boot_opts;

struct session {
	struct arena arena;
	/* Where filesystems come from (source.h), owned; s->scan is the
	 * disks source's scan (device list, status line), or NULL. */
	struct source *srcs[SESSION_SOURCES_MAX];
	bool src_settled[SESSION_SOURCES_MAX];
	size_t n_srcs;
	int epfd;      /* over the sources' fds once there are two */
	bool epoll_on; /* epfd is open */
	struct scan *scan;
	const struct fs_root *fss[SESSION_MAX_FS];
	size_t n_fss;
	struct entry_list list;
	/* Set by the caller before session_start()/session_scan_devices(),
	 * kept by them (and by session_rescan()); both may stay NULL.
	 * @hide: bootmenu.conf's `hide`, space-separated fnmatch(3) patterns
	 * matched against the device name ("sdb1"), "LABEL=<label>" and
	 * "UUID=<uuid>": a device that matches is never mounted and is
	 * listed as "hidden by bootmenu.conf". Copied by session_start(), so
	 * it need not outlive that call. @scan_opts: the tests' seams (fake
	 * sysfs, mount_fn, hotplug off), copied; settle_s and the hide filter
	 * are the session's own. NULL: the real machine, with hotplug. */
	const char *hide;
	const struct scan_opts *scan_opts;
	/* bootmenu.conf's luks_pass_key (conf.h; "" or NULL: no): when set,
	 * the passphrase of each volume unlocked is kept for the boot's
	 * hand-on step (session/keys.h, boot/hand_on.h). Kept by
	 * session_start(), not copied: it must outlive the session. */
	const char *pass_key;
	struct session_key *keys; /* the session's own (session/keys.h) */
	/* The session's own: one parsed filesystem per fss[i], each with
	 * its arena (malloc'd); arenas replaced since the last update. */
	struct session_part *parts[SESSION_MAX_FS];
	/* each part's config timeout, which list.fs_timeout_ds shows */
	int timeouts_ds[SESSION_MAX_FS];
	struct session_retired *retired;
	unsigned long parses; /* filesystems parsed so far (tests, bench) */
	char *hide_copy;      /* malloc'd; session_free() frees it */
	struct scan_opts *opts_copy; /* malloc'd, for session_rescan() */
	double settle_s;
	bool settled;
	/* A source of entries (source.h): the firmware's own boot options,
	 * started by session_start() and kept until session_free(), through
	 * rescans; NULL for --root. Not polled: it has nothing to wait for. */
	struct source *fw;
	/* why EFI loaders cannot boot here, or NULL (cfg_ctx.fw_off): @fw's */
	const char *fw_off;
	/* why multiboot kernels (Xen) cannot boot here, or NULL: under
	 * lockdown their entries are disabled with it */
	const char *mb_off;
	/* the sources session_rescan() makes again (session_add_made()) */
	struct session_maker {
		struct source *(*make)(void *ctx);
		void *ctx;
	} makers[SESSION_SOURCES_MAX];
	size_t n_makers;
	/* The ENTRY_UNLOCK entries (session/locked.h), one per locked LUKS
	 * device, linked at the end of @list; in an arena of their own,
	 * retired when the set changes. */
	struct arena locked_a;
	struct entry **locked;
	size_t n_locked;
};

/* Scan every block device (waiting at most @settle_s for them), mount
 * what can be mounted read-only, parse every filesystem: session_start(),
 * then session_update() until settled. @s is zeroed except for the
 * caller's fields above. Returns 0 or -errno (the scan could not start:
 * no /sys). */
int session_scan_devices(struct session *s, double settle_s);
/* Take the session's events until start-up probing is over, at most
 * @settle_s plus a margin: what the menu does while drawing, for callers
 * that draw nothing (--list, a timeout of 0, the plain chooser). */
void session_wait_settled(struct session *s, double settle_s);
/* One line per device that was not mounted, with the scan's reason
 * ("device: vdb2 LVM2_member: skipped: ..."); a LUKS device is "device:
 * vda3 crypto_LUKS: locked: LUKS2 'cr_root' (luks-<uuid>)", then "...:
 * unlocked as luks-<uuid>", and that volume has its line even mounted
 * (session_device_line(), session/locked.h). */
void session_print_devices(struct session *s, FILE *f);
/* --list: @s's entries as text (with the devices not mounted) or JSON,
 * @def marked as the default; in JSON, with a TPM that @bo (may be
 * NULL: none) lets measure, what booting each kexec entry would measure
 * and the PCR values it leads to (boot/measure.h). Returns 0. */
int session_print_list(FILE *f, struct session *s, bool json,
		       const struct entry *def, const struct boot_opts *bo);
/* Unmount everything the scan mounted (before a kexec). */
void session_unmount(struct session *s);
void session_free(struct session *s);

/* --- Directories instead of devices (`bootmenu --root`). Each of
 * @roots[0..n) (at most SESSION_MAX_FS) is "DIR", or "DIR=LABEL" with
 * ",uuid=U" and ",partuuid=P" after it: the identities a real filesystem
 * would have (the label names it in the output and answers LABEL=
 * lookups, as grub's search and root= do). Each directory is opened as a
 * filesystem and parsed; @s is zeroed first. Returns 0, or 1 after a
 * message on stderr naming the directory that cannot be opened (then
 * session_close_roots() still releases what was opened). */
int session_open_roots(struct session *s, const char *const *roots, size_t n);
/* Close the directories and session_free(). */
void session_close_roots(struct session *s);

/* --- Event-driven use (the menu). The entries fill in while devices are
 * probed; nothing blocks.
 *
 *	session_start(&s, settle);
 *	poll() on session_fd(&s) (POLLIN) beside the keyboard, then
 *	changed = session_update(&s);
 *	if (changed & SESSION_CHANGED_ENTRIES) rebuild the rows from s.list
 *	if (changed & SESSION_SETTLED) pick the default, start the countdown
 *
 * Entries dropped from s.list (their device went away, or their
 * filesystem was parsed again) stay valid memory until session_release()
 * (or session_free(), session_rescan()): call it once nothing points at
 * them any more (the menu's rows were rebuilt from s.list). */
#define SESSION_CHANGED_ENTRIES 1 /* s->list was rebuilt */
#define SESSION_CHANGED_DEVICES 2 /* a device's state changed (status line) */
#define SESSION_SETTLED 4	  /* once: start-up probing is over */

/* Start a scan with hotplug and return at once. 0 or -errno. */
int session_start(struct session *s, double settle_s);
/* One more source of filesystems (source.h), owned by @s from now on
 * (freed even on failure); the session settles again once every source
 * has. 0 or -errno. */
int session_add_source(struct session *s, struct source *src);
/* A source the caller makes (the network: source_net_new()), made now by
 * @make(@ctx) and added, and made again by each session_rescan(): a
 * rescan asks again for what it offers. @ctx must live as long as @s.
 * 0, or -errno (errno as @make left it when it returned NULL). */
int session_add_made(struct session *s, struct source *(*make)(void *ctx),
		     void *ctx);
/* Readable (POLLIN) while session_update() has work; -1 without any
 * source. */
int session_fd(const struct session *s);
/* Take every queued scan event: parse filesystems that were mounted, drop
 * the entries of those that went away, resolve and finish s->list again.
 * Returns a mask of SESSION_CHANGED_* / SESSION_SETTLED (0: nothing). */
int session_update(struct session *s);
/* True once start-up probing is over (always for a --root session). */
bool session_settled(const struct session *s);
/* What is still going on, for a status line: "probing sdb, sdc1" or
 * "" when nothing is; "waiting for a USB disk" (or "for 2 USB disks")
 * while a USB stick's host has not reported its disk (usb-storage waits
 * a second), after the probes or alone. Returns strlen of the text. */
size_t session_status(const struct session *s, char *buf, size_t len);
/* What the sources called @name ("network", source.h) are doing, as
 * session_status() says it ("eth0: asking for an address (DHCP)"), into
 * buf[0..len); "" (0) when they are doing nothing or there is none.
 * Returns strlen of the text. */
size_t session_source_status(const struct session *s, const char *name,
			     char *buf, size_t len);
/* Unmount and forget every device, then scan again (the menu's `r`),
 * with the sources session_add_made() gave made again.
 * Every entry and fs_root pointer handed out before is invalid after it:
 * call ui_model_forget() first. 0 or -errno. */
int session_rescan(struct session *s);

/* --- Encrypted volumes. Each LUKS device the scan finds locked is an
 * ENTRY_UNLOCK entry at the end of s->list, titled
 * "Encrypted: vda3, LUKS2 'cr_root' - Enter to unlock" (no label:
 * "Encrypted: vda3, LUKS1 - Enter to unlock"), id "luks-<uuid>"; it
 * goes once the device is unlocked, and its contents come as any
 * volume's do (SESSION_CHANGED_ENTRIES). */

/* Whether the locked volume's line @e is one bootmenu.conf's
 * unlock_at_start patterns @pats name (by device name, LABEL= of its LUKS2
 * label, UUID= of its LUKS UUID): its dialog then opens when the disks
 * settle. False for any other entry, or @pats NULL or "". */
bool session_unlock_at_start(const struct entry *e, const char *pats);

/* What locked LUKS device @name is, for the unlock dialog's title:
 * "LUKS2 'cr_root'" or "LUKS1" into buf[0..len). 0, or -ENOENT when no
 * ENTRY_UNLOCK entry of @s stands for @name. */
int session_unlock_what(struct session *s, const char *name, char *buf,
			size_t len);

/* Open LUKS device @name with a typed passphrase (scan_unlock(), same
 * returns and sentence); @progress as there. */
int session_unlock(struct session *s, const char *name, const char *pass,
		   size_t len, int (*progress)(void *, unsigned, unsigned),
		   void *ctx, char *err, size_t errlen);

/* Open LUKS device @name with its LUKS2 "systemd-tpm2" token, without a
 * prompt: the TPM unseals the token's secret when the PCRs match its
 * policy. @pin: the token's PIN when it wants one, else NULL. Returns 0
 * (unlocked); -ENOENT (no systemd-tpm2 token, or no TPM: ask for the
 * passphrase, nothing to say); -ENOKEY (the token wants a PIN and @pin is
 * NULL); else -errno with the sentence saying why the TPM did not unlock
 * it ("the TPM's PCR 7 is not what the key was sealed to"), to show
 * above the passphrase prompt. */
int session_unlock_tpm(struct session *s, const char *name, const char *pin,
		       char *err, size_t errlen);

/* The boot_opts.keys_of hook (boot/hand_on.h), @ctx a struct session:
 * the keys kept (session/keys.h, when s->pass_key asks) for the LUKS
 * volumes that hold the filesystem named @fs_name: the volume itself
 * ("luks-<uuid>"), or the volumes under the members of the LVM logical
 * volume or md mirror it is (scan_dev.members), a few levels deep. At
 * most @max into @out, each key the session's, valid until the next
 * session call. Returns how many. */
size_t session_keys_of(void *ctx, const char *fs_name, struct boot_key *out,
		       size_t max);

/* Entry number @n (0-based) of @l, or NULL. */
const struct entry *session_nth(const struct entry_list *l, long n);

/* Free the memory of entries no longer in s->list (see above), and let
 * the sources free the filesystems they removed (source.h, release()). */
void session_release(struct session *s);

/* Bytes held by the session's arenas: its own and every filesystem's,
 * with those retired until the next session_update(). */
size_t session_arena_bytes(const struct session *s);

#endif
