/* test_tpm.c - the tpm/ room: hashes (FIPS 180-4 vectors), command bytes,
 * response parsers, the kexec planner's events, the event log, and the
 * TPM itself through the fake TPM (tests/double/tpm_double.c) and, where
 * swtpm is installed, a real TPM 2.0 emulator.
 *
 * The expected digests, PCR values and log bytes were computed apart
 * from this code, with Python's hashlib and struct (the script is in
 * the comment above sample_*), and pasted here as constants.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "tpm/cmd.h"
#include "tpm/evlog.h"
#include "tpm/measure.h"
#include "tpm/uki_measure.h"
#include "tpm/tpm.h"
#include "tpm_double.h"
#include "util/arena.h"
#include "util/sha256.h"
#include "util/sha512.h"

/* --- helpers */

static const uint8_t *bank_digest(unsigned bank, const void *data, size_t len,
				  struct measure_digests *d)
{
	measure_digests_of(bank, data, len, d);
	return measure_digest(d, bank);
}

/* --- hashes: FIPS 180-4 examples (NIST CSRC "Example Values") */

static const char *const vec_in[] = {
    "", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmn"
    "opjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"};

/* [bank][vector]: the four above, then a million 'a'; then the digest
 * of the digests of bytes i % 251 for lengths 0..299 (every padding
 * boundary of both block sizes). */
static const char *const vec_out[4][6] = {
    {"da39a3ee5e6b4b0d3255bfef95601890afd80709",
     "a9993e364706816aba3e25717850c26c9cd0d89d",
     "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
     "a49b2446a02c645bf419f995b67091253a04a259",
     "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
     "415cea6bc6991763c99ec16eb06ad992a955e73f"},
    {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
     "fa70b867db0a30acb7218d62945db0df52eb393808b30675ea9aac6b058a9a9d"},
    {"38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274ed"
     "ebfe76f65fbd51ad2f14898b95b",
     "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed80860"
     "72ba1e7cc2358baeca134c825a7",
     "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455"
     "a8520bc4e6f5fe95b1fe3c8452b",
     "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c"
     "71a557e2db966c3e9fa91746039",
     "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b"
     "3dc38ecc4ebae97ddd87f3d8985",
     "960929a702d4459cf68fcaab573d85b98a5d2d8b1026673f1198829cf429a13b0e8bb"
     "50b36fb7c0d3b0720605eef2998"},
    {"cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d"
     "13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a21929"
     "92a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
     "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd1"
     "5c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d2"
     "89e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
     "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff"
     "244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
     "5876909c163eee9aa8e3e0dbbe23ff09a3b1c1690c50ecab0cf75109b7ea093180f3b"
     "1db84ac4671a35db7394d95e9b645b20209761dc874ec013385e1db7916"},
};

TEST(sha_fips_vectors)
{
	struct measure_digests d;

	for (unsigned k = 0; k < MEASURE_BANKS; k++)
		for (size_t v = 0; v < 4; v++)
			CHECK(test_hex_eq(bank_digest(1u << k, vec_in[v],
						      strlen(vec_in[v]), &d),
					  vec_out[k][v]));
}

/* A million 'a', fed in pieces of 1..997 bytes through all four at once. */
TEST(sha_million_a)
{
	static char a[1000];
	struct measure_hash h;
	struct measure_digests d;
	size_t left = 1000000, step = 1;

	memset(a, 'a', sizeof(a));
	measure_hash_init(&h, MEASURE_BANKS_ALL);
	while (left) {
		size_t n = step < left ? step : left;

		measure_hash_update(&h, a, n);
		left -= n;
		step = step % 997 + 1;
	}
	measure_hash_final(&h, &d);
	CHECK_INT(d.banks, MEASURE_BANKS_ALL);
	for (unsigned k = 0; k < MEASURE_BANKS; k++)
		CHECK(test_hex_eq(measure_digest(&d, 1u << k), vec_out[k][4]));
}

TEST(sha_every_padding_length)
{
	uint8_t buf[300];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i % 251);
	for (unsigned k = 0; k < MEASURE_BANKS; k++) {
		unsigned bank = 1u << k;
		struct measure_hash chain;
		struct measure_digests d, c;

		measure_hash_init(&chain, bank);
		for (size_t n = 0; n < sizeof(buf); n++)
			measure_hash_update(&chain,
					    bank_digest(bank, buf, n, &d),
					    measure_bank_size(bank));
		measure_hash_final(&chain, &c);
		CHECK(test_hex_eq(measure_digest(&c, bank), vec_out[k][5]));
	}
}

/* The plain interfaces the kexec planner and the rest use. */
TEST(sha_plain_interfaces)
{
	struct sha1 s1;
	struct sha256 s2;
	struct sha512 s3, s5;
	uint8_t d1[SHA1_LEN], d2[SHA256_LEN], d3[SHA384_LEN], d5[SHA512_LEN];

	sha1_init(&s1);
	sha256_init(&s2);
	sha384_init(&s3);
	sha512_init(&s5);
	sha1_update(&s1, "a", 1);
	sha1_update(&s1, "bc", 2);
	sha256_update(&s2, "ab", 2);
	sha256_update(&s2, "c", 1);
	sha512_update(&s3, "abc", 3);
	sha512_update(&s5, "", 0);
	sha512_update(&s5, "abc", 3);
	sha1_final(&s1, d1);
	sha256_final(&s2, d2);
	sha384_final(&s3, d3);
	sha512_final(&s5, d5);
	CHECK(test_hex_eq(d1, vec_out[0][1]));
	CHECK(test_hex_eq(d2, vec_out[1][1]));
	CHECK(test_hex_eq(d3, vec_out[2][1]));
	CHECK(test_hex_eq(d5, vec_out[3][1]));
}

