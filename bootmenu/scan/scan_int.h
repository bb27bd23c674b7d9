/* scan_int.h - internal to the scan room: shared by scan.c and the
 * scan_*.c files only. Everything else goes through scan/scan.h.
 *
 * Threads: the caller's (scan_next & co.), the scan's coordinator, and a
 * detached worker per device being probed. The coordinator owns the
 * device records and the arena, under s->lock; a worker only touches its
 * own struct scan_job (malloc'd, two references) and, while the job is
 * not abandoned, the coordinator's wake-up eventfd. A job that outlives
 * its time limit is abandoned: its worker, when it ever returns, undoes
 * its own mount and frees the job, touching nothing else. Root fds are
 * closed only in the caller's thread (scan_next, scan_unmount_all), so a
 * parser never sees its fd vanish underneath it.
 *
 * The files, one concern each, top to bottom: a file calls only files
 * below it in this list (scan_event.c calls none of them):
 *	scan.c		starting, settling and freeing a scan; its views
 *	scan_unlock.c	scan_unlock(): a LUKS device opened, its volume
 *			mapped through dm-crypt and made a record
 *	scan_coord.c	the coordinator thread: uevents, jobs, settling
 *	scan_record.c	the device records (the volumes' too) and what a
 *			finished job means: the owner, over the leaves
 *	scan_unmount.c	unmounting one device's filesystem, or all of them
 *	scan_worker.c	the jobs: probe and mount in a worker thread
 *	scan_luks.c	LUKS headers read (in the worker) and what they
 *			say of the record
 *	scan_usb.c	USB storage hosts that have not reported disks yet
 *	scan_owed.c	what USB and MMC still owe before the first settle
 *	scan_vol.c	LVM2 and md members read, their volumes planned and
 *			mapped (the records of the plan are scan_record.c's)
 *	scan_event.c	the clock, the eventfds, the caller's event queue
 *			and the injected uevents
 */
#ifndef BM_SCAN_INT_H
#define BM_SCAN_INT_H

#include "scan/btrfs.h"
#include "scan/fs.h"
#include "scan/mount.h"
#include "scan/probe.h"
#include "scan/scan.h"
#include "scan/uevent.h"
#include "util/arena.h"
#include "vol/plan.h"

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A USB storage host waits before it reports its disks (usb-storage's
 * delay_use, 1 s by default, then the SCSI scan): a host that appeared
 * with no disk yet holds the settle this long (within the settle bound),
 * or until a disk under it arrives. */
#define SCAN_HOST_WAIT_MS 3000
#define SCAN_HOSTS_MAX 16
#define SCAN_OWED_MAX 64 /* things owed at start (scan_owed.c) */

struct fs_root;

struct scan_job {
	atomic_int refs; /* the coordinator's and the worker's */
	pthread_mutex_t lock;
	bool abandoned, finished; /* under lock */
	struct scan *s;		  /* only while !abandoned */
	/* in */
	char devnode[PROBE_PATH_MAX];
	char target[PATH_MAX];
	bool no_mount, set_ro;
	uint64_t dev_size;
	char holders[PATH_MAX]; /* sysfs: who uses the device (md, dm) */
	bool is_vol;		/* a volume: map its windows first */
	unsigned stripes; /* > 1: the windows are stripes of @chunk bytes */
	uint64_t chunk;
	size_t n_win;
	struct vol_window win[VOL_WINDOWS_MAX]; /* source i: member[i] */
	char member[VOL_WINDOWS_MAX][PROBE_PATH_MAX];
	int (*mount_fn)(void *, const char *, const char *, const char *);
	void *mount_ctx;
	const char *(*filter_fn)(void *, const char *, const char *,
				 const char *);
	void *filter_ctx;
	char name[PROBE_NAME_MAX];
	/* out */
	const char *hidden; /* filter_fn's reason: not mounted */
	struct probe_result res;
	int mount_rc;
	bool mounted;
	int root_fd;
	char detail[MOUNT_DETAIL_MAX];
	char sub[BTRFS_PATH_MAX]; /* root_fd's directory in the mount */
	/* btrfs: the top level (O_PATH, or -1), the default subvolume, and
	 * every subvolume (btrfs_subvol_list(): malloc'd, the job's) */
	int top_fd;
	char def[BTRFS_PATH_MAX];
	char *subvols;
	size_t n_subvols;
	/* a member device's reading (kind VOL_LVM: pv, VOL_MD: md) */
	bool member_read;
	enum vol_kind kind;
	struct lvm_pv pv; /* its text is the job's until reaped */
	struct md_member md;
	/* a volume's mapping, while the job holds it */
	bool mapped;
	char map_dev[PROBE_PATH_MAX];
	/* a LUKS device's header (scan_luks_job_read()): luks_rc 0 with the
	 * facts, or -errno with luks_why (also "in use by dm-3") */
	bool luks;
	int luks_rc, luks_version;
	char luks_uuid[40], luks_label[48];
	char luks_why[256];
};

