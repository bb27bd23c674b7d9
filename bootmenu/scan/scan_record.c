/* scan_record.c - the device records: one per block device the scan has
 * seen, in the scan's arena, under s->lock, their strings each kept once
 * (scan_str()): a device probed again adds only what it says anew. A
 * record is scheduled (a probe due), probing (its job runs), then mounted,
 * skipped, failed or timed out; removed when the device goes, scheduled
 * again when it changes. A volume's record is made here too, from scan_vol.c's
 * plan.
 *
 * The owner of the records: it calls the files below it (scan_worker.c
 * for the jobs, scan_unmount.c, scan_vol.c for the readings and the plan)
 * and none of them calls it; the coordinator drives it.
 */
#include "scan/fs.h"
#include "scan/scan_int.h"
#include "util/log.h"
#include "util/say.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct scan_rec *scan_rec_find(struct scan *s, const char *name)
{
	for (struct scan_rec *r = s->recs; r; r = r->next)
		if (!strcmp(r->pub.name, name))
			return r;
	return NULL;
}

struct scan_rec *scan_rec_get(struct scan *s, const char *name)
{
	struct scan_rec *r = scan_rec_find(s, name), **tail;

	if (r)
		return r;
	r = arena_alloc(&s->a, sizeof(*r));
	r->pub.name = scan_str(s, name);
	r->pub.disk = r->pub.name;
	r->pub.devnode = r->pub.fstype = r->pub.uuid = r->pub.label = "";
	r->pub.partuuid = r->pub.partlabel = r->pub.pttype = "";
	r->pub.luks_uuid = r->pub.luks_label = r->pub.unlocked_as = "";
	r->pub.members = "";
	r->removed = true; /* until something schedules it */
	for (tail = &s->recs; *tail; tail = &(*tail)->next)
		;
	*tail = r;
	return r;
}

void scan_rec_set_state(struct scan *s, struct scan_rec *r, enum scan_state st,
			const char *reason)
{
	r->pub.state = st;
	r->pub.reason = scan_str(s, reason);
	scan_ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
}

void scan_rec_schedule(struct scan_rec *r, int64_t when)
{
	r->pending_ms = when;
	r->removed = false;
	r->pub.state = SCAN_DEV_PROBING;
	r->pub.reason = NULL;
}

/* --- volumes: the records of the plan (scan_vol.c plans) */

/* Make, redo or keep the record of the volume @it of @p. Returns 1 when
 * a probe of it was scheduled. */
static int rec_vol_record(struct scan *s, const struct scan_volplan *p,
			  const struct vol_plan_item *it, int64_t now)
{
	struct scan_rec *r = scan_rec_find(s, it->v.name);

	if (r && !r->vol && !r->removed) {
		log_warn("scan: volume %s: a device of that name is there: "
			 "not shown",
			 it->v.name);
		return 0;
	}
	if (r && !r->removed && scan_vol_as_planned(r, p, it))
		return 0;
	if (r)
		scan_rec_remove(s, r); /* planned otherwise now: again */
	r = scan_rec_get(s, it->v.name);
	scan_vol_fill(s, r, p, it);
	if (it->v.skip[0]) {
		r->removed = false;
		r->pending_ms = 0;
		scan_rec_set_state(s, r, SCAN_DEV_SKIPPED, it->v.skip);
		log_info("scan: %s: skipped: %s", it->v.name, it->v.skip);
		return 0;
	}
	if (it->note[0])
		log_warn("scan: %s", it->note);
	scan_rec_schedule(r, now);
	return 1;
}

int scan_rec_vol_update(struct scan *s, int64_t now)
{
	struct scan_volplan p;
	int scheduled = 0;

	if (scan_vol_plan(s, &p) < 0)
		return 0;
	for (size_t i = 0; i < p.n; i++)
		scheduled += rec_vol_record(s, &p, &p.items[i], now);
	scan_vol_plan_free(&p);
	return scheduled;
}

