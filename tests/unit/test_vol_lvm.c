/* test_vol_lvm.c - LVM2 labels, metadata areas, text and volumes, on PVs
 * made by lvm2 (tests/fixtures/lvm/make.sh; the expected values are in
 * each case's SOURCE, as lvs and pvs printed them). */
#include "test.h"
#include "util/le.h"
#include "vol/lvm.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define FIX "tests/fixtures/lvm/"
#define MIB (1024ull * 1024)

static uint8_t *load(const char *path, size_t *len)
{
	uint8_t *b = (uint8_t *)test_slurp(path, len);

	CHECK(b != NULL);
	return b;
}

static struct lvm_vg *vg_of(const struct lvm_pv *pv)
{
	struct lvm_vg *vg = calloc(1, sizeof(*vg));
	char err[200] = "";

	CHECK(pv->text != NULL);
	CHECK_INT(lvm_vg_parse(pv->text ? pv->text : "", pv->text_len, vg, err,
			       sizeof(err)),
		  0);
	CHECK_STR(err, "");
	return vg;
}

static const struct vol *vol_named(const struct vol *v, size_t n,
				   const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	static const struct vol none;

	printf("  no volume %s\n", name);
	test_failures++;
	return &none;
}

TEST(crc_is_lvm2s)
{
	/* lvm2's calc_crc is CRC-32 without the final inversion: from
	 * 0xffffffff and inverted it is the usual check value */
	CHECK_INT(~lvm_crc(0xffffffffu, (const uint8_t *)"123456789", 9),
		  0xcbf43926u);
	CHECK_INT(lvm_crc(LVM_INITIAL_CRC, NULL, 0), LVM_INITIAL_CRC);
}