/* --- command bytes (TPM 2.0 Part 3) and response parsers */

TEST(cmd_bytes)
{
	static const uint8_t getcap[] = {
	    0x80, 0x01, 0, 0, 0, 22, 0, 0, 0x01, 0x7a, /* header */
	    0,	  0,	0, 5,			       /* TPM_CAP_PCRS */
	    0,	  0,	0, 0, 0, 0,  0, 1};	       /* property, count */
	static const uint8_t read9[] = {
	    0x80, 0x01, 0, 0, 0,    20, 0, 0, 0x01, 0x7e, /* header */
	    0,	  0,	0, 1,				  /* one selection */
	    0,	  0x0b, 3, 0, 0x02, 0};			  /* sha256, PCR 9 */
	static const uint8_t ext_head[] = {
	    0x80, 0x02, 0,    0,    0, 10 + 4 + 4 + 9 + 4 + 2 + 32,
	    0,	  0,	0x01, 0x82, 0, 0,
	    0,	  8,			      /* pcrHandle */
	    0,	  0,	0,    9,	      /* authorizationSize */
	    0x40, 0,	0,    9,	      /* TPM_RS_PW */
	    0,	  0,	0,    0,    0,	      /* nonce, attrs, hmac */
	    0,	  0,	0,    1,    0, 0x0b}; /* one digest, sha256 */
	uint8_t buf[TPM_BUF_MAX];
	struct measure_digests d;

	CHECK_INT(tpm_cmd_get_pcrs(buf, sizeof(buf)), sizeof(getcap));
	CHECK(memcmp(buf, getcap, sizeof(getcap)) == 0);
	CHECK_INT(tpm_cmd_pcr_read(buf, sizeof(buf), 9, MEASURE_BANK_SHA256),
		  sizeof(read9));
	CHECK(memcmp(buf, read9, sizeof(read9)) == 0);
	measure_digests_of(MEASURE_BANKS_ALL, "abc", 3, &d);
	CHECK_INT(
	    tpm_cmd_pcr_extend(buf, sizeof(buf), 8, &d, MEASURE_BANK_SHA256),
	    sizeof(ext_head) + 32);
	CHECK(memcmp(buf, ext_head, sizeof(ext_head)) == 0);
	CHECK(test_hex_eq(buf + sizeof(ext_head), vec_out[1][1]));
	/* all four banks: 4 digests in algorithm order */
	CHECK_INT(
	    tpm_cmd_pcr_extend(buf, sizeof(buf), 8, &d, MEASURE_BANKS_ALL),
	    31 + 4 * 2 + 20 + 32 + 48 + 64);
	CHECK_INT(buf[32], 0x04);      /* after the count (27..30) */
	CHECK_INT(buf[32 + 22], 0x0b); /* after SHA-1's 20 bytes */
	/* no room, a PCR past 23, a bank the digests lack: nothing */
	CHECK_INT(tpm_cmd_pcr_extend(buf, 40, 8, &d, MEASURE_BANK_SHA256), 0);
	CHECK_INT(tpm_cmd_pcr_extend(buf, sizeof(buf), 24, &d, 1), 0);
	d.banks = MEASURE_BANK_SHA1;
	CHECK_INT(tpm_cmd_pcr_extend(buf, sizeof(buf), 8, &d, 3), 0);
	CHECK_INT(tpm_cmd_get_pcrs(buf, 21), 0);
}

/* swtpm 0.7.1's answers, as read from it (GetCapability(TPM_CAP_PCRS)
 * and PCR_Read(8, sha256) of a fresh TPM). */
static const char swtpm_getcap[] =
    "80010000002b00000000000000000500000004000403ffffff000b03ffffff000c03"
    "ffffff000d03ffffff";
static const char swtpm_read8[] =
    "80010000003e000000000000001400000001000b0300010000000001002000000000"
    "00000000000000000000000000000000000000000000000000000000";

TEST(rsp_parsers)
{
	uint8_t r[256], out[64];
	uint32_t rc = 7;
	unsigned banks = 0, other = 9;
	size_t n = strlen(swtpm_getcap) / 2, m = strlen(swtpm_read8) / 2;

	test_unhex(swtpm_getcap, r, n);
	CHECK_INT(tpm_rsp_get_pcrs(r, n, &rc, &banks, &other), 0);
	CHECK_INT(banks, MEASURE_BANKS_ALL);
	CHECK_INT(other, 0);
	for (size_t k = 0; k < n; k++) /* every truncation is refused */
		CHECK_INT(tpm_rsp_get_pcrs(r, k, &rc, &banks, NULL), -EBADMSG);
	r[13] = 6; /* another capability */
	CHECK_INT(tpm_rsp_get_pcrs(r, n, &rc, &banks, NULL), -EBADMSG);

	test_unhex(swtpm_read8, r, m);
	memset(out, 0xaa, sizeof(out));
	CHECK_INT(tpm_rsp_pcr_read(r, m, &rc, 8, MEASURE_BANK_SHA256, out), 0);
	CHECK(out[0] == 0 && out[31] == 0 && out[32] == 0xaa);
	CHECK_INT(tpm_rsp_pcr_read(r, m, &rc, 9, MEASURE_BANK_SHA256, out),
		  -EBADMSG);
	CHECK_INT(tpm_rsp_pcr_read(r, m, &rc, 8, MEASURE_BANK_SHA1, out),
		  -EBADMSG);
	for (size_t k = 0; k < m; k++)
		CHECK_INT(tpm_rsp_pcr_read(r, k, &rc, 8, 2, out), -EBADMSG);

	/* an error: the header alone; a TPM 1.2; a bad tag */
	test_unhex("80010000000a00000922", r, 10);
	CHECK_INT(tpm_rsp_pcr_extend(r, 10, &rc), -EREMOTEIO);
	CHECK_INT(rc, TPM_RC_RETRY);
	test_unhex("00c40000000a0000001e", r, 10);
	CHECK_INT(tpm_rsp_code(r, 10, &rc), -EPROTONOSUPPORT);
	test_unhex("80030000000a00000000", r, 10);
	CHECK_INT(tpm_rsp_code(r, 10, &rc), -EBADMSG);
	/* PCR_Extend's success: parameterSize 0, one session */
	test_unhex("80020000001300000000000000000000010000", r, 19);
	CHECK_INT(tpm_rsp_pcr_extend(r, 19, &rc), 0);
	CHECK_INT(rc, 0);
	CHECK_INT(tpm_rsp_pcr_extend(r, 18, &rc), -EBADMSG);
}