/* Device @name (a member, maybe) went away or changed: its reading is
 * forgotten, the volumes of its group (or on it) are removed, the rest
 * planned again. */
static void rec_member_gone(struct scan *s, const char *name)
{
	char group[VOL_GROUP_ID_MAX];

	if (!scan_vol_member_drop(s, name, group))
		return;
	for (struct scan_rec *r = s->recs; r; r = r->next)
		if (r->vol && !r->removed &&
		    ((group[0] && !strcmp(r->vol->group, group)) ||
		     !strcmp(r->vol->member_name, name)))
			scan_rec_remove(s, r);
	scan_rec_vol_update(s, scan_now_ms());
}

/* @r (a LUKS device) is gone or changes: the volume it was unlocked as
 * goes, its mapping with it. */
static void rec_luks_lock(struct scan *s, struct scan_rec *r)
{
	struct scan_rec *v;

	if (!r->pub.unlocked_as[0])
		return;
	v = scan_rec_find(s, r->pub.unlocked_as);
	r->pub.unlocked_as = "";
	if (v && v->vol && v->vol->crypt)
		scan_rec_remove(s, v);
}

void scan_rec_remove(struct scan *s, struct scan_rec *r)
{
	if (r->removed)
		return;
	r->pending_ms = 0;
	if (r->job && !r->job->abandoned)
		scan_job_abandon(s, r->job);
	scan_rec_drop_fs(s, r, true);
	scan_vol_close(r); /* one kept unmounted: a PV on an md mirror */
	r->removed = true;
	rec_luks_lock(s, r);
	rec_member_gone(s, r->pub.name); /* its volumes go with it */
	log_info("scan: %s removed", r->pub.name);
	scan_ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
}

int scan_rec_luks_add(struct scan *s, struct scan_rec *dev,
		      const char *vol_name, const char *map_dev, uint64_t size,
		      char *err, size_t errlen)
{
	struct scan_rec *r = scan_rec_find(s, vol_name);
	char why[160];

	if (r && !r->removed)
		return say(err, errlen, -EEXIST,
			   "a volume %s is there already (another device "
			   "with the same LUKS UUID?)",
			   vol_name);
	r = scan_rec_get(s, vol_name);
	if (!r->vol) /* unlocked before: its record is reused */
		r->vol = arena_alloc(&s->a, sizeof(*r->vol));
	memset(r->vol, 0, sizeof(*r->vol));
	r->vol->crypt = true;
	snprintf(r->vol->map_dev, sizeof(r->vol->map_dev), "%s", map_dev);
	snprintf(r->vol->member_name, sizeof(r->vol->member_name), "%s",
		 dev->pub.name);
	snprintf(r->sys.devnode, sizeof(r->sys.devnode), "%s", map_dev);
	r->sys.size = size;
	r->pub.disk = r->pub.name;
	r->pub.devnode = scan_str(s, map_dev);
	r->pub.size = size;
	r->pub.removable = dev->pub.removable;
	dev->pub.unlocked_as = r->pub.name;
	snprintf(why, sizeof(why), "unlocked as %s", vol_name);
	scan_rec_set_state(s, dev, SCAN_DEV_SKIPPED, why);
	scan_rec_schedule(r, scan_now_ms());
	scan_ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
	scan_efd_poke(s->wake_fd);
	return 0;
}

/* --- results of a finished job */

static const char *dup0(struct scan *s, const char *v)
{
	return scan_str(s, v ? v : "");
}

static void rec_take_probe(struct scan *s, struct scan_rec *r,
			   const struct probe_result *p)
{
	r->pub.luks_version = 0; /* scan_luks_take() says, when LUKS */
	r->pub.luks_uuid = r->pub.luks_label = "";
	r->pub.fstype = dup0(s, p->type);
	r->pub.uuid = dup0(s, p->uuid);
	r->pub.label = dup0(s, p->label);
	r->pub.partuuid = dup0(s, p->partuuid);
	r->pub.partlabel = dup0(s, p->partlabel);
	r->pub.pttype = dup0(s, p->part_scheme[0] ? p->part_scheme : p->pttype);
	if (p->partno > 0)
		r->pub.partno = p->partno;
	r->pub.esp = p->esp;
	r->pub.xbootldr = p->xbootldr;
}