TEST(linear_label_and_wrapped_metadata)
{
	size_t len;
	uint8_t *b = load(FIX "linear/linear.pv", &len);
	struct lvm_pv pv;
	uint64_t off = 0, size = 0, msize = 0;
	char err[200] = "";

	CHECK_INT(lvm_pv_parse(b, len, &pv, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_STR(pv.uuid, "vl2FIxTy0idXKfbebPDQPpCKPzQtyx7S");
	CHECK_INT(pv.label_sector, 1);
	CHECK_INT(pv.dev_size, 64 * MIB);
	CHECK_INT(pv.n_mda, 1);
	CHECK_INT(pv.mda[0].offset, 4096);
	CHECK_INT(pv.mda[0].size, 61440);
	CHECK_STR(pv.vg_name, "vgsys");
	CHECK_STR(pv.vg_id, "FhXCO8ahKYX0k9QdzDT6JZqxWAT7dndF");
	CHECK_INT(pv.seqno, 31);
	/* make.sh left the newest text wrapping round the area's end */
	get_le64(b, len, 4096 + 32, &msize);
	get_le64(b, len, 4096 + 40, &off);
	get_le64(b, len, 4096 + 48, &size);
	CHECK(off + size > msize);
	CHECK(pv.text && !strncmp(pv.text, "vgsys {\nid = \"FhXCO8-", 21));
	CHECK(pv.text && strstr(pv.text, "contents = \"Text Format Volume "
					 "Group\"\nversion = 1\n"));
	CHECK_INT(pv.text_len, size - 1); /* lvm2 counts the final NUL */
	lvm_pv_free(&pv);
	free(b);
}

TEST(linear_windows)
{
	size_t len, n = 0;
	uint8_t *b = load(FIX "linear/linear.pv", &len);
	struct lvm_pv pv;
	struct lvm_vg *vg;
	struct vol v[8];
	const struct vol *r;
	const char *ids[1];

	CHECK_INT(lvm_pv_parse(b, len, &pv, NULL, 0), 0);
	vg = vg_of(&pv);
	CHECK_STR(vg->name, "vgsys");
	CHECK_INT(vg->seqno, 31);
	CHECK_INT(vg->extent_size, 2048); /* 1 MiB */
	CHECK_INT(vg->n_pv, 1);
	CHECK_STR(vg->pv[0].name, "pv0");
	CHECK_INT(vg->pv[0].pe_start, 128); /* pvs: 1st PE 65536B */
	ids[0] = pv.uuid;
	CHECK_INT(lvm_vols(vg, ids, 1, v, 8, &n), 0);
	CHECK_INT(n, 3);
	/* lvs: boot pv0:0-7, root pv0:8-23 then pv0:28-31, home pv0:24-27 */
	r = vol_named(v, n, "vgsys/boot");
	CHECK_STR(r->skip, "");
	CHECK_INT(r->n, 1);
	CHECK_INT(r->w[0].source, 0);
	CHECK_INT(r->w[0].offset, 65536);
	CHECK_INT(r->w[0].size, 8 * MIB);
	CHECK_INT(r->size, 8 * MIB);
	r = vol_named(v, n, "vgsys/root");
	CHECK_INT(r->n, 2);
	CHECK_INT(r->w[0].offset, 65536 + 8 * MIB);
	CHECK_INT(r->w[0].size, 16 * MIB);
	CHECK_INT(r->w[1].offset, 65536 + 28 * MIB);
	CHECK_INT(r->w[1].size, 4 * MIB);
	CHECK_INT(r->size, 20 * MIB);
	r = vol_named(v, n, "vgsys/home");
	CHECK_INT(r->n, 1);
	CHECK_INT(r->w[0].offset, 65536 + 24 * MIB);
	CHECK_INT(r->size, 4 * MIB);
	/* too small an output says so */
	CHECK_INT(lvm_vols(vg, ids, 1, v, 2, &n), -E2BIG);
	CHECK_INT(n, 2);
	free(vg);
	lvm_pv_free(&pv);
	free(b);
}

TEST(read_with_pread_matches_parse)
{
	int fd = open(FIX "twopv/pv1.pv", O_RDONLY);
	struct lvm_pv pv;
	char err[200] = "";

	CHECK(fd >= 0);
	CHECK_INT(lvm_pv_read(fd, &pv, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_STR(pv.uuid, "lcvjO9Ol27ekxTQQiOGRkKrZcV2c0P91");
	CHECK_STR(pv.vg_name, "vgdata");
	CHECK_INT(pv.seqno, 3);
	CHECK(pv.text && !strncmp(pv.text, "vgdata {", 8));
	lvm_pv_free(&pv);
	close(fd);
	fd = open(FIX "SOURCE-none", O_RDONLY);
	CHECK(fd < 0);
	CHECK_INT(lvm_pv_read(-1, &pv, err, sizeof(err)), -EBADF);
	CHECK(strstr(err, "cannot be read") != NULL);
}

struct two {
	uint8_t *b[2];
	size_t len[2];
	struct lvm_pv pv[2];
	struct lvm_vg *vg;
};

static void two_load(struct two *t)
{
	t->b[0] = load(FIX "twopv/pv0.pv", &t->len[0]);
	t->b[1] = load(FIX "twopv/pv1.pv", &t->len[1]);
	for (int i = 0; i < 2; i++)
		CHECK_INT(lvm_pv_parse(t->b[i], t->len[i], &t->pv[i], NULL, 0),
			  0);
	CHECK_INT(lvm_newest(t->pv, 2, "gIKvUXfQMGavzBaUeNuG29GLCoZHPL1c"), 0);
	t->vg = vg_of(&t->pv[0]);
}

static void two_free(struct two *t)
{
	free(t->vg);
	for (int i = 0; i < 2; i++) {
		lvm_pv_free(&t->pv[i]);
		free(t->b[i]);
	}
}

TEST(two_pvs_span_and_stripe)
{
	struct two t;
	struct vol v[4];
	const struct vol *r;
	size_t n = 0;
	/* the caller's order need not be the VG's */
	const char *ids[3];

	two_load(&t);
	ids[0] = "someotherdisk";
	ids[1] = t.pv[1].uuid;
	ids[2] = t.pv[0].uuid;
	CHECK_STR(t.pv[0].uuid, "lhX7V8KxcfqQyuyzjyh627pNb7qn28Ew");
	CHECK_INT(lvm_vols(t.vg, ids, 3, v, 4, &n), 0);
	CHECK_INT(n, 2);
	/* lvs: span pv0 (loop1):4-62 then pv1 (loop2):4-8 */
	r = vol_named(v, n, "vgdata/span");
	CHECK_STR(r->skip, "");
	CHECK_INT(r->n, 2);
	CHECK_INT(r->w[0].source, 2);
	CHECK_INT(r->w[0].offset, 65536 + 4 * MIB);
	CHECK_INT(r->w[0].size, 59 * MIB);
	CHECK_INT(r->w[1].source, 1);
	CHECK_INT(r->w[1].offset, 65536 + 4 * MIB);
	CHECK_INT(r->w[1].size, 5 * MIB);
	CHECK_INT(r->size, 64 * MIB);
	/* lvs: stripe over pv0 (loop1):0-3 and pv1 (loop2):0-3, -I64k */
	r = vol_named(v, n, "vgdata/stripe");
	CHECK_STR(r->skip, "");
	CHECK_INT(r->stripes, 2);
	CHECK_INT(r->chunk, 65536);
	CHECK_INT(r->n, 2);
	CHECK_INT(r->w[0].source, 2);
	CHECK_INT(r->w[0].offset, 65536);
	CHECK_INT(r->w[0].size, 4 * MIB);
	CHECK_INT(r->w[1].source, 1);
	CHECK_INT(r->w[1].offset, 65536);
	CHECK_INT(r->w[1].size, 4 * MIB);
	CHECK_INT(r->size, 8 * MIB);
	two_free(&t);
}

TEST(missing_pv)
{
	struct two t;
	struct vol v[4];
	size_t n = 0;
	const char *ids[1];

	two_load(&t);
	ids[0] = t.pv[0].uuid;
	CHECK_INT(lvm_vols(t.vg, ids, 1, v, 4, &n), 0);
	CHECK_STR(vol_named(v, n, "vgdata/span")->skip,
		  "its volume group vgdata is incomplete: physical volume "
		  "lcvjO9-Ol27-ekxT-QQiO-GRkK-rZcV-2c0P91 is missing");
	CHECK_INT(vol_named(v, n, "vgdata/span")->n, 0);
	two_free(&t);
}

TEST(thin_pool_and_snapshot_from_lvm2)
{
	size_t len, n = 0;
	uint8_t *b = load(FIX "thinsnap/thinsnap.pv", &len);
	struct lvm_pv pv;
	struct lvm_vg *vg;
	struct vol v[8];
	const struct vol *r;
	const char *ids[1];

	CHECK_INT(lvm_pv_parse(b, len, &pv, NULL, 0), 0);
	CHECK_STR(pv.uuid, "aI4WnEvDQaH4Ys7TJIsXOvJmmq1LCq7s");
	CHECK_INT(pv.seqno, 6);
	vg = vg_of(&pv);
	ids[0] = pv.uuid;
	CHECK_INT(lvm_vols(vg, ids, 1, v, 8, &n), 0);
	/* lvs: origin, pool, snap, thin; [pool_tdata], [pool_tmeta] and
	 * snapshot0 are hidden. lvm2 wrote snap (the COW store) without
	 * VISIBLE too, but lvs lists it: so does lvm_vols() */
	CHECK_INT(n, 4);
	r = vol_named(v, n, "vgt/origin"); /* lvs: loop0:12-19 */
	CHECK_STR(r->skip, "");
	CHECK_INT(r->n, 1);
	CHECK_INT(r->w[0].offset, 65536 + 12 * MIB);
	CHECK_INT(r->size, 8 * MIB);
	CHECK_STR(vol_named(v, n, "vgt/pool")->skip,
		  "is a thin pool: it holds thin volumes, not a filesystem");
	CHECK_STR(vol_named(v, n, "vgt/thin")->skip,
		  "is a thin volume, not read yet");
	CHECK_STR(vol_named(v, n, "vgt/snap")->skip,
		  "is a snapshot, not read yet");
	CHECK_INT(vol_named(v, n, "vgt/snap")->n, 0);
	free(vg);
	lvm_pv_free(&pv);
	free(b);
}

TEST(newest_seqno_wins)
{
	struct lvm_pv p[3];
	char t[] = "x";

	memset(p, 0, sizeof(p));
	for (int i = 0; i < 3; i++) {
		p[i].text = t;
		strcpy(p[i].vg_id, "A");
	}
	p[0].seqno = 7, p[1].seqno = 9, p[2].seqno = 9;
	CHECK_INT(lvm_newest(p, 3, "A"), 1);
	strcpy(p[1].vg_id, "B"); /* another VG of the same name */
	CHECK_INT(lvm_newest(p, 3, "A"), 2);
	p[2].text = NULL; /* a PV without metadata has no say */
	CHECK_INT(lvm_newest(p, 3, "A"), 0);
	CHECK_INT(lvm_newest(p, 3, "C"), -ENOENT);
}

/* Damage: a byte of the label, the area header, the text; a short read */
static int damaged(size_t at, size_t len, char *err)
{
	size_t n;
	uint8_t *b = load(FIX "twopv/pv0.pv", &n);
	struct lvm_pv pv;
	int rc;

	if (at < n)
		b[at] ^= 0x20;
	err[0] = 0;
	rc = lvm_pv_parse(b, len < n ? len : n, &pv, err, 200);
	CHECK(pv.text == NULL);
	lvm_pv_free(&pv);
	free(b);
	return rc;
}

TEST(damage_is_said)
{
	char err[200];
	uint64_t off = 0;
	size_t n;
	uint8_t *b = load(FIX "twopv/pv0.pv", &n);

	get_le64(b, n, 4096 + 40, &off);
	free(b);
	CHECK_INT(damaged(512 + 40, SIZE_MAX, err), -EINVAL);
	CHECK_STR(err, "the LVM2 label in sector 1 fails its checksum");
	CHECK_INT(damaged(4096 + 44, SIZE_MAX, err), -EINVAL);
	CHECK_STR(err, "the LVM2 metadata area at byte 4096 fails its "
		       "checksum");
	CHECK_INT(damaged(4096 + off + 10, SIZE_MAX, err), -EINVAL);
	CHECK(strstr(err, "fails its checksum") && strstr(err, "metadata at"));
	CHECK_INT(damaged(0, 4096 + off + 100, err), -ERANGE);
	CHECK(strstr(err, "lies past the") != NULL);
	CHECK_INT(damaged(0, 2048, err), -ERANGE);
	CHECK_INT(damaged(0, 1024, err), -ERANGE); /* label, no area */
	CHECK_INT(damaged(0, 512, err), -ENOENT);  /* no label seen */
	CHECK_STR(err, "");
	/* "LABELONE" moved: a label naming another sector is none */
	CHECK_INT(damaged(512 + 8, SIZE_MAX, err), -ENOENT);
}

TEST(empty_area_is_nodata)
{
	size_t n;
	uint8_t *b = load(FIX "twopv/pv0.pv", &n);
	struct lvm_pv pv;
	char err[200] = "";

	/* raw_locn 0 zeroed, the header's checksum made again */
	memset(b + 4096 + 40, 0, 24);
	put_le32(b, n, 4096, lvm_crc(LVM_INITIAL_CRC, b + 4096 + 4, 508));
	CHECK_INT(lvm_pv_parse(b, n, &pv, err, sizeof(err)), -ENODATA);
	CHECK_STR(err, "the LVM2 metadata area at byte 4096 holds no metadata");
	CHECK_STR(pv.uuid, "lhX7V8KxcfqQyuyzjyh627pNb7qn28Ew");
	free(b);
}

TEST(second_area_when_the_first_fails)
{
	size_t n;
	uint8_t *b = load(FIX "twopv/pv0.pv", &n);
	struct lvm_pv pv;
	char err[200] = "";
	/* the label at 512, its pv_header at +32, the metadata area list
	 * after the data area and its terminator: at 512 + 32 + 40 + 32 */
	size_t mda = 512 + 32 + 40 + 32;

	put_le64(b, n, mda, 8192); /* no area header there */
	put_le64(b, n, mda + 8, 4096);
	put_le64(b, n, mda + 16, 4096);
	put_le64(b, n, mda + 24, 61440);
	put_le64(b, n, mda + 32, 0);
	put_le32(b, n, 512 + 16, lvm_crc(LVM_INITIAL_CRC, b + 512 + 20, 492));
	CHECK_INT(lvm_pv_parse(b, n, &pv, err, sizeof(err)), 0);
	CHECK_INT(pv.n_mda, 2);
	CHECK_INT(pv.seqno, 3);
	lvm_pv_free(&pv);
	/* both fail: the last one's sentence */
	put_le64(b, n, mda + 16, 12288);
	put_le32(b, n, 512 + 16, lvm_crc(LVM_INITIAL_CRC, b + 512 + 20, 492));
	CHECK_INT(lvm_pv_parse(b, n, &pv, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "the LVM2 metadata area at byte 12288 fails its "
		       "checksum");
	CHECK(pv.text == NULL);
	free(b);
}

/* --- the text, with what lvm2 writes for the kinds it cannot make here
 * without device-mapper (import_vsn1.c, the segtypes' text_import) */

static const char head[] =
    "# comment \"not a string\n"
    "vg1 {\nid = \"aaaaaa-bbbb-cccc-dddd-eeee-ffff-gggggg\"\nseqno = 5\n"
    "extent_size = 8192 # 4 MiB\nphysical_volumes {\npv0 {\n"
    "id = \"AAAAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGGGG\"\n"
    "device = \"/dev/with \\\"quote\\\" \\\\ }\"\npe_start = 2048\n}\n"
    "pv1 {\nid = \"short\"\npe_start = 1\n}\n}\n"
    "logical_volumes {\n";

static const char *lv(const char *name, const char *seg)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf),
		 "%s {\nstatus = [\"READ\", \"VISIBLE\"]\nsegment_count = 1\n"
		 "segment1 {\nstart_extent = 0\nextent_count = 2\n%s\n}\n}\n",
		 name, seg);
	return buf;
}

static void vols_of(const char *lvs, struct vol *v, size_t max, size_t *n)
{
	static char text[65536];
	static struct lvm_vg vg;
	const char *ids[] = {"AAAAAABBBBCCCCDDDDEEEEFFFFGGGGGG"};
	char err[200] = "";

	snprintf(text, sizeof(text), "%s%s}\n}\ncontents = \"x\"\n", head, lvs);
	CHECK_INT(lvm_vg_parse(text, strlen(text), &vg, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_INT(vg.extent_size, 8192);
	CHECK_INT(vg.seqno, 5);
	CHECK_STR(vg.id, "aaaaaabbbbccccddddeeeeffffgggggg");
	CHECK_INT(lvm_vols(&vg, ids, 1, v, max, n), 0);
}

TEST(text_kinds_skipped_with_reasons)
{
	static char lvs[8192];
	struct vol v[16];
	size_t n = 0;
	const char *want[][2] = {
	    {"lin", ""},
	    {"pool", "is a thin pool: it holds thin volumes, not a filesystem"},
	    {"thin", "is a thin volume, not read yet"},
	    {"r1", "is a RAID volume, not read yet"},
	    {"m", "is a mirror, not read yet"},
	    {"c", "is a cached volume, not read yet"},
	    {"cow", "is a snapshot, not read yet"},
	    {"odd", "has a segment of type \"zero\", not read"},
	};

	lvs[0] = 0;
	strcat(lvs, lv("lin", "type = \"striped\"\nstripe_count = 1\n"
			      "stripes = [\"pv0\", 3,]"));
	strcat(lvs, lv("pool", "type = \"thin-pool\"\nmetadata = \"p_tmeta\""));
	strcat(lvs, lv("thin", "type = \"thin\"\nthin_pool = \"pool\""));
	strcat(lvs, lv("r1", "type = \"raid1\"\ndevice_count = 2"));
	strcat(lvs, lv("m", "type = \"mirror\""));
	strcat(lvs, lv("c", "type = \"cache\""));
	strcat(lvs, lv("cow", "type = \"striped\"\nstripe_count = 1\n"
			      "stripes = [\"pv0\", 5]"));
	strcat(lvs, "snapshot0 {\nstatus = [\"READ\"]\nsegment_count = 1\n"
		    "segment1 {\nstart_extent = 0\nextent_count = 2\n"
		    "type = \"snapshot\"\norigin = \"lin\"\n"
		    "cow_store = \"cow\"\n}\n}\n");
	strcat(lvs, lv("odd", "type = \"zero\""));
	vols_of(lvs, v, 16, &n);
	CHECK_INT(n, 8); /* snapshot0 is not VISIBLE */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char name[64];

		snprintf(name, sizeof(name), "vg1/%s", want[i][0]);
		CHECK_STR(vol_named(v, n, name)->skip, want[i][1]);
	}
	/* 2048 sectors of pe_start, extent 3 of 4 MiB */
	CHECK_INT(v[0].w[0].offset, 1 * MIB + 12 * MIB);
	CHECK_INT(v[0].size, 8 * MIB);
}

TEST(text_too_many_segments_and_gaps)
{
	static char lvs[16384];
	char *p = lvs;
	struct vol v[4];
	size_t n = 0;

	p += sprintf(p, "many {\nstatus = [\"VISIBLE\"]\n");
	for (int i = 0; i < VOL_WINDOWS_MAX + 1; i++)
		p +=
		    sprintf(p,
			    "segment%d {\nstart_extent = %d\nextent_count = 1\n"
			    "type = \"striped\"\nstripe_count = 1\n"
			    "stripes = [\"pv0\", %d]\n}\n",
			    i + 1, i, 2 * i);
	p += sprintf(p, "}\n");
	p += sprintf(p, "%s", lv("gap", "type = \"striped\"\n"));
	p = strstr(p - 60, "start_extent = 0");
	p[15] = '1';
	strcat(lvs, lv("nopv", "type = \"striped\"\nstripe_count = 1\n"
			       "stripes = [\"pv9\", 0]"));
	strcat(lvs, lv("badid", "type = \"striped\"\nstripe_count = 1\n"
				"stripes = [\"pv1\", 0]"));
	vols_of(lvs, v, 4, &n);
	CHECK_INT(n, 4);
	CHECK_STR(v[0].skip, "has 17 segments, more than bootmenu maps (16)");
	CHECK_STR(v[1].skip, "has segments that do not follow each other");
	CHECK_STR(v[2].skip, "names a physical volume its volume group lacks");
	CHECK_STR(v[3].skip, "its volume group vg1 names physical volume pv1 "
			     "without a valid id");
}

TEST(text_contiguous_segments_one_window)
{
	static const char lvs[] =
	    "two {\nstatus = [\"VISIBLE\"]\nsegment_count = 2\n"
	    "segment1 {\nstart_extent = 0\nextent_count = 2\n"
	    "type = \"striped\"\nstripe_count = 1\nstripes = [\"pv0\", 4]\n}\n"
	    "segment2 {\nstart_extent = 2\nextent_count = 3\n"
	    "type = \"striped\"\nstripe_count = 1\nstripes = [\"pv0\", 6]\n}\n"
	    "}\n";
	struct vol v[2];
	size_t n = 0;

	vols_of(lvs, v, 2, &n);
	CHECK_INT(n, 1);
	CHECK_STR(v[0].skip, "");
	CHECK_INT(v[0].n, 1);
	CHECK_INT(v[0].w[0].offset, 1 * MIB + 16 * MIB);
	CHECK_INT(v[0].w[0].size, 20 * MIB);
	CHECK_INT(v[0].size, 20 * MIB);
}

static int bad_text(const char *text, char *err)
{
	static struct lvm_vg vg;

	err[0] = 0;
	return lvm_vg_parse(text, strlen(text), &vg, err, 200);
}

TEST(text_damage_names_the_line)
{
	char err[200];

	CHECK_INT(bad_text("vg {\nid = \"x\"\n", err), -EINVAL);
	CHECK_STR(err, "the LVM2 metadata text is damaged at line 3: a "
		       "section is not closed");
	CHECK_INT(bad_text("vg {\n\nseqno 5\n}", err), -EINVAL);
	CHECK_STR(err, "the LVM2 metadata text is damaged at line 3: '=' or "
		       "'{' is expected");
	CHECK_INT(bad_text("vg {\nx = [1 2]\n}", err), -EINVAL);
	CHECK(strstr(err, "line 2: an array lacks a comma") != NULL);
	CHECK_INT(bad_text("vg {\nx = \"open\n}", err), -EINVAL);
	CHECK_INT(bad_text("vg { seqno = 5 }", err), -EINVAL);
	CHECK(strstr(err, "no volume group with an id") != NULL);
	CHECK_INT(bad_text("}", err), -EINVAL);
	CHECK_INT(bad_text("vg { x = 99999999999999999999 }", err), 0 - EINVAL);
}

TEST_MAIN("test_vol_lvm", crc_is_lvm2s, linear_label_and_wrapped_metadata,
	  linear_windows, read_with_pread_matches_parse,
	  two_pvs_span_and_stripe, missing_pv, thin_pool_and_snapshot_from_lvm2,
	  newest_seqno_wins, damage_is_said, empty_area_is_nodata,
	  second_area_when_the_first_fails, text_kinds_skipped_with_reasons,
	  text_too_many_segments_and_gaps, text_contiguous_segments_one_window,
	  text_damage_names_the_line)