/* --- the sample boot, and what Python says it measures:
 *
 *   kernel = bytes((i*7+3) & 0xff for i in range(5000))
 *   ucode  = b"first initrd\n" * 100
 *   initrd = bytes((i*13+1) & 0xff for i in range(70001))
 *   cmd    = b"root=UUID=1234 ro quiet"
 *   events (PCR, data, digest over): (9, path+NUL, kernel),
 *     (8, b"kernel_cmdline: "+cmd+NUL, cmd), (9, path+NUL, ucode),
 *     (9, path+NUL, initrd); PCR = H(PCR || H(bytes)) from zeros;
 *   the log: struct.pack("<II",0,3)+bytes(20)+pack("<I",len(spec))+spec,
 *     spec = b"Spec ID Event03\0"+pack("<IBBBBI",0,0,2,2,2,nbanks)
 *     +pack("<HH",alg,size) each+b"\0"; then per event
 *     pack("<III",pcr,0xd,nbanks)+(pack("<H",alg)+digest) each
 *     +pack("<I",len(data))+data.
 */
#define KERNEL_PATH "/boot/vmlinuz-6.1.0-13-amd64"
#define UCODE_PATH "/boot/intel-ucode.img"
#define INITRD_PATH "/boot/initrd.img-6.1.0-13-amd64"
#define CMDLINE "root=UUID=1234 ro quiet"

static const char *const want_pcr8[4] = {
    "d8ea4a6f1c32e40e84c41f0ffd8911615babd3a3",
    "879530b216633837bd2f49397e1ad4b2c8806cddd99a3ba09aefaa55ff80be7d",
    "e8bf202cefffa04e3ab8d885782f2616f17fa4672638255818bea17b9225e982e448c"
    "3325e5cfb754afab73b38b8599c",
    "2c7c072a02bf2b958f04455921890cfdebdae1abf84c92cda74bbc289782704d3ea29"
    "d8df3893daa977ef4da8dbe1aae524ec5656c2e86cee3ac5535c6c989d1"};
static const char *const want_pcr9[4] = {
    "c02a275b7ccccd5e5bb100d210a5d28f9254a196",
    "939217fab92a8e6ee06f912c1002abf5d5dd49d3ea02e317bf5e5b3f59437059",
    "785299498fb88f5c5ad63b10ad1a88b002c8516644247c226ab536fecad017bf113400"
    "58770607d353578c4e5aca4f14",
    "a4b5840d7a3c26250e4e592b2357046b65ff8978d783cd88d96024400cad851126a86"
    "54809d0cdc7e874fc258cabda2bb3278488cb9b164acbc6b1bb1ce56d13"};
#define WANT_KERNEL_SHA256                                                     \
	"34398b85297bf7d9dfb59b8d511d8bbb44ab23e891570e4395e7871475fc8afb"
#define WANT_CMD_SHA256                                                        \
	"d92224a43e3a1f6639068eba6a07a99a2f009d854ce4bfcbd82f05910cc9a214"
/* sha256 of the whole log with sha1+sha256 (480 bytes), all four (952) */
#define WANT_LOG2_SHA256                                                       \
	"c947c0d11db446a2d1fc3315d54e64ed80daf1a7e9fdd330ec0d55f9c0fa4614"
#define WANT_LOG4_SHA256                                                       \
	"e9fe8ecc8c935b55b159009338ee06a9ff4ed65b279714df3d0918af86d359c2"

static uint8_t sample_kernel[5000], sample_ucode[1300], sample_initrd[70001];

static void sample_make(void)
{
	for (size_t i = 0; i < sizeof(sample_kernel); i++)
		sample_kernel[i] = (uint8_t)(i * 7 + 3);
	for (size_t i = 0; i < 100; i++)
		memcpy(sample_ucode + 13 * i, "first initrd\n", 13);
	for (size_t i = 0; i < sizeof(sample_initrd); i++)
		sample_initrd[i] = (uint8_t)(i * 13 + 1);
}

/* The sample boot planned into @l; the last initrd streamed through a
 * measure_hash in 4 KiB reads, as a loader does, when @stream. */
static int sample_plan_at(struct measure_list *l, int stream)
{
	struct measure_digests d;
	struct measure_file k = {KERNEL_PATH, "kernel", sample_kernel,
				 sizeof(sample_kernel), NULL};
	struct measure_file i[2] = {
	    {UCODE_PATH, "initrd", sample_ucode, sizeof(sample_ucode), NULL},
	    {INITRD_PATH, "initrd", sample_initrd, sizeof(sample_initrd),
	     NULL}};

	sample_make();
	if (stream) {
		struct measure_hash h;

		measure_hash_init(&h, l->banks);
		for (size_t o = 0; o < sizeof(sample_initrd); o += 4096) {
			size_t n = sizeof(sample_initrd) - o;

			measure_hash_update(&h, sample_initrd + o,
					    n < 4096 ? n : 4096);
		}
		measure_hash_final(&h, &d);
		i[1].data = NULL;
		i[1].d = &d;
	}
	return measure_plan_kexec(l, &k, i, 2, CMDLINE);
}