/* @n's filesystem is btrfs: its top level and subvolumes, from @j, in
 * @n's arena. */
static void rec_add_btrfs(struct scan_fsnode *n, struct scan_job *j)
{
	struct fs_root *fs = &n->fs;
	const char *sv[FS_SUBVOL_MAX];
	const char *p = j->subvols;
	size_t k;

	for (k = 0; k < j->n_subvols && k < FS_SUBVOL_MAX; k++) {
		sv[k] = p;
		p += strlen(p) + 1;
	}
	if (fs_root_add_btrfs(fs, &n->a, j->top_fd, j->sub, j->def, sv, k) < 0)
		log_info("scan: %s: btrfs top level not kept: grub paths "
			 "start at the default subvolume",
			 fs->name);
}

/* A new fs_root (scan_int.h: struct scan_fsnode) for @r's mount. */
static struct fs_root *rec_make_fs(struct scan *s, struct scan_rec *r,
				   struct scan_job *j)
{
	struct scan_fsnode *n = scan_calloc(sizeof(*n));
	struct fs_root *fs = &n->fs;
	const struct scan_dev *d = &r->pub;
	char mp[sizeof(j->target) + sizeof(j->sub) + 1];

	fs->root_fd = j->root_fd;
	j->root_fd = -1;
	fs->name = d->name;
	fs->device = d->devnode;
	fs->fstype = d->fstype;
	fs->uuid = *d->uuid ? d->uuid : NULL;
	fs->label = *d->label ? d->label : NULL;
	fs->partuuid = *d->partuuid ? d->partuuid : NULL;
	fs->partlabel = *d->partlabel ? d->partlabel : NULL;
	snprintf(mp, sizeof(mp), "%s%s%s", j->target, j->sub[0] ? "/" : "",
		 j->sub);
	fs->mountpoint = scan_str(s, mp);
	fs->casefold = !strcmp(d->fstype, "vfat");
	fs->esp = d->esp;
	fs->partno = d->partno > 0 ? (unsigned)d->partno : 0;
	fs->part_start = r->sys.start / 512;
	fs->part_size = r->sys.size / 512;
	fs->xbootldr = d->xbootldr;
	fs->removable = d->removable;
	fs->volume = r->vol != NULL;
	fs->priv = r;
	if (j->top_fd >= 0)
		rec_add_btrfs(n, j);
	j->top_fd = -1;
	n->next = s->all_fs;
	s->all_fs = n;
	return fs;
}

