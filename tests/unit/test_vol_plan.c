/* test_vol_plan.c - which volumes the scan maps, and when: the members
 * are the real PVs and md members of tests/fixtures/lvm and md, read
 * with the readers; vol_plan() itself does no I/O. */
#include "test.h"
#include "vol/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define LVM "tests/fixtures/lvm/"
#define MD "tests/fixtures/md/"
#define MAXM 8
#define MAXI 32

struct set {
	size_t n;
	struct vol_member m[MAXM];
	struct lvm_pv pv[MAXM];
	struct md_member md[MAXM];
	struct vol_plan_item it[MAXI];
	size_t count;
};

/* Read @path as member @dev of kind @k into the set. */
static void add(struct set *s, const char *dev, enum vol_kind k,
		const char *path)
{
	size_t i = s->n++;
	char err[160] = "";
	struct stat st;
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	s->m[i] = (struct vol_member){dev, k, &s->pv[i], &s->md[i]};
	if (k == VOL_LVM)
		CHECK_INT(lvm_pv_read(fd, &s->pv[i], err, sizeof(err)), 0);
	else
		CHECK_INT(md_member_read(fd, (uint64_t)st.st_size, &s->md[i],
					 err, sizeof(err)),
			  0);
	CHECK_STR(err, "");
	if (fd >= 0)
		close(fd);
}

static int plan(struct set *s, bool settled)
{
	return vol_plan(s->m, s->n, settled, s->it, MAXI, &s->count);
}

static void done(struct set *s)
{
	for (size_t i = 0; i < s->n; i++)
		lvm_pv_free(&s->pv[i]);
}

static const struct vol_plan_item *item(const struct set *s, const char *name)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->it[i].v.name, name))
			return &s->it[i];
	printf("  no item %s\n", name);
	return NULL;
}

TEST(complete_vg_mapped_at_once)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "vdz", VOL_MD, MD "v12-a.img"); /* another kind, first */
	add(&s, "vda", VOL_LVM, LVM "linear/linear.pv");
	CHECK_INT(plan(&s, false), 0);
	/* boot, root, home of vgsys; the lone md half waits */
	CHECK_INT(s.count, 3);
	it = item(&s, "vgsys/boot");
	if (it) {
		CHECK_STR(it->v.skip, "");
		CHECK_STR(it->group_name, "vgsys");
		CHECK_INT(it->v.n, 1);
		CHECK_INT(it->v.w[0].source, 1); /* vda, not vdz */
		CHECK_INT(it->v.w[0].offset, 65536);
		CHECK_INT(it->v.w[0].size, 8 << 20);
	}
	it = item(&s, "vgsys/root"); /* PE 8-23 and 28-31: two runs */
	CHECK_STR(it ? it->v.skip : NULL, "");
	CHECK_INT(it ? it->v.n : 0, 2);
	if (it && it->v.n == 2) { /* device-mapper's, both on vda */
		CHECK_INT(it->v.w[0].source, 1);
		CHECK(it->v.w[0].offset == 65536 + (8 << 20));
		CHECK(it->v.w[0].size == 16 << 20);
		CHECK_INT(it->v.w[1].source, 1);
		CHECK(it->v.w[1].offset == 65536 + (28 << 20));
		CHECK(it->v.w[1].size == 4 << 20);
		CHECK(it->v.size == 20 << 20);
	}
	it = item(&s, "vgsys/home");
	CHECK_INT(it ? it->v.w[0].offset : 0, 65536 + (24 << 20));
	done(&s);
}

TEST(missing_pv_waits_then_says_so)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "vdb", VOL_LVM, LVM "twopv/pv0.pv");
	CHECK_INT(plan(&s, false), 0);
	CHECK_INT(s.count, 0); /* pv1 may still come */
	CHECK_INT(plan(&s, true), 0);
	CHECK_INT(s.count, 2);
	it = item(&s, "vgdata/span");
	CHECK_STR(it ? it->v.skip : NULL,
		  "volume group vgdata: 1 of 2 physical volumes missing");
	CHECK_INT(it ? it->v.n : 9, 0);
	it = item(&s, "vgdata/stripe");
	CHECK_STR(it ? it->v.skip : NULL,
		  "volume group vgdata: 1 of 2 physical volumes missing");
	done(&s);
}

