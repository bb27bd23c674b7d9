/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.c - which volumes the scan maps now, from the members it has read.
 * Pure: the members' parsed results in, plan items out. */
#include "vol/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One group's view: the plan state shared by the LVM and md halves. */
struct plan {
	const struct vol_member *m;
	size_t n;
	bool settled;
	struct vol_plan_item *out;
	size_t max, count;
};

/* The next free item, or NULL when out is full. */
static struct vol_plan_item *plan_item(struct plan *p)
{
	if (p->count == p->max)
		return NULL;
	memset(&p->out[p->count], 0, sizeof(p->out[0]));
	return &p->out[p->count++];
}

/* --- LVM2: one group per VG id */

static bool is_pv_with_vg(const struct vol_member *m, const char *vg_id)
{
	return m->kind == VOL_LVM && m->pv && m->pv->text &&
	       !strcmp(m->pv->vg_id, vg_id);
}

/* The member holding the VG's newest metadata (lvm_newest()'s rule). */
static size_t lvm_newest_member(const struct plan *p, const char *vg_id)
{
	size_t best = p->n;

	for (size_t i = 0; i < p->n; i++)
		if (is_pv_with_vg(&p->m[i], vg_id) &&
		    (best == p->n || p->m[i].pv->seqno > p->m[best].pv->seqno))
			best = i;
	return best;
}

/* How many of @vg's PVs no member is. */
static size_t lvm_missing(const struct lvm_vg *vg, const char *const *uuids,
			  size_t n)
{
	size_t missing = 0;

	for (size_t k = 0; k < vg->n_pv && k < LVM_PVS_MAX; k++) {
		size_t i = 0;

		while (i < n && !(uuids[i] && !strcmp(uuids[i], vg->pv[k].id)))
			i++;
		missing += i == n;
	}
	return missing;
}

/* Append @v as an item of the group @id / @name. Returns 0 or -E2BIG. */
static int plan_add(struct plan *p, const char *id, const char *name,
		    const struct vol *v, const char *note)
{
	struct vol_plan_item *it = plan_item(p);

	if (!it)
		return -E2BIG;
	snprintf(it->group, sizeof(it->group), "%s", id);
	snprintf(it->group_name, sizeof(it->group_name), "%s", name);
	it->v = *v;
	snprintf(it->note, sizeof(it->note), "%s", note ? note : "");
	return 0;
}

/* The group's items from @vg: its LVs, or (with PVs missing, once
 * settled) each LV with the sentence that says the VG is incomplete. */
static int lvm_items(struct plan *p, const struct lvm_vg *vg,
		     const char *const *uuids, struct vol *vols)
{
	size_t missing = lvm_missing(vg, uuids, p->n), k = 0;
	int rc = 0;

	if (missing && !p->settled)
		return 0; /* the rest may still come */
	lvm_vols(vg, uuids, p->n, vols, LVM_LVS_MAX, &k);
	for (size_t i = 0; rc == 0 && i < k; i++) {
		if (missing) {
			snprintf(vols[i].skip, sizeof(vols[i].skip),
				 "volume group %.60s: %zu of %zu physical "
				 "volumes missing",
				 vg->name, missing, vg->n_pv);
			vols[i].n = 0;
			vols[i].size = 0;
		}
		rc = plan_add(p, vg->id, vg->name, &vols[i], NULL);
	}
	return rc;
}

/* A VG whose newest metadata does not parse: one item that says so. */
static int lvm_bad_vg(struct plan *p, const struct lvm_pv *pv, const char *err)
{
	struct vol v;

	memset(&v, 0, sizeof(v));
	snprintf(v.name, sizeof(v.name), "%s", pv->vg_name);
	snprintf(v.skip, sizeof(v.skip), "volume group %.60s: %.80s",
		 pv->vg_name, err);
	return plan_add(p, pv->vg_id, pv->vg_name, &v, NULL);
}

/* The group of VG @vg_id. @vg and @vols are the caller's scratch. */
static int lvm_group(struct plan *p, const char *vg_id, const char **uuids,
		     struct lvm_vg *vg, struct vol *vols)
{
	size_t best = lvm_newest_member(p, vg_id);
	const struct lvm_pv *pv = p->m[best].pv;
	char err[160] = "";

	for (size_t i = 0; i < p->n; i++)
		uuids[i] = p->m[i].kind == VOL_LVM && p->m[i].pv
			       ? p->m[i].pv->uuid
			       : NULL;
	memset(vg, 0, sizeof(*vg));
	if (lvm_vg_parse(pv->text, pv->text_len, vg, err, sizeof(err)) < 0)
		return p->settled ? lvm_bad_vg(p, pv, err) : 0;
	return lvm_items(p, vg, uuids, vols);
}