static int sample_plan(struct measure_list *l, int stream)
{
	return sample_plan_at(l, stream);
}

TEST(plan_kexec_events)
{
	static const char cmd_log[] = "kernel_cmdline: " CMDLINE;
	struct arena a = ARENA_INIT;
	struct measure_list l;
	const struct measure_event *e;

	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(sample_plan(&l, 0), 0);
	CHECK_INT(l.n, 4);
	e = &l.ev[0];
	CHECK_INT(e->pcr, 9);
	CHECK_INT(e->type, TCG_EV_IPL);
	CHECK_INT(e->log_len, sizeof(KERNEL_PATH)); /* with its NUL */
	CHECK(memcmp(e->log, KERNEL_PATH, sizeof(KERNEL_PATH)) == 0);
	CHECK_STR(e->what, "kernel " KERNEL_PATH);
	CHECK(test_hex_eq(e->d.sha256, WANT_KERNEL_SHA256));
	CHECK_INT(e->d.banks, MEASURE_BANK_SHA256);
	CHECK_INT(e->rc, MEASURE_PENDING);
	e = &l.ev[1];
	CHECK_INT(e->pcr, 8);
	CHECK_INT(e->type, TCG_EV_IPL);
	CHECK_INT(e->log_len, sizeof(cmd_log));
	CHECK(memcmp(e->log, cmd_log, sizeof(cmd_log)) == 0);
	CHECK(test_hex_eq(e->d.sha256, WANT_CMD_SHA256));
	CHECK_STR(e->what, "cmdline");
	CHECK_INT(l.ev[2].pcr, 9);
	CHECK_STR(l.ev[2].what, "initrd " UCODE_PATH);
	CHECK_INT(l.ev[3].log_len, sizeof(INITRD_PATH));
	arena_free(&a);
}

/* A multiboot boot (Xen) in GRUB 2.06's order: the kernel, its line,
 * then each module and its string ("module_cmdline: ", PCR 8); a module
 * without a string measures "". The digests computed here with
 * hashlib's values of the same bytes. */
TEST(plan_multiboot_events)
{
	static const char mod_log[] = "module_cmdline: placeholder " CMDLINE;
	const char *strings[2] = {"placeholder " CMDLINE, NULL};
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_file k = {KERNEL_PATH, "kernel", sample_kernel,
				 sizeof(sample_kernel), NULL};
	struct measure_file m[2] = {
	    {UCODE_PATH, "module", sample_ucode, sizeof(sample_ucode), NULL},
	    {INITRD_PATH, "module", sample_initrd, sizeof(sample_initrd),
	     NULL}};
	const struct measure_event *e;

	sample_make();
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(measure_plan_multiboot(&l, &k, CMDLINE, m, strings, 2), 0);
	CHECK_INT(l.n, 6);
	CHECK_INT(l.ev[0].pcr, 9);
	CHECK(test_hex_eq(l.ev[0].d.sha256, WANT_KERNEL_SHA256));
	CHECK_INT(l.ev[1].pcr, 8);
	CHECK(test_hex_eq(l.ev[1].d.sha256, WANT_CMD_SHA256));
	CHECK_INT(l.ev[2].pcr, 9);
	CHECK_STR(l.ev[2].what, "module " UCODE_PATH);
	e = &l.ev[3];
	CHECK_INT(e->pcr, 8);
	CHECK_INT(e->type, TCG_EV_IPL);
	CHECK_INT(e->log_len, sizeof(mod_log));
	CHECK(memcmp(e->log, mod_log, sizeof(mod_log)) == 0);
	CHECK(test_hex_eq(e->d.sha256,
			  "0a059ea93c0b4ca17dd8c3a0c6ccbf79c2875211abcf"
			  "562849d59a7ad8aba502"));
	CHECK_INT(l.ev[4].pcr, 9);
	CHECK_STR(l.ev[4].what, "module " INITRD_PATH);
	CHECK_INT(l.ev[5].pcr, 8);
	CHECK_INT(l.ev[5].log_len, sizeof("module_cmdline: "));
	CHECK(test_hex_eq(l.ev[5].d.sha256,
			  "e3b0c44298fc1c149afbf4c8996fb92427ae41e"
			  "4649b934ca495991b7852b855"));
	/* no kernel: refused */
	CHECK_INT(measure_plan_multiboot(&l, NULL, CMDLINE, m, strings, 2),
		  -EINVAL);
	arena_free(&a);
}

/* PCR 12 as systemd-stub measures its load options (Python:
 * cmd.encode("utf-16-le") + b"\0\0", digest and event data alike),
 * made by tpm/uki_measure.c: the digest computed here independently. */
TEST(plan_pcr12_systemd_form)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	const struct measure_event *e;

	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(uki_measure_pcr12(&l, CMDLINE), 0);
	CHECK_INT(l.n, 1);
	e = &l.ev[0];
	CHECK_INT(e->pcr, 12);
	CHECK_INT(e->type, TCG_EV_IPL);
	CHECK_INT(e->log_len, 2 * sizeof(CMDLINE));
	CHECK(memcmp(e->log, "r\0o\0o\0t\0=\0", 10) == 0);
	CHECK(test_hex_eq(e->d.sha256,
			  "1b6ca170256306031181c40422ddec58bf3d54f7e2"
			  "3097a074020c8f65be05dd"));
	arena_free(&a);
}

