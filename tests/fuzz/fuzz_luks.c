/* fuzz_luks.c - the LUKS readers on any bytes (no key derivation): the
 * bytes as a device (LUKS1 header; LUKS2 copies, whose checksums are made
 * right first so the fuzzer reaches the JSON behind them), then as a
 * bare LUKS1 header, as LUKS2 metadata text and as JSON; a header that
 * reads gets its dm-crypt table line. */
#include "util/hash.h"
#include "util/json_read.h"
#include "vol/luks.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct mem {
	const uint8_t *b;
	size_t len;
};

static struct luks_hdr hdr;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	const struct mem *m = ctx;

	if (off > m->len || len > m->len - off)
		return -EIO;
	memcpy(buf, m->b + off, len);
	return 0;
}

/* Give the LUKS2 copy at @off (hdr_size from its own field) a right
 * sha256 checksum, when the copy fits. */
static void fix_csum(uint8_t *b, size_t len, size_t off)
{
	uint8_t d[HASH_MAX_LEN];
	uint64_t size = 0;

	if (len < off || len - off < 4096)
		return;
	for (int i = 0; i < 8; i++)
		size = size << 8 | b[off + 8 + i];
	if (size < 4096 || size > len - off)
		return;
	memset(b + off + 448, 0, 64);
	hash_once(hash_find("sha256"), b + off, size, d);
	memcpy(b + off + 448, d, 32);
}

static void table(void)
{
	uint8_t key[LUKS_KEY_MAX] = {0};
	char line[512];

	luks_dm_table(&hdr, key, hdr.key_size ? hdr.key_size : 32, "/dev/x",
		      line, sizeof(line), NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct mem m = {copy, size};
	struct jr_doc d;
	char err[300];

	memcpy(copy, data, size);
	fix_csum(copy, size, 0);
	fix_csum(copy, size, 16384);
	if (luks_read(mem_read, &m, size, &hdr, err, sizeof(err)) == 0)
		table();
	luks_free(&hdr);
	if (luks1_parse(data, size, size, &hdr, err, sizeof(err)) == 0)
		table();
	luks_free(&hdr);
	memset(&hdr, 0, sizeof(hdr));
	hdr.dev_size = 1 << 30;
	if (luks2_json_parse((const char *)data, size, 16384, 1 << 30, &hdr,
			     err, sizeof(err)) == 0)
		table();
	luks_free(&hdr);
	if (jr_parse((const char *)data, size, &d, err, sizeof(err)) == 0)
		jr_free(&d);
	free(copy);
	return 0;
}
