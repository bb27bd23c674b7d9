/* scan_vol.c - LVM2 logical volumes and md RAID1 mirrors in the scan.
 *
 * A device the probe calls an LVM2 PV or a RAID member is read (pread()
 * only, never written) by its job, unless the running kernel already
 * uses it: a device with holders in sysfs (other than bootmenu's own
 * device-mapper tables) is dm's or md's, and the volume on it shows up
 * as that kernel device. The readings are planned
 * (vol/plan.h); each volume becomes a record of its own, named as lvs or
 * mdadm would ("vgsys/boot", "md0", "md/boot"), whose job maps it
 * read-only (a loop device over one window, a device-mapper table over
 * several), then probes and mounts that like a partition; a volume that
 * holds an LVM2 PV (LVM on an md mirror) is read as a member in turn.
 * The mapping lives as long as the mount, or the PV on it: it goes with
 * the record, its member, and in scan_unmount_all().
 *
 * An unlocked LUKS volume (scan_unlock.c) is a volume record too, with
 * no windows: its dm-crypt device is made before the record and kept
 * until the record goes (without the key it cannot be made again), so
 * its job only probes it, and a filesystem dropped on a change keeps it.
 *
 * This file reads, keeps and plans; the records are scan_record.c's,
 * which asks for the plan and makes, redoes or removes the volumes'
 * records itself. It calls no other scan_*.c file.
 */
#include "scan/scan_int.h"
#include "util/file.h"
#include "util/log.h"
#include "vol/dm.h"
#include "vol/map.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCAN_VOL_ITEMS_MAX 256 /* volumes planned at once */

/* --- in the worker */

/* Is the sysfs block device directory @dir a device-mapper table of
 * bootmenu's (VOL_DM_PREFIX), made by this scan or a bootmenu before it? */
static bool dm_ours_at(const char *dir)
{
	char path[PATH_MAX + 16], dm[DM_NAME_LEN] = "";

	snprintf(path, sizeof(path), "%s/dm/name", dir);
	return util_read_small(AT_FDCWD, path, dm, sizeof(dm)) == 0 &&
	       !strncmp(dm, VOL_DM_PREFIX, strlen(VOL_DM_PREFIX));
}

int scan_vol_holder(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX + NAME_MAX + 2];
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = -ENOENT;

	if (!d)
		return -ENOENT;
	while (rc < 0 && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] != '.' && !dm_ours_at(path)) {
			snprintf(out, len, "%.*s", (int)len - 1, de->d_name);
			rc = 0;
		}
	}
	closedir(d);
	return rc;
}

/* What the device list says of a member that was read. */
static void member_detail(struct scan_job *j)
{
	char *d = j->res.detail;
	size_t n = sizeof(j->res.detail);

	if (j->kind == VOL_MD)
		snprintf(d, n, "member of %s (%s)", j->md.name, j->md.version);
	else if (j->pv.text)
		snprintf(d, n, "volume group %.100s", j->pv.vg_name);
	else
		snprintf(d, n, "holds no copy of its volume group's metadata");
}

void scan_vol_job_read(struct scan_job *j)
{
	char err[160] = "", holder[NAME_MAX + 1];
	uint64_t size = j->dev_size;
	int fd, rc;

	if (scan_vol_holder(j->holders, holder, sizeof(holder)) == 0) {
		snprintf(j->res.detail, sizeof(j->res.detail),
			 "in use by %.60s", holder);
		return;
	}
	fd = open(j->devnode, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(j->res.detail, sizeof(j->res.detail),
			 "cannot be opened: %s", strerror(errno));
		return;
	}
	j->kind = j->res.skip == probe_skip_lvm ? VOL_LVM : VOL_MD;
	if (!size) {
		off_t end = lseek(fd, 0, SEEK_END);

		size = end > 0 ? (uint64_t)end : 0;
	}
	if (j->kind == VOL_LVM)
		rc = lvm_pv_read(fd, &j->pv, err, sizeof(err));
	else
		rc = md_member_read(fd, size, &j->md, err, sizeof(err));
	close(fd);
	if (rc < 0) {
		lvm_pv_free(&j->pv);
		snprintf(j->res.detail, sizeof(j->res.detail), "%.120s", err);
		return;
	}
	j->member_read = true;
	member_detail(j);
}

int scan_vol_job_map(struct scan_job *j)
{
	char err[PROBE_DETAIL_MAX] = "", dev[PROBE_PATH_MAX] = "";
	const char *members[VOL_WINDOWS_MAX];
	int rc;

	for (size_t i = 0; i < j->n_win; i++)
		members[i] = j->member[i];
	rc = vol_map(j->name, j->win, j->n_win, j->stripes, j->chunk, members,
		     dev, sizeof(dev), err, sizeof(err));

	if (rc < 0) {
		memset(&j->res, 0, sizeof(j->res));
		j->res.rc = rc;
		j->res.skip = probe_skip_error;
		snprintf(j->res.detail, sizeof(j->res.detail), "%s", err);
		return rc;
	}
	pthread_mutex_lock(&j->lock); /* scan_vol_owns() looks */
	snprintf(j->map_dev, sizeof(j->map_dev), "%s", dev);
	j->mapped = true;
	pthread_mutex_unlock(&j->lock);
	snprintf(j->devnode, sizeof(j->devnode), "%s", dev);
	return 0;
}