/* Digests made while streaming equal those of the whole buffer; a list
 * refuses digests lacking one of its banks; many events grow the list. */
TEST(plan_streamed_and_limits)
{
	struct arena a = ARENA_INIT;
	struct measure_list l, s;
	struct measure_digests d;
	struct measure_file f = {"/x", NULL, "x", 1, &d};

	measure_list_init(&l, &a, MEASURE_BANKS_ALL);
	measure_list_init(&s, &a, MEASURE_BANKS_ALL);
	CHECK_INT(sample_plan(&l, 0), 0);
	CHECK_INT(sample_plan(&s, 1), 0);
	CHECK_INT(s.n, 4);
	CHECK(memcmp(&l.ev[3].d, &s.ev[3].d, sizeof(d)) == 0);
	measure_digests_of(MEASURE_BANK_SHA256, "x", 1, &d);
	errno = 0;
	CHECK(measure_file(&l, &f) == NULL);
	CHECK_INT(errno, EINVAL);
	f.path = NULL;
	CHECK(measure_file(&l, &f) == NULL);
	CHECK_INT(l.n, 4);
	for (int i = 0; i < 100; i++)
		CHECK(measure_cmdline(&l, NULL) != NULL);
	CHECK_INT(l.n, 104);
	CHECK_INT(l.ev[103].log_len, sizeof("kernel_cmdline: "));
	CHECK(test_hex_eq(l.ev[103].d.sha256, vec_out[1][0]));
	arena_free(&a);
}

/* What --list --json predicts: from zeros, or from values read before. */
TEST(plan_predicts_pcrs)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_digests v, start;

	measure_list_init(&l, &a, MEASURE_BANKS_ALL);
	CHECK_INT(sample_plan(&l, 0), 0);
	measure_predict(&l, 8, NULL, &v);
	CHECK_INT(v.banks, MEASURE_BANKS_ALL);
	for (unsigned k = 0; k < MEASURE_BANKS; k++)
		CHECK(test_hex_eq(measure_digest(&v, 1u << k), want_pcr8[k]));
	measure_predict(&l, 9, NULL, &v);
	for (unsigned k = 0; k < MEASURE_BANKS; k++)
		CHECK(test_hex_eq(measure_digest(&v, 1u << k), want_pcr9[k]));
	/* from a PCR 9 that already held the first event: the last three */
	memset(&start, 0, sizeof(start));
	start.banks = MEASURE_BANKS_ALL;
	measure_extend(&start, &l.ev[0].d);
	l.ev[0].rc = -EREMOTEIO; /* failed events are not counted */
	measure_predict(&l, 9, &start, &v);
	CHECK(test_hex_eq(v.sha256, want_pcr9[1]));
	measure_predict(&l, 12, NULL, &v);
	CHECK(test_hex_eq(v.sha1, "0000000000000000000000000000000000000000"));
	arena_free(&a);
}

/* --- the event log */

static void check_replay(const uint8_t *log, size_t len, unsigned banks)
{
	struct evlog_pcrs p;

	CHECK_INT(evlog_replay(log, len, &p), 0);
	CHECK_INT(p.banks, banks);
	CHECK_INT(p.touched, 1u << 8 | 1u << 9);
	CHECK_INT(p.events, 4);
	for (unsigned k = 0; k < MEASURE_BANKS; k++) {
		if (!(banks & 1u << k))
			continue;
		CHECK(test_hex_eq(measure_digest(&p.pcr[8], 1u << k),
				  want_pcr8[k]));
		CHECK(test_hex_eq(measure_digest(&p.pcr[9], 1u << k),
				  want_pcr9[k]));
	}
}

/* Runs tpm2_eventlog on the log and looks for the PCR values it
 * prints ("    9  : 0x<hex>"): 1 all there, 0 not, -1 no tpm2_eventlog. */
static int tpm2_eventlog_agrees(const uint8_t *log, size_t len, unsigned banks)
{
	char path[] = "/tmp/test_tpm_log.XXXXXX", cmd[128], *out;
	size_t n = 0;
	int fd = mkstemp(path), ok = 1;

	if (fd < 0 || write(fd, log, len) != (ssize_t)len)
		return 0;
	close(fd);
	if (system("command -v tpm2_eventlog >/dev/null 2>&1") != 0) {
		unlink(path);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "tpm2_eventlog %s > %s.out 2>&1", path,
		 path);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s.out", path);
	out = test_slurp(cmd, &n);
	for (unsigned k = 0; out && k < MEASURE_BANKS; k++) {
		char want[160];

		if (!(banks & 1u << k))
			continue;
		snprintf(want, sizeof(want), "8  : 0x%s", want_pcr8[k]);
		ok &= strstr(out, want) != NULL;
		snprintf(want, sizeof(want), "9  : 0x%s", want_pcr9[k]);
		ok &= strstr(out, want) != NULL;
	}
	if (!out || !ok)
		printf("  tpm2_eventlog said:\n%s\n", out ? out : "(nothing)");
	free(out);
	unlink(cmd);
	unlink(path);
	return out && ok;
}