/* What makes a record a volume's rather than a block device's. */
struct scan_recvol {
	char group[VOL_GROUP_ID_MAX]; /* the VG id or md UUID */
	unsigned stripes; /* > 1: the windows are stripes of @chunk bytes */
	uint64_t chunk;
	size_t n_win;
	struct vol_window win[VOL_WINDOWS_MAX];	      /* source i: member[i] */
	char member[VOL_WINDOWS_MAX][PROBE_PATH_MAX]; /* device nodes */
	char member_name[PROBE_NAME_MAX]; /* the first's kernel name */
	char skip[160];			  /* planned not to map: why */
	char note[160];			  /* degraded: said when mounted */
	char map_dev[PROBE_PATH_MAX]; /* the loop or dm device while mounted */
	/* an unlocked LUKS volume (member_name is the LUKS device): map_dev
	 * is its dm-crypt device from scan_unlock() to the record's removal
	 * (it cannot be made again without the key), no windows */
	bool crypt;
};

/* A member device read (an LVM2 PV or an md member), for the plan. */
struct scan_volmem {
	struct scan_volmem *next;
	char dev[PROBE_NAME_MAX];
	char devnode[PROBE_PATH_MAX];
	enum vol_kind kind;
	struct lvm_pv pv; /* owns its text */
	struct md_member md;
};

struct scan_rec {
	struct scan_rec *next;
	struct scan_dev pub;
	struct probe_dev sys;
	struct fs_root *fs;	 /* while mounted */
	struct scan_job *job;	 /* running, or abandoned and maybe running */
	int64_t deadline_ms;	 /* of the running job */
	int64_t pending_ms;	 /* a probe is due then; 0: none */
	bool removed;		 /* gone: hidden from the views */
	struct scan_recvol *vol; /* a volume's record; NULL: a device's */
};

/* One filesystem the scan mounted, malloc'd: the struct fs_root handed
 * out with FS_ADDED and, for btrfs, its top level and subvolumes in @a;
 * its strings are the record's (scan_str()). On s->all_fs from its mount
 * until the caller hands it back with scan_release() after taking its
 * FS_REMOVED, or until scan_free(): a stick plugged and pulled any number
 * of times holds one at most. */
struct scan_fsnode {
	struct scan_fsnode *next;
	struct fs_root fs;
	struct arena a;
	bool taken; /* scan_next() handed out its FS_REMOVED */
};

static inline struct scan_fsnode *scan_fsnode_of(struct fs_root *fs)
{
	return (struct scan_fsnode *)((char *)fs -
				      offsetof(struct scan_fsnode, fs));
}

struct scan_evq {
	struct scan_evq *next;
	struct scan_event ev;
	struct fs_root *fs;
};

struct scan_host {
	char devpath[UEVENT_FIELD_MAX]; /* "/devices/.../1-1:1.0/host6" */
	int64_t since_ms;
	int limit_ms; /* owed entries: how long they may hold the settle */
};

struct scan_msg {
	struct scan_msg *next;
	size_t len;
	char buf[];
};