TEST(both_pvs_present)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "vdc", VOL_LVM, LVM "twopv/pv1.pv");
	add(&s, "vdb", VOL_LVM, LVM "twopv/pv0.pv");
	CHECK_INT(plan(&s, false), 0);
	CHECK_INT(s.count, 2);
	it = item(&s, "vgdata/span"); /* pv0 then pv1: device-mapper's */
	CHECK_STR(it ? it->v.skip : NULL, "");
	CHECK_INT(it ? it->v.n : 0, 2);
	if (it && it->v.n == 2) { /* PE 4-62 of pv0 (vdb), 4-8 of pv1 */
		CHECK_INT(it->v.w[0].source, 1);
		CHECK(it->v.w[0].offset == 65536 + (4 << 20));
		CHECK(it->v.w[0].size == 59 << 20);
		CHECK_INT(it->v.w[1].source, 0);
		CHECK(it->v.w[1].offset == 65536 + (4 << 20));
		CHECK(it->v.w[1].size == 5 << 20);
	}
	it = item(&s, "vgdata/stripe"); /* device-mapper's striped target */
	CHECK_STR(it ? it->v.skip : NULL, "");
	CHECK_INT(it ? (int)it->v.stripes : 0, 2);
	CHECK_INT(it ? (int)it->v.n : 0, 2);
	CHECK(it && s.it[0].group[0] && !strcmp(s.it[0].group, s.it[1].group));
	done(&s);
}

TEST(thin_and_snapshot_keep_their_reasons)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "vdd", VOL_LVM, LVM "thinsnap/thinsnap.pv");
	CHECK_INT(plan(&s, false), 0);
	it = item(&s, "vgt/thin");
	CHECK_STR(it ? it->v.skip : NULL, "is a thin volume, not read yet");
	it = item(&s, "vgt/snap");
	CHECK_STR(it ? it->v.skip : NULL, "is a snapshot, not read yet");
	it = item(&s, "vgt/pool");
	CHECK_STR(it ? it->v.skip : NULL,
		  "is a thin pool: it holds thin volumes, not a filesystem");
	it = item(&s, "vgt/origin");
	CHECK_STR(it ? it->v.skip : NULL, "");
	CHECK_INT(it ? it->v.n : 0, 1);
	done(&s);
}

TEST(complete_mirror_and_names)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "sda1", VOL_MD, MD "v090-a.img");
	add(&s, "sdb1", VOL_MD, MD "v12-a.img");
	add(&s, "sdc1", VOL_MD, MD "v090-b.img");
	CHECK_INT(plan(&s, false), 0);
	CHECK_INT(s.count, 1); /* md0 whole; md/mirror has half */
	it = item(&s, "md0");
	CHECK_STR(it ? it->v.skip : NULL, "");
	CHECK_STR(it ? it->note : NULL, "");
	CHECK(it && (it->v.w[0].source == 0 || it->v.w[0].source == 2));
	CHECK_STR(it ? it->group : NULL, "01234567:89abcdef:fedcba98:76543210");
	add(&s, "sdd1", VOL_MD, MD "v12-b.img");
	CHECK_INT(plan(&s, false), 0);
	CHECK_INT(s.count, 2);
	it = item(&s, "md/mirror");
	CHECK(it && (it->v.w[0].source == 1 || it->v.w[0].source == 3));
	CHECK_INT(it ? it->v.n : 0, 1);
	done(&s);
}

TEST(degraded_mirror_after_settle)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "sda1", VOL_MD, MD "deg-b-stale.img");
	add(&s, "sdb1", VOL_MD, MD "deg-a.img");
	CHECK_INT(plan(&s, false), 0);
	CHECK_INT(s.count, 0); /* the other mirror may still come */
	CHECK_INT(plan(&s, true), 0);
	CHECK_INT(s.count, 1);
	it = item(&s, "md/deg");
	CHECK_STR(it ? it->v.skip : NULL, "");
	CHECK_INT(it ? it->v.w[0].source : -1, 1); /* the healthy one */
	CHECK_STR(it ? it->note : NULL, "md/deg is degraded (1 of 2 mirrors "
					"present): read from one");
	done(&s);
}

TEST(raid5_skipped)
{
	struct set s = {0};
	const struct vol_plan_item *it;

	add(&s, "sda3", VOL_MD, MD "r5-a.img");
	CHECK_INT(plan(&s, false), 0);
	CHECK_INT(s.count, 0);
	CHECK_INT(plan(&s, true), 0);
	CHECK_INT(s.count, 1);
	it = item(&s, "md/data");
	CHECK_STR(it ? it->v.skip : NULL,
		  "md/data is RAID5: bootmenu reads only RAID1 mirrors");
	CHECK_INT(it ? it->v.n : 9, 0);
	done(&s);
}

TEST(out_too_small)
{
	struct set s = {0};
	size_t count = 9;

	add(&s, "vda", VOL_LVM, LVM "linear/linear.pv");
	CHECK_INT(vol_plan(s.m, s.n, false, s.it, 2, &count), -E2BIG);
	CHECK_INT(count, 2);
	CHECK_INT(vol_plan(s.m, 0, true, s.it, 2, &count), 0);
	CHECK_INT(count, 0);
	done(&s);
}

TEST_MAIN("test_vol_plan", complete_vg_mapped_at_once,
	  missing_pv_waits_then_says_so, both_pvs_present,
	  thin_and_snapshot_keep_their_reasons, complete_mirror_and_names,
	  degraded_mirror_after_settle, raid5_skipped, out_too_small)
