/* test_inflate.c - format/inflate against gzip's own output (levels 1, 6, 9,
 * stored blocks, a file name in the header, several members), raw deflate
 * streams made by hand, and every refusal. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "format/inflate.h"

#define TMP "/tmp/test_inflate.%d"

/* Text with long matches, random bytes (gzip stores those), a run of
 * zeros (distance-1 copies) and every byte value. */
static uint8_t *sample(size_t *len)
{
	size_t n = 0, cap = 400 * 1024;
	uint8_t *b = malloc(cap);
	uint32_t x = 12345;

	for (int i = 0; n < 120000; i++)
		n += (size_t)snprintf((char *)b + n, cap - n,
				      "line %d: the quick "
				      "brown fox jumps over the lazy dog %d\n",
				      i, i % 7);
	for (int i = 0; i < 70000; i++, x = x * 1103515245u + 12345u)
		b[n++] = (uint8_t)(x >> 16);
	memset(b + n, 0, 50000);
	n += 50000;
	for (int i = 0; i < 256; i++)
		b[n++] = (uint8_t)i;
	*len = n;
	return b;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(buf, 1, len, f) == len;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

/* gzip @args of buf into memory. */
static char *gzip(const void *buf, size_t len, const char *args, size_t *glen)
{
	char in[64], cmd[256];

	snprintf(in, sizeof(in), TMP, (int)getpid());
	if (write_file(in, buf, len))
		return NULL;
	snprintf(cmd, sizeof(cmd), "gzip %s -c %s > %s.gz", args, in, in);
	if (system(cmd) != 0)
		return NULL;
	strcat(in, ".gz");
	buf = test_slurp(in, glen);
	unlink(in);
	in[strlen(in) - 3] = '\0';
	unlink(in);
	return (char *)buf;
}

static void round_trip(const uint8_t *data, size_t len, const char *args)
{
	size_t glen = 0, olen = 0;
	char *gz = gzip(data, len, args, &glen);
	uint8_t *out = NULL;

	CHECK(gz != NULL);
	if (!gz)
		return;
	CHECK_INT(inflate_gzip(gz, glen, 1 << 24, &out, &olen), 0);
	CHECK_INT(olen, len);
	CHECK(out && olen == len && memcmp(out, data, len) == 0);
	if (!out || olen != len || memcmp(out, data, len))
		printf("  gzip %s: output differs\n", args);
	free(out);
	free(gz);
}

TEST(gzip_levels_and_names)
{
	size_t len;
	uint8_t *data = sample(&len);

	round_trip(data, len, "-1 -n");
	round_trip(data, len, "-6"); /* keeps the file name: FNAME */
	round_trip(data, len, "-9 -n");
	round_trip(data + 120000, 70000, "-9 -n"); /* random: stored blocks */
	round_trip(data, 0, "-n");		   /* empty */
	round_trip(data, 1, "-n");
	free(data);
}

TEST(gzip_members_and_padding)
{
	size_t len, g1, g2, olen = 0;
	uint8_t *data = sample(&len), *out = NULL;
	char *a = gzip(data, 1000, "-n", &g1),
	     *b = gzip(data + 1000, 5000, "-9 -n", &g2);
	char *both = malloc(g1 + g2 + 512);

	CHECK(a && b && both);
	if (!a || !b || !both)
		goto out;
	memcpy(both, a, g1);
	memcpy(both + g1, b, g2);
	CHECK_INT(inflate_gzip(both, g1 + g2, 1 << 20, &out, &olen), 0);
	CHECK_INT(olen, 6000);
	CHECK(out && memcmp(out, data, 6000) == 0);
	free(out);
	/* zero padding after the last member (a block device's tail) */
	memset(both + g1 + g2, 0, 512);
	CHECK_INT(inflate_gzip(both, g1 + g2 + 512, 1 << 20, &out, &olen), 0);
	CHECK_INT(olen, 6000);
	free(out);
out:
	free(both);
	free(a);
	free(b);
	free(data);
}

TEST(gzip_refusals)
{
	size_t len, glen, olen;
	uint8_t *data = sample(&len), *out = (uint8_t *)"x";
	char *gz = gzip(data, len, "-6 -n", &glen);

	CHECK(gz != NULL);
	if (!gz)
		goto out;
	CHECK_INT(inflate_gzip(data, len, 1 << 24, &out, &olen), -ENOEXEC);
	CHECK(out == NULL);
	CHECK_INT(inflate_gzip(gz, 1, 1 << 24, &out, &olen), -ENOEXEC);
	CHECK_INT(inflate_gzip(gz, 5, 1 << 24, &out, &olen), -ENODATA);
	CHECK_INT(inflate_gzip(gz, glen / 2, 1 << 24, &out, &olen), -ENODATA);
	CHECK_INT(inflate_gzip(gz, glen - 3, 1 << 24, &out, &olen), -ENODATA);
	CHECK_INT(inflate_gzip(gz, glen, len - 1, &out, &olen), -EFBIG);
	gz[glen - 8] ^= 1; /* the CRC-32 */
	CHECK_INT(inflate_gzip(gz, glen, 1 << 24, &out, &olen), -EBADMSG);
	gz[glen - 8] ^= 1;
	gz[glen - 2] ^= 1; /* ISIZE */
	CHECK_INT(inflate_gzip(gz, glen, 1 << 24, &out, &olen), -EBADMSG);
	gz[glen - 2] ^= 1;
	gz[2] = 7; /* not deflate */
	CHECK_INT(inflate_gzip(gz, glen, 1 << 24, &out, &olen), -ENOEXEC);
	gz[2] = 8;
	gz[3] = 0x20; /* a reserved flag */
	CHECK_INT(inflate_gzip(gz, glen, 1 << 24, &out, &olen), -EINVAL);
	gz[3] = 0;
	CHECK_INT(inflate_gzip(gz, glen, 1 << 24, &out, &olen), 0);
	free(out);
	CHECK_STR(inflate_strerror(-EBADMSG), "CRC-32 or length mismatch");
	CHECK_STR(inflate_strerror(-ENODATA),
		  "the compressed data ends early (truncated)");
out:
	free(gz);
	free(data);
}

TEST(raw_streams_by_hand)
{
	/* fixed Huffman, "abcabcabcabcabcabc!" (zlib -15, level 9) */
	static const uint8_t fixed[] = {0x4b, 0x4c, 0x4a, 0x4e,
					0x44, 0x45, 0x8a, 0x00};
	/* one stored block, "stored" */
	static const uint8_t stored[] = {0x01, 0x06, 0x00, 0xf9, 0xff, 's',
					 't',  'o',  'r',  'e',	 'd',  0xee};
	uint8_t bad[sizeof(stored)], *out = NULL;
	size_t olen = 0, used = 0;

	CHECK_INT(inflate_raw(fixed, sizeof(fixed), 100, &out, &olen, &used),
		  0);
	CHECK_INT(olen, 19);
	CHECK(out && memcmp(out, "abcabcabcabcabcabc!", 19) == 0);
	CHECK_INT(used, sizeof(fixed));
	free(out);
	CHECK_INT(inflate_raw(fixed, sizeof(fixed), 18, &out, &olen, NULL),
		  -EFBIG);
	CHECK_INT(inflate_raw(fixed, 5, 100, &out, &olen, NULL), -ENODATA);

	CHECK_INT(inflate_raw(stored, sizeof(stored), 100, &out, &olen, &used),
		  0);
	CHECK_INT(olen, 6);
	CHECK(out && memcmp(out, "stored", 6) == 0);
	CHECK_INT(used, 11); /* the byte after the stream is not its own */
	free(out);
	memcpy(bad, stored, sizeof(bad));
	bad[3] = 0; /* NLEN is not LEN's complement */
	CHECK_INT(inflate_raw(bad, sizeof(bad), 100, &out, &olen, NULL),
		  -EINVAL);
	bad[0] = 0x07; /* block type 3 */
	CHECK_INT(inflate_raw(bad, sizeof(bad), 100, &out, &olen, NULL),
		  -EINVAL);
	CHECK_INT(inflate_raw(stored, 8, 100, &out, &olen, NULL), -ENODATA);
	/* fixed block: a distance-1 copy with nothing before it */
	bad[0] = 0x03; /* final, fixed; then length code 257 (0000001) */
	bad[1] = 0x02; /* ..., distance code 0 (00000) */
	bad[2] = 0x00;
	CHECK_INT(inflate_raw(bad, 3, 100, &out, &olen, NULL), -EINVAL);
	CHECK(out == NULL);
}

TEST(crc32_check_value)
{
	CHECK_INT(inflate_crc32(0, "123456789", 9), 0xcbf43926u);
	CHECK_INT(inflate_crc32(inflate_crc32(0, "1234", 4), "56789", 5),
		  0xcbf43926u);
	CHECK_INT(inflate_crc32(0, "", 0), 0);
}

TEST_MAIN("test_inflate", gzip_levels_and_names, gzip_members_and_padding,
	  gzip_refusals, raw_streams_by_hand, crc32_check_value)
