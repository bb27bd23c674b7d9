/* fuzz_lvm.c - the LVM2 readers on any bytes: as a PV's first bytes
 * (label, metadata area, wrapped text, its VG and volumes), as a bare
 * metadata area, and as metadata text. */
#include "util/le.h"
#include "vol/lvm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct lvm_vg vg;

static void vols(const char *text, size_t len)
{
	const char *ids[LVM_PVS_MAX];
	struct vol v[8];
	size_t n;

	if (lvm_vg_parse(text, len, &vg, NULL, 0) < 0)
		return;
	for (size_t i = 0; i < vg.n_pv; i++)
		ids[i] = i % 3 ? vg.pv[i].id : "missing";
	lvm_vols(&vg, ids, vg.n_pv, v, 8, &n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lvm_pv pv;
	uint64_t start = 0;
	char err[200];

	if (lvm_pv_parse(data, size, &pv, err, sizeof(err)) == 0 && pv.text)
		vols(pv.text, pv.text_len);
	lvm_pv_free(&pv);
	get_le64(data, size, 24, &start);
	memset(&pv, 0, sizeof(pv));
	if (lvm_mda_parse(data, size, start, &pv, err, sizeof(err)) == 0)
		vols(pv.text, pv.text_len);
	lvm_pv_free(&pv);
	vols((const char *)data, size);
	return 0;
}