/* --- in the coordinator */

void scan_vol_job_init(const struct scan_rec *r, struct scan_job *j)
{
	j->holders[0] = '\0'; /* nothing holds a mapping made for us */
	if (r->vol->crypt) {  /* mapped by scan_unlock(): probed as it is */
		snprintf(j->devnode, sizeof(j->devnode), "%s", r->vol->map_dev);
		return;
	}
	j->is_vol = true;
	j->devnode[0] = '\0'; /* the loop or dm device, once mapped */
	j->n_win = r->vol->n_win;
	j->stripes = r->vol->stripes;
	j->chunk = r->vol->chunk;
	memcpy(j->win, r->vol->win, sizeof(j->win));
	memcpy(j->member, r->vol->member, sizeof(j->member));
}

void scan_vol_unmap(struct scan_rec *r)
{
	if (r->vol && !r->vol->crypt)
		scan_vol_close(r);
}

void scan_vol_close(struct scan_rec *r)
{
	int rc;

	if (!r->vol || !r->vol->map_dev[0])
		return;
	rc = r->vol->crypt ? vol_unmap_crypt(r->vol->map_dev)
			   : vol_unmap(r->vol->map_dev);
	if (rc < 0)
		log_warn("scan: %s: cannot remove the mapping %s: %s",
			 r->pub.name, r->vol->map_dev, strerror(-rc));
	r->vol->map_dev[0] = '\0';
	r->pub.devnode = "";
}

/* Keep @j's reading of @r's device for the plan (replacing an older). */
static void member_keep(struct scan *s, const struct scan_rec *r,
			struct scan_job *j)
{
	struct scan_volmem *m, **pp = &s->vmembers;

	while (*pp && strcmp((*pp)->dev, r->pub.name))
		pp = &(*pp)->next;
	m = *pp ? *pp : calloc(1, sizeof(*m));
	if (!m) {
		log_err("scan: %s: out of memory for its volumes", r->pub.name);
		return;
	}
	lvm_pv_free(&m->pv);
	snprintf(m->dev, sizeof(m->dev), "%s", r->pub.name);
	snprintf(m->devnode, sizeof(m->devnode), "%s",
		 r->vol ? r->vol->map_dev : r->sys.devnode);
	m->kind = j->kind;
	m->pv = j->pv;
	j->pv.text = NULL; /* the reading's now */
	m->md = j->md;
	if (!*pp)
		*pp = m;
}

void scan_vol_take_map(struct scan *s, struct scan_rec *r, struct scan_job *j)
{
	if (r->vol && j->mapped) { /* the record holds it now */
		snprintf(r->vol->map_dev, sizeof(r->vol->map_dev), "%s",
			 j->map_dev);
		r->pub.devnode = scan_str(s, j->map_dev);
		j->mapped = false;
	}
}

bool scan_vol_reaped(struct scan *s, struct scan_rec *r, struct scan_job *j)
{
	/* a mapping stays while mounted, while it is a PV (LVM on md), or
	 * while it holds a LUKS volume to unlock (LUKS on LVM) */
	if (r->vol && r->pub.state != SCAN_DEV_MOUNTED &&
	    r->pub.state != SCAN_DEV_LOCKED && !j->member_read)
		scan_vol_unmap(r);
	else if (r->vol && r->vol->note[0])
		r->pub.reason = scan_str(s, r->vol->note);
	if (!j->member_read)
		return false;
	member_keep(s, r, j);
	return true;
}

/* The group a member's reading belongs to ("" when it has no VG text). */
static const char *member_group(const struct scan_volmem *m)
{
	if (m->kind == VOL_MD)
		return m->md.uuid_str;
	return m->pv.text ? m->pv.vg_id : "";
}

bool scan_vol_member_drop(struct scan *s, const char *name,
			  char group[VOL_GROUP_ID_MAX])
{
	struct scan_volmem *m, **pp = &s->vmembers;

	while (*pp && strcmp((*pp)->dev, name))
		pp = &(*pp)->next;
	m = *pp;
	if (!m)
		return false;
	*pp = m->next;
	snprintf(group, VOL_GROUP_ID_MAX, "%s", member_group(m));
	lvm_pv_free(&m->pv);
	free(m);
	return true;
}

/* --- the plan, for the records */

