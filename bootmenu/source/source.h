/* source.h - where filesystems and entries come from: one seam for
 * every kind.
 *
 * A source turns something into filesystems (struct fs_root, scan/fs.h)
 * and says when they come and go. The session polls every source the
 * same way: an fd to wait on, events to take, a stop before kexec. Block
 * devices (sysfs and uevents, the scan room) are one source, --root
 * directories another, the network a third; volume managers (LVM, md,
 * btrfs subvolumes) are added as more, without touching the parsers,
 * which only ever see fs_roots.
 *
 * A source owns the fs_roots it announces: one stays valid until the
 * source says SOURCE_FS_REMOVED for it, and after that until the session
 * hands it back with release() (a source without one keeps it until it
 * is freed).
 *
 * A source of entries (the firmware's boot options) makes entries
 * directly, with no filesystem and no parser between: it reads what it
 * lists when it starts, so it has no fd, no events and nothing to stop
 * (those ops are NULL), and the session keeps it apart from the sources
 * it polls. Its entries() is asked at every parse of every filesystem
 * for the entries that go with that one.
 */
#ifndef BM_SOURCE_SOURCE_H
#define BM_SOURCE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct efi_fw;
struct entry_list;
struct fs_root;
struct scan;
struct scan_opts;

enum source_event_type {
	SOURCE_FS_ADDED,   /* ev.fs can be read now */
	SOURCE_FS_REMOVED, /* ev.fs is gone (its memory stays: release()) */
	SOURCE_DEVICE,	   /* something the status line shows changed */
	SOURCE_SETTLED,	   /* once: what was there at start is announced */
	/* ev.fs, announced before, reads differently now: a file a parse
	 * could not open yet has come (a network root's fetch of an included
	 * config ended: done, missing or failed, net/remote.h). The session
	 * parses it again, and the filesystems whose parse reached it. */
	SOURCE_FS_CHANGED,
};

struct source_event {
	enum source_event_type type;
	const struct fs_root *fs; /* FS_ADDED, FS_REMOVED, FS_CHANGED */
};

/* What a source of entries is handed for one filesystem's parse. */
struct source_entries {
	const struct fs_root *fs; /* the filesystem just parsed */
	/* every filesystem present, in the list's order */
	const struct fs_root *const *all;
	size_t n_all;
	/* @fs's entries so far: the source's go after them, in out->a (freed
	 * when @fs is parsed again) */
	struct entry_list *out;
	/* Set by entries(): what it added (or that it added nothing) depends
	 * on the whole set, so the session asks again when any filesystem
	 * comes or goes (cfg_ctx.all_deps). */
	bool all_deps;
};

struct source;

struct source_ops {
	const char *name; /* "disks", "dirs", "network", "firmware" */
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
	/* Optional: the session is done with @fs, whose SOURCE_FS_REMOVED
	 * it took (nothing of the session points at it any more): its
	 * memory may go. */
	void (*release)(struct source *src, const struct fs_root *fs);
	/* Its filesystems are listed in device-name order ("sda2" before
	 * "sda10"); else in the order they came. */
	bool sorted;
	/* A source of entries: add to @x->out those that go with @x->fs
	 * (often none). NULL for a source of filesystems. */
	void (*entries)(struct source *src, struct source_entries *x);
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
 * announced, or DHCP given up, or no carrier within 5 s. With
 * @auto_mode (bootmenu.conf's network = auto, the default) a link whose
 * DHCP gets no answer, or whose lease names no boot file (option 67 or
 * BOOTP's file) nor pxelinux config (option 209), ends there: no root,
 * no lookup on any server, a line in the log. Links plugged in later are
 * used as they come; a link whose carrier goes has its root removed, and
 * DHCP again when it comes back; a link removed ends. NULL with errno
 * set. */
struct source *source_net_new(const char *only, const char *run_dir, bool wait,
			      bool auto_mode);

/* The firmware's own boot options (source/firmware.c), a source of
 * entries, read now from the firmware of @w (efi/fwstate.h; NULL: this
 * machine's): the options its boot menu shows (efi/bootopts.h) and
 * whether it offers its setup screen. They are listed with the first
 * ESP of the set, after its own entries: each option once as "Boot####"
 * (ENTRY_FIRMWARE, fw_option), leaving out those that boot bootmenu
 * itself, then "UEFI Firmware Settings" (fw_setup) when offered. *fw_off gets
 * why no EFI loader can boot through the firmware here (efi_fw_ready()'s
 * sentence, the source's memory), or NULL when they can; then nothing is
 * listed. Options that cannot be read are logged and left out. NULL with errno
 * set. */
struct source *source_firmware_new(const struct efi_fw *w, const char **fw_off);

#endif