struct scan {
	struct scan_opts o;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* s->quiet became true */
	struct arena a;
	struct scan_rec *recs;
	/* every fs_root made and not handed back, to close at the end */
	struct scan_fsnode *all_fs;
	/* every string of the records, once (scan_str()): an open-addressing
	 * table, malloc'd, of copies in the arena; @strs_cap a power of 2 */
	const char **strs;
	size_t strs_cap, n_strs;
	struct scan_evq *evq, **evq_tail;
	struct scan_msg *inj, **inj_tail;
	int ev_fd, wake_fd, nl_fd;
	pthread_t thread;
	bool thread_up, stop, frozen;
	int running; /* jobs not finished nor abandoned */
	int64_t last_activity_ms, settle_deadline_ms;
	bool quiet, settled_sent;
	struct scan_host hosts[SCAN_HOSTS_MAX]; /* USB hosts with no disk yet */
	size_t n_hosts;
	/* what the kernel still owes before the first settle (scan_owed.c):
	 * what, and since when; since_ms INT64_MIN once given up on */
	struct scan_host owed[SCAN_OWED_MAX];
	size_t n_owed;
	bool was_owed; /* at the last look: wait one gap more once it came */
	int64_t started_ms;
	struct scan_volmem *vmembers; /* LVM2 and md members read */
	bool vol_settled;	      /* incomplete volumes are planned now */
};

/* --- scan_event.c: clock, eventfds, the queues */

/* CLOCK_MONOTONIC in milliseconds. */
int64_t scan_now_ms(void);

/* Make the eventfd @fd readable / read it empty again (a failure other
 * than EAGAIN is logged, nothing more). */
void scan_efd_poke(int fd);
void scan_efd_drain(int fd);

/* Queue an event for scan_next(); under s->lock. @fs and @name belong to
 * the scan. Out of memory: logged, the event is lost. */
void scan_ev_push(struct scan *s, enum scan_event_type type, struct fs_root *fs,
		  const char *name);

/* Zeroed memory of @size bytes, malloc'd; out of memory aborts, as
 * arena.h does. */
void *scan_calloc(size_t size);

/* @v as a string of the scan's (NULL stays NULL): the copy in the arena
 * made the first time that text came, so a device that comes back with
 * the same names, identities and reasons adds nothing. Under s->lock;
 * valid until scan_free(). */
const char *scan_str(struct scan *s, const char *v);

/* Free the events and injected uevents still queued (scan_free(), once
 * the coordinator is gone). */
void scan_queues_free(struct scan *s);

/* --- scan_coord.c */

/* The coordinator thread (pthread_create's start routine, @arg the
 * struct scan): lists sysfs, then follows uevents and jobs until
 * s->stop. Takes s->lock itself. Returns NULL. */
void *scan_coord_main(void *arg);

/* --- scan_record.c: the device records (under s->lock) */

/* The record of device @name, or NULL. */
struct scan_rec *scan_rec_find(struct scan *s, const char *name);

/* The record of @name, made (in the arena, marked removed until
 * scheduled) when there is none. */
struct scan_rec *scan_rec_get(struct scan *s, const char *name);

/* Set @r's state and reason (copied) and tell the caller. */
void scan_rec_set_state(struct scan *s, struct scan_rec *r, enum scan_state st,
			const char *reason);

/* Due for a probe at @when (ms): shown as probing again. */
void scan_rec_schedule(struct scan_rec *r, int64_t when);

/* The device is gone: abandon its job, unmount lazily, hide it; the
 * volumes on it go too. */
void scan_rec_remove(struct scan *s, struct scan_rec *r);

/* Start @r's probe now. False when it must wait (its old worker hangs). */
bool scan_rec_start(struct scan *s, struct scan_rec *r, int64_t now);

/* Take the result of @r's finished job: mounted (an FS_ADDED event),
 * skipped or failed; the job's reference is dropped. */
void scan_rec_reap(struct scan *s, struct scan_rec *r);

/* Plan the volumes from the members read (scan_vol_plan()) and make,
 * redo or keep their records. Returns how many records were scheduled
 * for a probe. */