TEST(evlog_matches_python_and_tpm2_tools)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_digests d;
	uint8_t *log;
	size_t len;

	measure_list_init(&l, &a, MEASURE_BANK_SHA1 | MEASURE_BANK_SHA256);
	CHECK_INT(sample_plan(&l, 1), 0);
	CHECK_INT(evlog_write(&a, &l, 0, &log, &len), 0);
	CHECK_INT(len, 480);
	CHECK(test_hex_eq(bank_digest(MEASURE_BANK_SHA256, log, len, &d),
			  WANT_LOG2_SHA256));
	check_replay(log, len, 3);
	int rc = tpm2_eventlog_agrees(log, len, 3);
	if (rc < 0)
		test_skip("tpm2_eventlog is not installed (tpm2-tools)");
	else
		CHECK_INT(rc, 1);
	measure_list_init(&l, &a, MEASURE_BANKS_ALL);
	CHECK_INT(sample_plan(&l, 0), 0);
	CHECK_INT(evlog_write(&a, &l, 0, &log, &len), 0);
	CHECK_INT(len, 952);
	CHECK(test_hex_eq(bank_digest(MEASURE_BANK_SHA256, log, len, &d),
			  WANT_LOG4_SHA256));
	check_replay(log, len, MEASURE_BANKS_ALL);
	if (rc >= 0)
		CHECK_INT(tpm2_eventlog_agrees(log, len, MEASURE_BANKS_ALL), 1);
	arena_free(&a);
}

/* EVLOG_EXTENDED leaves out what the TPM did not take; the reader
 * refuses every truncation and a log of the older SHA-1 format. */
TEST(evlog_extended_and_reader)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct evlog_reader r;
	struct evlog_event ev;
	struct evlog_pcrs p;
	uint8_t *log, *all;
	size_t len, all_len;
	int n = 0, rc;

	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(sample_plan(&l, 0), 0);
	CHECK_INT(evlog_write(&a, &l, EVLOG_EXTENDED, &log, &len), 0);
	CHECK_INT(evlog_replay(log, len, &p), 0);
	CHECK_INT(p.events, 0); /* nothing was extended yet */
	for (size_t i = 0; i < l.n; i++)
		l.ev[i].rc = i == 1 ? -EREMOTEIO : 0;
	CHECK_INT(evlog_write(&a, &l, EVLOG_EXTENDED, &log, &len), 0);
	CHECK_INT(evlog_open(&r, log, len), 0);
	CHECK_INT(r.banks, MEASURE_BANK_SHA256);
	while ((rc = evlog_next(&r, &ev)) == 1) {
		CHECK_INT(ev.pcr, 9);
		n++;
	}
	CHECK_INT(rc, 0);
	CHECK_INT(n, 3);
	CHECK_INT(evlog_write(&a, &l, 0, &all, &all_len), 0);
	n = 0; /* a cut between two events is a shorter log, any other
		* cut is refused */
	for (size_t k = 0; k < all_len; k++) {
		rc = evlog_replay(all, k, &p);
		CHECK(rc == 0 || rc == -EBADMSG);
		n += rc == 0;
	}
	CHECK_INT(n, 4);
	all[0] = 1; /* the Spec ID event is PCR 0's */
	CHECK_INT(evlog_replay(all, all_len, &p), -EBADMSG);
	measure_list_init(&l, &a, 0);
	CHECK_INT(evlog_write(&a, &l, 0, &log, &len), -EINVAL);
	arena_free(&a);
}

/* --- through the fake TPM */

static struct tpm_double *dbl_open(struct tpm *t, unsigned banks)
{
	int fd = -1;
	struct tpm_double *d = tpm_double_start(banks, &fd);

	CHECK(d != NULL);
	if (d)
		CHECK_INT(tpm_open_fd(t, fd), 0);
	return d;
}

TEST(double_extend_read_round_trip)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_digests v;
	struct tpm t;
	uint8_t raw[64];
	struct tpm_double *d =
	    dbl_open(&t, MEASURE_BANK_SHA1 | MEASURE_BANK_SHA256);

	if (!d)
		return;
	CHECK_INT(t.banks, MEASURE_BANK_SHA1 | MEASURE_BANK_SHA256);
	CHECK_INT(t.other, 0);
	measure_list_init(&l, &a, t.banks);
	CHECK_INT(sample_plan(&l, 1), 0);
	CHECK_INT(tpm_measure(&t, &l), 0);
	for (size_t i = 0; i < l.n; i++)
		CHECK_INT(l.ev[i].rc, 0);
	CHECK_INT(tpm_pcr_read(&t, 8, t.banks, &v), 0);
	CHECK_INT(v.banks, t.banks);
	CHECK(test_hex_eq(v.sha1, want_pcr8[0]));
	CHECK(test_hex_eq(v.sha256, want_pcr8[1]));
	CHECK_INT(tpm_pcr_read(&t, 9, t.banks, &v), 0);
	CHECK(test_hex_eq(v.sha1, want_pcr9[0]));
	CHECK(test_hex_eq(v.sha256, want_pcr9[1]));
	CHECK_INT(tpm_double_pcr(d, 9, MEASURE_BANK_SHA256, raw), 0);
	CHECK(test_hex_eq(raw, want_pcr9[1]));
	CHECK_INT(tpm_double_counts(d).extends, 4);
	CHECK_INT(tpm_double_counts(d).partial, 0);
	/* measured events are not measured again */
	CHECK_INT(tpm_measure(&t, &l), 0);
	CHECK_INT(tpm_double_counts(d).extends, 4);
	/* a bank the TPM does not have; a PCR it does not have */
	CHECK_INT(tpm_pcr_read(&t, 8, MEASURE_BANK_SHA384, &v), -ENODATA);
	CHECK_INT(tpm_pcr_read(&t, 24, MEASURE_BANK_SHA1, &v), -EINVAL);
	tpm_close(&t);
	tpm_close(&t);
	tpm_double_stop(d);
	arena_free(&a);
}

/* The TPM refuses one extend, asks for another again, then takes the
 * rest; each event records what happened to it. */
