/* scan.h - every disk and partition, probed, mounted read-only and handed
 * on as a struct fs_root as soon as it is ready; hotplug after that.
 *
 * A scan runs its own thread: it lists /sys/class/block, probes and
 * mounts each device in a worker of its own (bounded in time: a dead USB
 * stick only makes its own device time out), and follows the uevent
 * stream. The caller sees one file descriptor, readable while events are
 * queued, and takes them with scan_next() from its poll() loop:
 *
 *	struct scan *s = scan_new(&(struct scan_opts){ .hotplug = true });
 *	struct pollfd p = { .fd = scan_fd(s), .events = POLLIN };
 *	... poll(&p, 1, ms); then
 *	while (scan_next(s, &ev) > 0)
 *		switch (ev.type) {
 *		case SCAN_EV_FS_ADDED:   parse ev.fs (cfg_scan_fs), add entries
 *		case SCAN_EV_FS_REMOVED: drop the entries whose fs is ev.fs
 *		case SCAN_EV_DEVICE:     refresh a devices view (scan_devices)
 *		case SCAN_EV_SETTLED:    start-up is over: pick the default
 *		}
 *	scan_unmount_all(s);  before kexec; scan_free(s) at the end.
 *
 * Or blocking: scan_all(s, settle_s), then scan_roots().
 *
 * Memory: the scan's arena owns every struct scan_dev string and name,
 * each text once (a device that comes back the same adds nothing); they
 * stay valid until scan_free(). Each mount makes a new struct fs_root,
 * the scan's until the caller hands it back with scan_release() after
 * taking its FS_REMOVED (its root_fd is closed by then), or until
 * scan_free(): a caller that never hands any back keeps every one of
 * them. A rescan is scan_free() and scan_new(), after the caller dropped
 * its entries.
 * All functions are called from one thread (the caller's); the scan's
 * own threads never call back.
 */
#ifndef BM_SCAN_H
#define BM_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fs_root;

#define SCAN_SETTLE_DEFAULT_S 5.0   /* bootmenu.settle= overrides */
#define SCAN_TIMEOUT_DEFAULT_S 10.0 /* one device's probe + mount */
#define SCAN_QUIET_MS 500	    /* no uevent this long: settled again */
#define SCAN_COALESCE_MS 25	    /* events of one device within: one */
#define SCAN_WORKERS_MAX 8	    /* devices probed at once */

struct scan_opts {
	const char *sysfs;	/* "/sys" when NULL */
	const char *devdir;	/* "/dev" when NULL */
	const char *mount_base; /* MOUNT_BASE ("/run/bootmenu") when NULL */
	double settle_s;	/* bound for SCAN_EV_SETTLED; 0: default */
	double timeout_s;	/* per device; 0: SCAN_TIMEOUT_DEFAULT_S */
	bool hotplug;		/* listen to NETLINK_KOBJECT_UEVENT */
	bool loop;		/* loop devices too */
	bool no_mount;		/* probe only: a device listing */
	bool keep_writable;	/* do not BLKROSET block devices */
	/* Tests: stands in for mount_fs() (the scan then opens @target as
	 * the root); may sleep to stand for a dead device. 0 or -errno. */
	int (*mount_fn)(void *ctx, const char *devnode, const char *fstype,
			const char *target);
	void *mount_ctx;
	/* Tests: stands in for scan_usb_port_status(). */
	int (*usb_port_fn)(void *ctx, const char *node, unsigned port,
			   uint16_t *status);
	void *usb_port_ctx;
	/* Devices to leave alone (bootmenu.conf's hide): a reason such as
	 * "hidden by bootmenu.conf" (static, not copied) or NULL. Asked
	 * with @uuid = @label = NULL before a device is probed, then with
	 * what the probe found ("" when none) before it is mounted. Called
	 * from the scan's threads, never after scan_unmount_all() returned;
	 * it must not call into the scan. */
	const char *(*filter_fn)(void *ctx, const char *name, const char *uuid,
				 const char *label);
	void *filter_ctx;
};

/* The status word of @port (1-based) of the USB hub whose usbfs node is
 * @node, as the hub answers GET_STATUS (bit 0: a device is connected).
 * 0 or -errno. The default usb_port_fn; @ctx unused. */
int scan_usb_port_status(void *ctx, const char *node, unsigned port,
			 uint16_t *status);

enum scan_state {
	SCAN_DEV_PROBING, /* queued or in its worker */
	SCAN_DEV_MOUNTED, /* dev->fs is usable */
	SCAN_DEV_SKIPPED, /* nothing to mount: reason says why */
	SCAN_DEV_FAILED,  /* probe or mount failed: reason */
	SCAN_DEV_TIMEOUT, /* gave up waiting for it */
	SCAN_DEV_LOCKED,  /* a LUKS volume not opened yet: dev->luks_* */
};

/* One block device, for a devices view. Copied out by scan_devices(). */
struct scan_dev {
	const char *name;		   /* "sda2" */
	const char *disk;		   /* "sda" */
	const char *devnode;		   /* "/dev/sda2" */
	const char *fstype, *uuid, *label; /* "" when unknown */
	const char *partuuid, *partlabel, *pttype;
	int partno;
	uint64_t size; /* bytes */
	bool removable, esp, xbootldr;
	enum scan_state state;
	const char *reason;	  /* "encrypted, not opened", "timed out" ... */
	const struct fs_root *fs; /* when SCAN_DEV_MOUNTED */
	/* A LUKS device (fstype "crypto_LUKS") whose header was read: its
	 * version (0: not LUKS, or the header is unreadable: see reason),
	 * UUID and LUKS2 label ("" when none); once unlocked, the volume
	 * that holds its contents ("luks-<uuid>", a device of this list
	 * too), else "". */
	int luks_version;
	const char *luks_uuid, *luks_label, *unlocked_as;
	/* An LVM logical volume or md mirror the scan mapped: the devices
	 * its mapping reads, by their names in this list, space separated
	 * ("vda2 vdb2", "luks-<uuid>"; a mirror is read from one member);
	 * "" for any other device. */
	const char *members;
};