/* Is member @i the first with its VG id? */
static bool lvm_first_of_vg(const struct plan *p, size_t i)
{
	if (p->m[i].kind != VOL_LVM || !p->m[i].pv || !p->m[i].pv->text)
		return false;
	for (size_t j = 0; j < i; j++)
		if (is_pv_with_vg(&p->m[j], p->m[i].pv->vg_id))
			return false;
	return true;
}

static int lvm_plan(struct plan *p)
{
	struct lvm_vg *vg = malloc(sizeof(*vg));
	struct vol *vols = calloc(LVM_LVS_MAX, sizeof(*vols));
	const char **uuids = calloc(p->n ? p->n : 1, sizeof(*uuids));
	int rc = vg && vols && uuids ? 0 : -ENOMEM;

	for (size_t i = 0; rc == 0 && i < p->n; i++)
		if (lvm_first_of_vg(p, i))
			rc = lvm_group(p, p->m[i].pv->vg_id, uuids, vg, vols);
	free(uuids);
	free(vols);
	free(vg);
	return rc;
}

/* --- md: one group per array UUID */

static bool is_md_of(const struct vol_member *m, const uint8_t *uuid)
{
	return m->kind == VOL_MD && m->md && !memcmp(m->md->uuid, uuid, 16);
}

/* All slots of the array held by an active member at the newest events
 * count: nothing more can come. */
static bool md_complete(const struct md_member *ms, size_t n)
{
	const struct md_member *top = &ms[0];
	uint32_t have = 0;

	for (size_t i = 1; i < n; i++)
		if (ms[i].events > top->events)
			top = &ms[i];
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		if (ms[i].state != MD_ACTIVE || ms[i].events != top->events)
			continue;
		while (j < i && !(ms[j].state == MD_ACTIVE &&
				  ms[j].events == top->events &&
				  ms[j].role == ms[i].role))
			j++;
		have += j == i;
	}
	return have >= top->raid_disks;
}

/* "md/" before s[], in place, cut to fit @cap. */
static void md_prefix(char *s, size_t cap)
{
	size_t len = strlen(s);

	if (len + 4 > cap)
		len = cap - 4;
	memmove(s + 3, s, len);
	memcpy(s, "md/", 3);
	s[len + 3] = '\0';
}

/* The name the scan shows: "md0" (0.90), "md/boot" (1.x "host:boot");
 * md_volume()'s sentences begin with the bare name: renamed too. */
static void md_rename(const struct md_member *m, struct vol *v, char *note,
		      size_t notelen)
{
	if (!m->set_name[0])
		return;
	if (v->skip[0] && !strncmp(v->skip, v->name, strlen(v->name)))
		md_prefix(v->skip, sizeof(v->skip));
	if (note[0])
		md_prefix(note, notelen);
	md_prefix(v->name, sizeof(v->name));
}

static int md_group_plan(struct plan *p, size_t first, struct md_member *ms,
			 size_t *idx)
{
	char note[160] = "";
	size_t k = 0;
	struct vol v;

	for (size_t i = first; i < p->n && k < VOL_PLAN_MEMBERS_MAX; i++)
		if (is_md_of(&p->m[i], p->m[first].md->uuid)) {
			ms[k] = *p->m[i].md;
			idx[k++] = i;
		}
	if (!md_complete(ms, k) && !p->settled)
		return 0;
	if (md_volume(ms, k, &v, note, sizeof(note)) < 0)
		return -EINVAL;
	if (v.n)
		v.w[0].source = (int)idx[v.w[0].source];
	md_rename(&ms[0], &v, note, sizeof(note));
	return plan_add(p, p->m[first].md->uuid_str, v.name, &v, note);
}

static int md_plan(struct plan *p)
{
	struct md_member *ms = calloc(VOL_PLAN_MEMBERS_MAX, sizeof(*ms));
	size_t idx[VOL_PLAN_MEMBERS_MAX];
	int rc = ms ? 0 : -ENOMEM;

	for (size_t i = 0; rc == 0 && i < p->n; i++) {
		size_t j = 0;

		if (p->m[i].kind != VOL_MD || !p->m[i].md)
			continue;
		while (j < i && !is_md_of(&p->m[j], p->m[i].md->uuid))
			j++;
		if (j == i)
			rc = md_group_plan(p, i, ms, idx);
	}
	free(ms);
	return rc;
}

int vol_plan(const struct vol_member *members, size_t n, bool settled,
	     struct vol_plan_item *out, size_t max, size_t *count)
{
	struct plan p = {members, n, settled, out, max, 0};
	int rc = lvm_plan(&p);

	if (rc == 0)
		rc = md_plan(&p);
	*count = p.count;
	return rc;
}