int scan_rec_vol_update(struct scan *s, int64_t now);

/* The LUKS device @dev was unlocked and mapped at @map_dev (@size bytes):
 * the volume's record @vol_name, scheduled for a probe now, and
 * dev->pub.unlocked_as. Returns 0, or -EEXIST (a device of that name is
 * there: nothing changed, the caller unmaps) with a sentence. */
int scan_rec_luks_add(struct scan *s, struct scan_rec *dev,
		      const char *vol_name, const char *map_dev, uint64_t size,
		      char *err, size_t errlen);

/* --- scan_unmount.c */

/* Unmount @r's filesystem (lazily when @lazy: the device vanished) and
 * queue FS_REMOVED; its root fd is closed by scan_next(). Under s->lock;
 * no-op without one. */
void scan_rec_drop_fs(struct scan *s, struct scan_rec *r, bool lazy);

/* --- scan_worker.c: the jobs (s->lock held unless said otherwise) */

/* Start a worker probing (and mounting) @r's device. Returns 0, or
 * -ENOMEM / the -errno of pthread_create. r->job holds the new job. */
int scan_job_start(struct scan *s, struct scan_rec *r);

/* True once @j's worker is done with it (takes j->lock). */
bool scan_job_finished(struct scan_job *j);

/* Give up on @j: from now on its worker touches nothing of the scan. A
 * job already finished but not reaped has its fd and mount undone. */
void scan_job_abandon(struct scan *s, struct scan_job *j);

/* Close @j's root fd and undo its mount (unless a test's mount_fn made
 * it), lazily. */
void scan_job_release(struct scan_job *j);

/* Drop one of @j's two references; the last frees it. */
void scan_job_unref(struct scan_job *j);

/* Where device @name is mounted: @s's mount base, then @name. */
void scan_target(const struct scan *s, const char *name, char target[PATH_MAX]);

/* --- scan_luks.c: LUKS devices */

/* In the worker: @j's device is crypto_LUKS (the probe said so): unless
 * something other than bootmenu holds it (sysfs holders), read its header
 * with pread() only into j->luks_*. */
void scan_luks_job_read(struct scan_job *j);

/* @r's finished job read a LUKS header (j->luks): the record's luks_*
 * facts, and the state it is to have into *st with its reason in
 * why[0..len): locked ("LUKS2 'cr_root'"), failed (luks_read()'s
 * sentence) or skipped ("in use by dm-3"). False, changing nothing, when
 * @j did not read one. */
bool scan_luks_take(struct scan *s, struct scan_rec *r,
		    const struct scan_job *j, enum scan_state *st, char *why,
		    size_t len);

/* What a locked device's reason says: "LUKS2 'cr_root'", "LUKS1". */
void scan_luks_reason(int version, const char *label, char *out, size_t len);

/* The most memory an Argon2 keyslot may take: half of MemAvailable in
 * /proc/meminfo (KiB), or of the free RAM when that cannot be read. */
uint64_t scan_luks_mem_max_kib(void);

/* --- scan_usb.c: USB storage hosts (under s->lock) */

/* At start: USB hosts already there whose disks are not (yet). */
void scan_hosts_from_sysfs(struct scan *s, int64_t now);

/* A USB storage host came or went (its disks follow a second later);
 * any usb uevent counts as activity. True when @ev was a host's. */
bool scan_on_host_uevent(struct scan *s, const struct uevent *ev, int64_t now);

/* Forget the hosts that @devpath is (removed) or is under (their disk). */
void scan_host_forget(struct scan *s, const char *devpath);

/* True while a host may still report a disk; drops those that waited
 * SCAN_HOST_WAIT_MS. */
bool scan_hosts_pending(struct scan *s, int64_t now);

/* --- scan_owed.c: settling by knowing (under s->lock) */

/* Before the first settle, the disks made at power-on are all known once
 * nothing is owed and no uevent came for SCAN_KNOWN_GAP_MS. */
#define SCAN_KNOWN_GAP_MS 50