TEST(double_refusals_are_per_event)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct tpm t;
	struct tpm_double *d = dbl_open(&t, MEASURE_BANK_SHA256);

	if (!d)
		return;
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(sample_plan(&l, 0), 0);
	tpm_double_fail(d, TPM_CC_PCR_EXTEND, 0x101, 1); /* TPM_RC_FAILURE */
	CHECK_INT(tpm_measure(&t, &l), -EREMOTEIO);
	CHECK_INT(l.ev[0].rc, -EREMOTEIO);
	CHECK_INT(l.ev[0].tpm_rc, 0x101);
	CHECK_INT(t.rc, 0x101);
	for (size_t i = 1; i < l.n; i++)
		CHECK_INT(l.ev[i].rc, 0);
	CHECK_INT(tpm_double_counts(d).extends, 3);
	/* TPM_RC_RETRY twice: sent again, within the time limit */
	l.ev[0].rc = MEASURE_PENDING;
	tpm_double_fail(d, TPM_CC_PCR_EXTEND, TPM_RC_RETRY, 2);
	CHECK_INT(tpm_measure(&t, &l), 0);
	CHECK_INT(l.ev[0].rc, 0);
	CHECK_INT(tpm_double_counts(d).extends, 4);
	/* a list that lacks the TPM's bank; no TPM at all */
	measure_list_init(&l, &a, MEASURE_BANK_SHA1);
	CHECK(measure_cmdline(&l, "x") != NULL);
	CHECK_INT(tpm_measure(&t, &l), -EINVAL);
	l.ev[0].rc = MEASURE_PENDING;
	CHECK_INT(tpm_measure(NULL, &l), -ENODEV);
	CHECK_INT(l.ev[0].rc, -ENODEV);
	tpm_close(&t);
	tpm_double_stop(d);
	arena_free(&a);
}

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A TPM that stops answering costs one time limit, then nothing. */
TEST(double_stall_times_out_once)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct tpm t;
	struct tpm_double *d = dbl_open(&t, MEASURE_BANK_SHA256);
	long long t0, t1, t2;

	if (!d)
		return;
	CHECK_INT(t.timeout_ms, 2000);
	t.timeout_ms = 300;
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(sample_plan(&l, 0), 0);
	tpm_double_stall(d, 1);
	t0 = ms_now();
	CHECK_INT(tpm_measure(&t, &l), -ETIMEDOUT);
	t1 = ms_now();
	CHECK(t1 - t0 >= 300 && t1 - t0 < 1500);
	for (size_t i = 0; i < l.n; i++)
		CHECK_INT(l.ev[i].rc, -ETIMEDOUT);
	CHECK_INT(t.broken, -ETIMEDOUT);
	CHECK_INT(tpm_get_banks(&t, &t.banks), -ETIMEDOUT);
	t2 = ms_now();
	CHECK(t2 - t1 < 100);
	CHECK_INT(tpm_double_counts(d).commands, 2); /* GetCapability, one */
	tpm_close(&t);
	CHECK(t.fd >= 0); /* left open: closing /dev/tpm* would wait */
	close(t.fd);
	tpm_double_stop(d);
	arena_free(&a);
}

/* Answers in two parts (a stream socket, swtpm) are put together;
 * malformed answers give the TPM up; banks we cannot hash are counted. */
TEST(double_split_garbage_and_other_banks)
{
	static const uint8_t junk[] = {0x80, 0x01, 0, 0, 0, 12,
				       0,    0,	   0, 0, 1, 2};
	static const uint8_t bad_size[] = {0x80, 0x01, 0, 0, 0, 4, 0, 0, 0, 0};
	struct measure_digests v;
	struct tpm t;
	int fd = -1;
	struct tpm_double *d =
	    dbl_open(&t, MEASURE_BANK_SHA256 | TPM_DOUBLE_SM3);

	if (!d)
		return;
	CHECK_INT(t.banks, MEASURE_BANK_SHA256);
	CHECK_INT(t.other, 1);
	tpm_double_split(d, 3);
	CHECK_INT(tpm_pcr_read(&t, 0, MEASURE_BANK_SHA256, &v), 0);
	CHECK(test_hex_eq(v.sha256,
			  "0000000000000000000000000000000000000000000000"
			  "000000000000000000"));
	tpm_double_split(d, 0);
	/* a whole answer that is not one: refused, the TPM still usable */
	tpm_double_reply(d, junk, sizeof(junk));
	CHECK_INT(tpm_pcr_read(&t, 0, MEASURE_BANK_SHA256, &v), -EBADMSG);
	CHECK_INT(t.broken, 0);
	CHECK_INT(tpm_pcr_read(&t, 0, MEASURE_BANK_SHA256, &v), 0);
	/* a header whose size is below its own: where the next answer
	 * begins is lost, so the TPM is given up */
	tpm_double_reply(d, bad_size, sizeof(bad_size));
	CHECK_INT(tpm_pcr_read(&t, 0, MEASURE_BANK_SHA256, &v), -EBADMSG);
	CHECK_INT(t.broken, -EBADMSG);
	CHECK_INT(tpm_pcr_read(&t, 0, MEASURE_BANK_SHA256, &v), -EBADMSG);
	CHECK_INT(tpm_double_counts(d).commands, 5);
	tpm_close(&t);
	CHECK_INT(t.fd, -1);
	tpm_double_stop(d);

	/* only a bank we cannot hash: not usable */
	d = tpm_double_start(TPM_DOUBLE_SM3, &fd);
	CHECK(d != NULL);
	if (d) {
		CHECK_INT(tpm_open_fd(&t, fd), -EOPNOTSUPP);
		tpm_double_stop(d);
	}
	/* a TPM that refuses GetCapability at open */
	d = tpm_double_start(MEASURE_BANK_SHA256, &fd);
	if (d) {
		tpm_double_fail(d, 0, 0x101, 1);
		CHECK_INT(tpm_open_fd(&t, fd), -EREMOTEIO);
		CHECK_INT(t.rc, 0x101);
		tpm_double_stop(d);
	}
}

