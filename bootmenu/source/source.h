/* source.h - where filesystems come from: one seam for every kind.
 *
 * A source turns something into filesystems (struct fs_root, scan/fs.h)
 * and says when they come and go. The session polls every source the
 * same way: an fd to wait on, events to take, a stop before kexec. Block
 * devices (sysfs and uevents, the scan room) are one source, --root
 * directories another; the network and volume managers (LVM, md, btrfs
 * subvolumes) are added as more, without touching the parsers, which
 * only ever see fs_roots.
 *
 * A source owns the fs_roots it announces: one stays valid until the
 * source says SOURCE_FS_REMOVED for it (or is freed).
 */
#ifndef BM_SOURCE_SOURCE_H
#define BM_SOURCE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct fs_root;
struct scan;
struct scan_opts;

enum source_event_type {
	SOURCE_FS_ADDED,   /* ev.fs can be read now */
	SOURCE_FS_REMOVED, /* ev.fs is gone (its memory stays until freed) */
	SOURCE_DEVICE,	   /* something the status line shows changed */
	SOURCE_SETTLED,	   /* once: what was there at start is announced */
};

struct source_event {
	enum source_event_type type;
	const struct fs_root *fs; /* FS_ADDED, FS_REMOVED */
};

struct source;

struct source_ops {
	const char *name; /* "disks", "dirs" */
	/* Readable (POLLIN) while next() has events. */
	int (*fd)(const struct source *src);
	/* The next event into @ev: 1, or 0 when none is waiting. */
	int (*next)(struct source *src, struct source_event *ev);
	/* Let go of every filesystem (unmount), before a kexec. */
	void (*stop)(struct source *src);
	/* stop(), then free everything, @src included. */
	void (*free)(struct source *src);
	/* Optional: what it is doing, for the status line ("eth0: DHCP"),
	 * into buf[0..len); returns its length (0: nothing). */
	size_t (*status)(const struct source *src, char *buf, size_t len);
	/* Its filesystems are listed in device-name order ("sda2" before
	 * "sda10"); else in the order they came. */
	bool sorted;
};

struct source {
	const struct source_ops *ops;
	void *priv;
};

/* Block devices: a scan (scan/scan.h) with @opts; *scan_out gets the
 * scan, for the device list and the status line. NULL with errno set
 * when it cannot start. */
struct source *source_disks_new(const struct scan_opts *opts,
				struct scan **scan_out);

/* Directories standing for filesystems (`bootmenu --root`): each of
 * @specs[0..n) is "DIR" or "DIR=LABEL[,uuid=U][,partuuid=P]". Every one
 * is opened at once and announced, then SETTLED. NULL after a message on
 * stderr naming the directory that cannot be opened (nothing stays
 * open). Its fd is readable until its events were taken. */
struct source *source_dirs_new(const char *const *specs, size_t n);

/* The network (source/net.c): DHCP on every wired link with a carrier,
 * or on @only alone (NULL: all), each link's server a remote root. Its
 * files (leases, caches, the udhcpc script) go under @run_dir. SETTLED
 * comes at once, so nothing waits for the network (the menu); with
 * @wait (--list, --boot) only once every link is done: its root
 * announced, or DHCP given up, or no carrier within 5 s. NULL with errno
 * set. */
struct source *source_net_new(const char *only, const char *run_dir, bool wait);

#endif