enum scan_event_type {
	SCAN_EV_FS_ADDED,   /* ev.fs is mounted and open */
	SCAN_EV_FS_REMOVED, /* ev.fs is gone; its root_fd is closed now */
	SCAN_EV_DEVICE,	    /* ev.name's entry in the device list changed */
	SCAN_EV_SETTLED, /* once: start-up devices are done or the bound passed
			  */
};

struct scan_event {
	enum scan_event_type type;
	const struct fs_root *fs; /* FS_ADDED, FS_REMOVED */
	const char *name; /* the device, owned by the scan; NULL for SETTLED */
};

/* Start a scan (opts may be NULL: all defaults, no hotplug). Returns NULL
 * and sets errno when it cannot start (ENOMEM, or the sysfs tree missing).
 * Stale mounts under the mount base (a previous bootmenu's) are detached.
 * The caller frees it with scan_free(). */
struct scan *scan_new(const struct scan_opts *opts);

/* Readable (POLLIN) while scan_next() has events. Owned by the scan. */
int scan_fd(const struct scan *s);

/* Take the next event into @ev. Returns 1, or 0 when none is queued. */
int scan_next(struct scan *s, struct scan_event *ev);

/* The caller is done with @fs, whose SCAN_EV_FS_REMOVED it took: nothing
 * of its points at @fs any more, nor at its btrfs top level and subvolume
 * names (its other strings are the device's and stay). Its memory goes,
 * in the caller's thread. Returns 0, -EBUSY (its FS_REMOVED was not taken
 * yet: nothing changed) or -ENOENT (not a filesystem of @s, or handed
 * back already). */
int scan_release(struct scan *s, const struct fs_root *fs);

/* Bytes the scan's memory holds now: its arena, its strings' table and
 * the filesystems not handed back (tests, the bench). */
size_t scan_mem_bytes(struct scan *s);

/* Block until the devices known at start are done and the uevent stream
 * has been quiet for SCAN_QUIET_MS, but at most @seconds. Returns 0, or
 * -ETIMEDOUT when the bound passed first. */
int scan_settle(struct scan *s, double seconds);

/* scan_settle(), then the number of mounted filesystems (scan_roots()). */
int scan_all(struct scan *s, double settle_s);

/* The mounted filesystems now, up to @max into @out (owned by the scan).
 * Returns how many there are in all. */
size_t scan_roots(struct scan *s, const struct fs_root **out, size_t max);

/* Every device (skipped ones with their reasons), up to @max copies into
 * @out, in disk-then-partition order. Returns how many there are. */
size_t scan_devices(struct scan *s, struct scan_dev *out, size_t max);

/* USB storage hosts that appeared and have not reported a disk yet, whose
 * wait (a few seconds at most) holds the settle: for a status line. */
size_t scan_hosts_waiting(struct scan *s);

/* Before the first settle: how many USB devices found at start
 * are still being set up (scan_owed.c), for a status line. */
size_t scan_owed_waiting(struct scan *s);

/* Tests, and a replay of a captured stream: hand a raw uevent message to
 * the scan as if it came from the kernel. Returns 0 or -errno. */
int scan_inject_uevent(struct scan *s, const void *msg, size_t len);

/* Stop following devices and unmount every filesystem (lazily where
 * busy), closing their root fds: call before kexec. No more events come
 * after it. Returns 0, or the first -errno of a failed unmount. */
int scan_unmount_all(struct scan *s);

/* scan_unmount_all(), then free everything. NULL is a no-op. */
void scan_free(struct scan *s);

/* How scan_unlock() opens a LUKS device. */
struct scan_unlock {
	const void *pass; /* the passphrase (or a TPM token's secret) */
	size_t pass_len;
	int slot; /* -1: every keyslot; else only this id (a token's) */
	/* while a keyslot's KDF runs: done of total; nonzero cancels
	 * (-ECANCELED). May be NULL. */
	int (*progress)(void *ctx, unsigned done, unsigned total);
	void *progress_ctx;
};

/* Open the LUKS device @name (SCAN_DEV_LOCKED): read its header again,
 * open the volume key with @u (luks_unlock(); an Argon2 keyslot may use
 * at most half of the memory the machine has available), and map the
 * data read-only through dm-crypt as the volume "luks-<uuid>" (a
 * bootmenu table: VOL_DM_PREFIX), a device record of its own that is
 * then probed, mounted, or read as an LVM2 PV or md member like any
 * volume. The mapping goes with @name, in scan_unmount_all() and so on
 * rescan. Runs in the caller's thread (the KDF may take seconds: the
 * progress callback keeps a screen alive) without holding the scan's
 * lock during the KDF. Every copy of the key is wiped; nothing is
 * written to the device. Returns 0; -EACCES (wrong passphrase), -ENOENT
 * (no locked device @name), -EALREADY (already unlocked), -ENOTSUP (a
 * cipher bootmenu's kernel or luks_unlock() lacks, named), -ENOMEM (an
 * Argon2 keyslot wants more memory than can be spared: the sentence
 * says how much), -ECANCELED, or another -errno; a sentence in err
 * each time. */
int scan_unlock(struct scan *s, const char *name, const struct scan_unlock *u,
		char *err, size_t errlen);

/* "mounted", "skipped", ... for logs and the devices view. */
const char *scan_state_name(enum scan_state st);

#endif