/* The fake TPM goes away: an error, not SIGPIPE; the menu's words. */
TEST(peer_gone_and_error_text)
{
	struct measure_digests v;
	struct tpm t;
	char buf[80];
	struct tpm_double *d = dbl_open(&t, MEASURE_BANK_SHA256);

	if (!d)
		return;
	tpm_double_stop(d);
	CHECK(tpm_pcr_read(&t, 0, MEASURE_BANK_SHA256, &v) < 0);
	CHECK(t.broken < 0);
	tpm_close(&t);
	CHECK_STR(tpm_error_text(-EREMOTEIO, 0x101, buf, sizeof(buf)),
		  "TPM error 0x101");
	CHECK_STR(tpm_error_text(-ETIMEDOUT, 0, buf, sizeof(buf)),
		  "the TPM did not answer in time");
	CHECK_STR(tpm_error_text(-ENOENT, 0, buf, sizeof(buf)), "no TPM");
	CHECK_STR(tpm_error_text(-EBADMSG, 0, buf, sizeof(buf)),
		  strerror(EBADMSG));
}

TEST(open_paths)
{
	struct tpm t;

	CHECK_INT(tpm_open(&t, "/nonexistent/tpmrm0"), -ENOENT);
	CHECK_INT(t.fd, -1);
	tpm_close(&t);
	/* a file that is no TPM: it answers nothing, or nonsense */
	CHECK(tpm_open(&t, "/dev/null") < 0);
	CHECK_INT(t.fd, -1);
}

/* --- a real TPM 2.0: swtpm in character-device mode on a socketpair */

static pid_t swtpm_start(char *dir, int *fd)
{
	int sv[2];
	pid_t pid;

	if (system("command -v swtpm >/dev/null 2>&1") != 0 || !mkdtemp(dir) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	pid = fork();
	if (pid == 0) {
		char state[96];
		int devnull = open("/dev/null", O_WRONLY);

		dup2(sv[1], 3);
		dup2(devnull, 1);
		dup2(devnull, 2);
		snprintf(state, sizeof(state), "dir=%s", dir);
		execlp("swtpm", "swtpm", "chardev", "--tpm2", "--fd", "3",
		       "--tpmstate", state, "--flags",
		       "not-need-init,startup-clear", (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -1;
	}
	*fd = sv[0];
	return pid;
}

static void swtpm_stop(pid_t pid, const char *dir)
{
	char cmd[128];
	int st;

	for (int i = 0; i < 200 && waitpid(pid, &st, WNOHANG) == 0; i++) {
		if (i == 100)
			kill(pid, SIGTERM);
		usleep(10000);
	}
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", dir);
}

TEST(swtpm_real_tpm)
{
	char dir[] = "/tmp/test_tpm_swtpm.XXXXXX";
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_digests v, d;
	struct tpm t;
	uint8_t *log;
	size_t len;
	int fd = -1;
	pid_t pid = swtpm_start(dir, &fd);

	if (pid < 0) {
		test_skip("swtpm (Debian's swtpm) is not installed");
		return;
	}
	CHECK_INT(tpm_open_fd(&t, fd), 0);
	CHECK_INT(t.banks, MEASURE_BANKS_ALL); /* swtpm 0.7's defaults */
	measure_list_init(&l, &a, t.banks);
	CHECK_INT(sample_plan(&l, 1), 0);
	CHECK_INT(tpm_measure(&t, &l), 0);
	CHECK_INT(tpm_pcr_read(&t, 8, t.banks, &v), 0);
	for (unsigned k = 0; k < MEASURE_BANKS; k++)
		CHECK(test_hex_eq(measure_digest(&v, 1u << k), want_pcr8[k]));
	CHECK_INT(tpm_pcr_read(&t, 9, t.banks, &v), 0);
	for (unsigned k = 0; k < MEASURE_BANKS; k++)
		CHECK(test_hex_eq(measure_digest(&v, 1u << k), want_pcr9[k]));
	CHECK_INT(evlog_write(&a, &l, EVLOG_EXTENDED, &log, &len), 0);
	CHECK(test_hex_eq(bank_digest(MEASURE_BANK_SHA256, log, len, &d),
			  WANT_LOG4_SHA256));
	check_replay(log, len, MEASURE_BANKS_ALL);
	/* one extend of PCR 23 (the application's) from zero: the TPM's
	 * value is H(zeros || our digest) */
	CHECK_INT(tpm_pcr_extend(&t, 23, &l.ev[0].d), 0);
	CHECK_INT(tpm_pcr_read(&t, 23, MEASURE_BANK_SHA256, &v), 0);
	{
		uint8_t z[32 + 32] = {0};
		struct measure_digests e;

		memcpy(z + 32, l.ev[0].d.sha256, 32);
		CHECK(memcmp(v.sha256,
			     bank_digest(MEASURE_BANK_SHA256, z, 64, &e),
			     32) == 0);
	}
	tpm_close(&t);
	swtpm_stop(pid, dir);
	arena_free(&a);
}

TEST_MAIN("test_tpm", sha_fips_vectors, sha_million_a, sha_every_padding_length,
	  sha_plain_interfaces, cmd_bytes, rsp_parsers, plan_kexec_events,
	  plan_multiboot_events, plan_pcr12_systemd_form, plan_predicts_pcrs,
	  plan_streamed_and_limits, evlog_matches_python_and_tpm2_tools,
	  evlog_extended_and_reader, double_extend_read_round_trip,
	  double_refusals_are_per_event, double_stall_times_out_once,
	  double_split_garbage_and_other_banks, peer_gone_and_error_text,
	  open_paths, swtpm_real_tpm)