int scan_vol_plan(struct scan *s, struct scan_volplan *p)
{
	struct vol_member vm[VOL_PLAN_MEMBERS_MAX];
	size_t n = 0;
	int rc;

	p->n = 0;
	p->items = calloc(SCAN_VOL_ITEMS_MAX, sizeof(*p->items));
	if (!p->items) {
		log_err("scan: out of memory for the volumes");
		return -ENOMEM;
	}
	for (struct scan_volmem *m = s->vmembers; m && n < VOL_PLAN_MEMBERS_MAX;
	     m = m->next, n++) {
		p->mems[n] = m;
		vm[n] = (struct vol_member){m->dev, m->kind, &m->pv, &m->md};
	}
	rc = vol_plan(vm, n, s->vol_settled, p->items, SCAN_VOL_ITEMS_MAX,
		      &p->n);
	if (rc < 0)
		log_warn("scan: volumes: %s", strerror(-rc));
	return 0;
}

void scan_vol_plan_free(struct scan_volplan *p)
{
	free(p->items);
	p->items = NULL;
	p->n = 0;
}

bool scan_vol_as_planned(const struct scan_rec *r, const struct scan_volplan *p,
			 const struct vol_plan_item *it)
{
	const struct scan_recvol *v = r->vol;

	if (strcmp(v->group, it->group) || strcmp(v->skip, it->v.skip) ||
	    v->n_win != it->v.n || v->stripes != it->v.stripes ||
	    v->chunk != it->v.chunk)
		return false;
	for (size_t i = 0; i < it->v.n; i++)
		if (strcmp(v->member[i], p->mems[it->v.w[i].source]->devnode) ||
		    v->win[i].offset != it->v.w[i].offset ||
		    v->win[i].size != it->v.w[i].size)
			return false;
	return true;
}

/* The names of @it's member devices, each once, space separated: which
 * devices a volume is made of, for scan_dev.members. */
static const char *vol_members(struct scan *s, const struct scan_volplan *p,
			       const struct vol_plan_item *it)
{
	char buf[VOL_WINDOWS_MAX * (PROBE_NAME_MAX + 1)] = "";
	size_t used = 0;

	for (size_t i = 0; i < it->v.n; i++) {
		const char *dev = p->mems[it->v.w[i].source]->dev;
		size_t k = strlen(dev);
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(p->mems[it->v.w[j].source]->dev, dev);
		if (seen || used + k + 2 > sizeof(buf))
			continue;
		if (used)
			buf[used++] = ' ';
		memcpy(buf + used, dev, k + 1);
		used += k;
	}
	return scan_str(s, buf);
}

void scan_vol_fill(struct scan *s, struct scan_rec *r,
		   const struct scan_volplan *p, const struct vol_plan_item *it)
{
	struct scan_recvol *v = r->vol;

	if (!v)
		v = r->vol = arena_alloc(&s->a, sizeof(*v));
	memset(v, 0, sizeof(*v));
	snprintf(v->group, sizeof(v->group), "%s", it->group);
	snprintf(v->skip, sizeof(v->skip), "%s", it->v.skip);
	snprintf(v->note, sizeof(v->note), "%s", it->note);
	v->n_win = it->v.n;
	v->stripes = it->v.stripes;
	v->chunk = it->v.chunk;
	for (size_t i = 0; i < it->v.n; i++) {
		const struct scan_volmem *m = p->mems[it->v.w[i].source];

		snprintf(v->member[i], sizeof(v->member[i]), "%s", m->devnode);
		if (i == 0)
			snprintf(v->member_name, sizeof(v->member_name), "%s",
				 m->dev);
		v->win[i] = it->v.w[i];
		v->win[i].source = (int)i;
	}
	r->pub.disk = r->pub.name;
	r->pub.devnode = r->pub.fstype = r->pub.uuid = r->pub.label = "";
	r->pub.partuuid = r->pub.partlabel = r->pub.pttype = "";
	r->pub.partno = 0;
	r->pub.size = it->v.size;
	r->pub.removable = false;
	r->pub.members = vol_members(s, p, it);
}

/* Is @name one of bootmenu's tables? Its uevent may come before the
 * job says which device it made. */
static bool dm_ours(const struct scan *s, const char *name)
{
	char dir[PATH_MAX];

	if (strncmp(name, "dm-", 3))
		return false;
	snprintf(dir, sizeof(dir), "%s/class/block/%s", s->o.sysfs, name);
	return dm_ours_at(dir);
}

bool scan_vol_owns(struct scan *s, const char *name)
{
	bool owns = dm_ours(s, name);

	for (struct scan_rec *r = s->recs; r && !owns; r = r->next) {
		const char *dev = r->vol ? r->vol->map_dev : "";
		struct scan_job *j = r->vol ? r->job : NULL;

		owns = dev[0] && !strcmp(strrchr(dev, '/') + 1, name);
		if (j && !owns) {
			pthread_mutex_lock(&j->lock);
			dev = strrchr(j->map_dev, '/');
			owns = j->mapped && dev && !strcmp(dev + 1, name);
			pthread_mutex_unlock(&j->lock);
		}
	}
	return owns;
}

void scan_vol_free(struct scan *s)
{
	while (s->vmembers) {
		struct scan_volmem *m = s->vmembers;

		s->vmembers = m->next;
		lvm_pv_free(&m->pv);
		free(m);
	}
}