void scan_rec_reap(struct scan *s, struct scan_rec *r)
{
	struct scan_job *j = r->job;
	const struct probe_result *p = &j->res;
	char why[PROBE_DETAIL_MAX + MOUNT_DETAIL_MAX + 64];
	enum scan_state st;

	s->running--;
	r->job = NULL;
	scan_vol_take_map(s, r, j);
	rec_take_probe(s, r, p);
	snprintf(why, sizeof(why), "%s%s%s", p->skip ? p->skip : j->detail,
		 p->skip && p->detail[0] ? ": " : "", p->skip ? p->detail : "");
	if (scan_luks_take(s, r, j, &st, why, sizeof(why))) {
		scan_rec_set_state(s, r, st, why); /* locked, or why not */
	} else if (p->skip) {
		scan_rec_set_state(
		    s, r, p->rc < 0 ? SCAN_DEV_FAILED : SCAN_DEV_SKIPPED, why);
	} else if (j->hidden) {
		scan_rec_set_state(s, r, SCAN_DEV_SKIPPED, j->hidden);
	} else if (s->o.no_mount) {
		scan_rec_set_state(s, r, SCAN_DEV_SKIPPED,
				   "not mounted (probe only)");
	} else if (j->mount_rc < 0) {
		scan_job_release(j);
		scan_rec_set_state(s, r,
				   j->mount_rc == -EPROTONOSUPPORT
				       ? SCAN_DEV_SKIPPED
				       : SCAN_DEV_FAILED,
				   why);
	} else {
		r->fs = rec_make_fs(s, r, j);
		r->pub.fs = r->fs;
		log_info("scan: %s: %s at %s", r->pub.name, r->pub.fstype,
			 r->fs->mountpoint);
		scan_ev_push(s, SCAN_EV_FS_ADDED, r->fs, r->pub.name);
		scan_rec_set_state(s, r, SCAN_DEV_MOUNTED, j->detail);
	}
	if (r->pub.state != SCAN_DEV_MOUNTED)
		log_info("scan: %s: %s: %s", r->pub.name,
			 scan_state_name(r->pub.state),
			 r->pub.reason ? r->pub.reason : "");
	if (scan_vol_reaped(s, r, j))
		scan_rec_vol_update(s, scan_now_ms());
	scan_job_unref(j);
}

/* --- starting a probe */

static void rec_take_sys(struct scan *s, struct scan_rec *r)
{
	r->pub.disk = scan_str(s, r->sys.disk);
	r->pub.devnode = scan_str(s, r->sys.devnode);
	r->pub.partno = r->sys.partno;
	r->pub.size = r->sys.size;
	r->pub.removable = r->sys.removable;
}

/* Why @r is not to be probed at all (sysfs, or the filter asked by name
 * only), or NULL. */
static const char *rec_unprobed(struct scan *s, const struct scan_rec *r)
{
	if (r->sys.skip)
		return r->sys.skip;
	if (r->sys.partno > 0 && r->sys.start == 0)
		return probe_skip_overlap;
	if (s->o.filter_fn)
		return s->o.filter_fn(s->o.filter_ctx, r->pub.name, NULL, NULL);
	return NULL;
}

/* A device record's sysfs side, before its job: false when there is to
 * be no job (gone, or skipped with its reason set). */
static bool rec_ready(struct scan *s, struct scan_rec *r)
{
	unsigned flags = s->o.loop ? PROBE_SYSFS_LOOP : 0;
	const char *why;
	int rc;

	rec_member_gone(s, r->pub.name); /* read again from scratch */
	rc = probe_sysfs_dev(s->o.sysfs, s->o.devdir, r->pub.name, flags,
			     &r->sys);
	if (rc < 0 || scan_vol_owns(s, r->pub.name)) {
		r->removed = true; /* gone, or a volume's own loop device */
		scan_ev_push(s, SCAN_EV_DEVICE, NULL, r->pub.name);
		return false;
	}
	rec_take_sys(s, r);
	why = rec_unprobed(s, r);
	if (why) {
		scan_rec_set_state(s, r, SCAN_DEV_SKIPPED, why);
		return false;
	}
	return true;
}

bool scan_rec_start(struct scan *s, struct scan_rec *r, int64_t now)
{
	int rc;

	if (r->job) {
		if (!scan_job_finished(r->job))
			return false;
		scan_job_unref(r->job); /* an abandoned worker came back */
		r->job = NULL;
	}
	r->pending_ms = 0;
	scan_rec_drop_fs(s, r, false); /* a change: probe again from scratch */
	rec_luks_lock(s, r);
	if (!r->vol && !rec_ready(s, r))
		return true;
	rc = scan_job_start(s, r);
	if (rc < 0) {
		scan_rec_set_state(s, r, SCAN_DEV_FAILED, strerror(-rc));
		return true;
	}
	r->deadline_ms = now + (int64_t)(s->o.timeout_s * 1000);
	scan_rec_set_state(s, r, SCAN_DEV_PROBING, NULL);
	return true;
}