/* True while USB or MMC may still report a disk present at power-on: a
 * connected hub port not enumerated yet, a port not powered yet, a device
 * being configured, a storage interface with no SCSI host, an MMC host
 * with no card within SCAN_QUIET_MS of the start. Each holds at most
 * SCAN_HOST_WAIT_MS from when it was first seen. */
bool scan_owed(struct scan *s, int64_t now);

/* Whether @dir has an entry whose name starts with @prefix; its path into
 * @out (@n bytes) unless @out is NULL (false when it does not fit). */
bool scan_child_named(const char *dir, const char *prefix, char *out, size_t n);

/* --- scan_vol.c: volumes (s->lock held unless said otherwise) */

/* In the worker: @j's device is an LVM2 PV or md member (the probe said
 * so): unless the kernel already uses it (sysfs holders), read it with
 * pread() only. What it found goes into j->res.detail for the device
 * list; j->member_read says whether there is a reading to plan with. */
void scan_vol_job_read(struct scan_job *j);

/* In the worker: map @j's windows (a volume's job) as a read-only loop
 * device and make it the device probed. Returns 0, or -errno with
 * j->res filled as a failure. */
int scan_vol_job_map(struct scan_job *j);

/* Set up @j for @r's volume (job_new()'s part for volume records). */
void scan_vol_job_init(const struct scan_rec *r, struct scan_job *j);

/* @r's job finished, before its result is taken: the record takes a
 * mapping the job made (now r->vol's to remove). */
void scan_vol_take_map(struct scan *s, struct scan_rec *r, struct scan_job *j);

/* @r's job finished, after its result was taken: a mapping that did not
 * get mounted (nor holds a PV) is removed; a member's reading is kept.
 * True when it was: the volumes are to be planned again. */
bool scan_vol_reaped(struct scan *s, struct scan_rec *r, struct scan_job *j);

/* Device @name (a member, maybe) went away or changed: its reading is
 * forgotten. False when it had none; else true with the group it was of
 * ("" when it had no VG text) in @group, whose volumes are to go. */
bool scan_vol_member_drop(struct scan *s, const char *name,
			  char group[VOL_GROUP_ID_MAX]);

/* The volumes planned from the members read: vol_plan()'s items, whose
 * window sources index @mems. */
struct scan_volplan {
	struct vol_plan_item *items; /* calloc'd: scan_vol_plan_free() */
	size_t n;
	struct scan_volmem *mems[VOL_PLAN_MEMBERS_MAX]; /* s->vmembers' */
};

/* Plan the volumes from s->vmembers into @p (valid until the next
 * change to s->vmembers). Returns 0, or -ENOMEM (logged) with nothing
 * to free; a failure of the plan itself is logged and leaves what it
 * planned. */
int scan_vol_plan(struct scan *s, struct scan_volplan *p);
void scan_vol_plan_free(struct scan_volplan *p);

/* Does @r's volume (r->vol set) stand as @p's item @it says? */
bool scan_vol_as_planned(const struct scan_rec *r, const struct scan_volplan *p,
			 const struct vol_plan_item *it);

/* Make @r (fresh or removed) the volume @p's item @it says: r->vol (in
 * the arena when new) and its device-list fields. */
void scan_vol_fill(struct scan *s, struct scan_rec *r,
		   const struct scan_volplan *p,
		   const struct vol_plan_item *it);

/* True when /dev/@name is a loop device the scan made for a volume. */
bool scan_vol_owns(struct scan *s, const char *name);

/* Remove @r's mapping, if it has one (after its filesystem is gone); an
 * unlocked LUKS volume's stays (scan_vol_close()). */
void scan_vol_unmap(struct scan_rec *r);

/* Remove @r's mapping whatever it is: the record goes, or all do. */
void scan_vol_close(struct scan_rec *r);

/* The first holder in the sysfs holders directory @dir that is not one of
 * bootmenu's own tables, into @out: 0, or -ENOENT when there is none. */
int scan_vol_holder(const char *dir, char *out, size_t len);

/* Free the member readings (scan_free()). */
void scan_vol_free(struct scan *s);

#endif
