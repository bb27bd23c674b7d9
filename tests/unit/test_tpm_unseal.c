/* test_tpm_unseal.c - tpm/unseal.h: a systemd-tpm2 token decoded, the
 * commands' bytes, and the real thing: LUKS2 images enrolled by Debian
 * 12's systemd-cryptenroll (systemd 252) against a swtpm the test starts,
 * unsealed by us through the same swtpm, the secret opening the keyslot
 * (vol/luks.h) to the volume key cryptsetup itself dumps.
 *
 * The token constants below were read from an image made the same way
 * (cryptsetup luksDump --dump-json-metadata); the policy hash is
 * H(0^32 || TPM_CC_PolicyPCR || selection of PCR 7 || H(0^32)), worked
 * out apart with Python's hashlib.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "tpm/cmd.h"
#include "tpm/measure.h"
#include "tpm/tpm.h"
#include "tpm/unseal.h"
#include "vol/luks.h"

static const char tok_blob[] =
    "AJ4AIJ6r0vP7acAFgtmsAKuSLPy1/JS4ygeyiCp/vQDmvAHvABDZctEFm6nH+w3NU7q3"
    "FfSUAOK4y5Z27sRZb1zqdYdVlWkTgv9XRhMF15409GisKoK5r9XnIUed6X7xS2nvpg6K"
    "avPwooWIGgqGyJ66FnlMOC3ptsKs+sOJ/Jmbpq06+uTzLP3pdsyQ++TqkY7VR6mW9u1g"
    "OBZvBElqtQBOAAgACwAAABIAIItWgtgbKUNdCNeSeBUGEdx+WSOy/vzOaEoJV3tAEwqL"
    "ABAAIMXL24Ftoc3/ly9Q46KSvw2rjjT7m3sNsDdYQELEssPb";
static const char tok_policy[] =
    "8b5682d81b29435d08d79278150611dc7e5923b2fefcce684a09577b40130a8b";

static struct tpm_sealed_text sample(void)
{
	return (struct tpm_sealed_text){.blob = tok_blob,
					.pcrs = "7",
					.bank = "sha256",
					.primary_alg = "ecc",
					.policy_hash = tok_policy,
					.pin = "false"};
}

TEST(decode_real_token)
{
	struct tpm_sealed_text t = sample();
	static struct tpm_sealed s;
	char err[160];

	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), 0);
	CHECK_INT(s.priv_len, 2 + 0x9e); /* the blob's first two bytes */
	CHECK_INT(s.pub_len, 2 + 0x4e);
	CHECK_INT(s.pcrs, 1u << 7);
	CHECK_INT(s.bank, TPM_ALG_SHA256);
	CHECK_INT(s.primary, TPM_ALG_ECC);
	CHECK_INT(s.policy_len, 32);
	CHECK_INT(s.policy[0], 0x8b);
	CHECK_INT(s.policy[31], 0x8b);
	CHECK(!s.pin);
	/* the public area is a KEYEDHASH (0x0008) of SHA-256 whose
	 * authPolicy is the policy hash */
	CHECK_INT(s.blob[s.priv_len + 3], 0x08);
	CHECK(memcmp(s.blob + s.priv_len + 12, s.policy, 32) == 0);
}

TEST(decode_refusals)
{
	struct tpm_sealed_text t = sample();
	static struct tpm_sealed s;
	char err[160];

	t.pin = "true";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), 0);
	CHECK(s.pin);
	t = sample();
	t.pcrs = "7,11, 23";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), 0);
	CHECK_INT(s.pcrs, 1u << 7 | 1u << 11 | 1u << 23);
	t.pcrs = "";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), 0);
	CHECK_INT(s.pcrs, 0);
	t = sample();
	t.primary_alg = NULL;
	t.bank = NULL;
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), 0);
	CHECK_INT(s.primary, 0);
	CHECK_INT(s.bank, TPM_ALG_SHA256);
	t = sample();
	t.pubkey = "LS0tLS1CRUdJTi";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -ENOTSUP);
	CHECK(strstr(err, "tpm2_pubkey") != NULL);
	t = sample();
	t.bank = "sm3_256";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -ENOTSUP);
	CHECK(strstr(err, "tpm2-pcr-bank") != NULL);
	t = sample();
	t.primary_alg = "ecc521";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -ENOTSUP);
	CHECK(strstr(err, "tpm2-primary-alg") != NULL);
	const char *bad_pcrs[] = {"24", "7,", ",7", "7,,8", "x", "007"};
	for (size_t i = 0; i < sizeof(bad_pcrs) / sizeof(bad_pcrs[0]); i++) {
		t = sample();
		t.pcrs = bad_pcrs[i];
		CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "tpm2-pcrs") != NULL);
	}
	t = sample();
	t.blob = "AJ4A"; /* a TPM2B_PRIVATE of 0x9e bytes, cut short */
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "tpm2-blob") != NULL);
	t.blob = "AJ4*";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -EINVAL);
	t = sample();
	t.policy_hash = "8b5";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "tpm2-policy-hash") != NULL);
	t = sample();
	t.pin = "yes";
	CHECK_INT(tpm_sealed_decode(&t, &s, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "tpm2-pin") != NULL);
	t = sample();
	CHECK_INT(tpm_sealed_set(&t, "tpm2-pin", "true"), 0);
	CHECK_STR(t.pin, "true");
	CHECK_INT(tpm_sealed_set(&t, "keyslots", "1"), -ENOENT);
}

TEST(passphrase_is_base64)
{
	char out[64];

	/* RFC 4648 10's vectors */
	CHECK_INT(tpm_unseal_passphrase((const uint8_t *)"f", 1, out, 64), 4);
	CHECK_STR(out, "Zg==");
	CHECK_INT(tpm_unseal_passphrase((const uint8_t *)"fo", 2, out, 64), 4);
	CHECK_STR(out, "Zm8=");
	CHECK_INT(tpm_unseal_passphrase((const uint8_t *)"foobar", 6, out, 64),
		  8);
	CHECK_STR(out, "Zm9vYmFy");
	CHECK_INT(
	    tpm_unseal_passphrase((const uint8_t *)"\xff\xfe", 2, out, 64), 4);
	CHECK_STR(out, "//4=");
	CHECK_INT(tpm_unseal_passphrase((const uint8_t *)"foobar", 6, out, 8),
		  -ENOSPC);
}

static int eq_hex(const uint8_t *b, size_t n, const char *hex)
{
	char s[2 * 256 + 1];

	if (strlen(hex) != 2 * n || n > 256)
		return 0;
	for (size_t i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02x", b[i]);
	return strcmp(s, hex) == 0;
}

/* Written out by hand from Part 3's command tables. */
TEST(command_bytes)
{
	uint8_t b[TPM_BUF_MAX], nonce[16] = {0};
	size_t n;

	n = tpm_cmd_policy_pcr(b, sizeof(b), 0x03000000, TPM_ALG_SHA256,
			       1u << 7);
	CHECK(eq_hex(b, n,
		     "80010000001a0000017f03000000000000000001000b03800000"));
	n = tpm_cmd_start_policy_session(b, sizeof(b), nonce, 16);
	CHECK(eq_hex(b, n,
		     "80010000002b00000176" /* header */
		     "4000000740000007"	    /* tpmKey, bind: TPM_RH_NULL */
		     "0010"
		     "00000000000000000000000000000000" /* nonce */
		     "0000"
		     "01"
		     "0010"
		     "000b")); /* salt, policy, sym, hash */
	CHECK_INT(tpm_cmd_start_policy_session(b, sizeof(b), nonce, 8), 0);
	n = tpm_cmd_create_primary(b, sizeof(b), TPM_ALG_ECC);
	CHECK(eq_hex(b, n,
		     "8002000000430000013140000001"   /* header, owner */
		     "000000094000000900000000000004" /* password, */
		     "00000000001a"		      /* inSensitive */
		     "0023000b000300720000000600800043001000030010"
		     "00000000"	       /* unique: empty x and y */
		     "000000000000")); /* outsideInfo, creationPCR */
	CHECK_INT(tpm_cmd_create_primary(b, sizeof(b), TPM_ALG_SHA256), 0);
	n = tpm_cmd_flush_context(b, sizeof(b), 0x80000001);
	CHECK(eq_hex(b, n, "80010000000e0000016580000001"));
	CHECK_INT(tpm_cmd_create_primary(b, 20, TPM_ALG_ECC), 0);
	CHECK_INT(tpm_rc_base(0x98E), TPM_RC_AUTH_FAIL);
	CHECK_INT(tpm_rc_base(0x9A2), TPM_RC_BAD_AUTH);
	CHECK_INT(tpm_rc_base(0x921), TPM_RC_LOCKOUT);
}

/* Answers in Part 1 18.8's shape, checked against what each parser
 * must refuse. */
TEST(response_parsers)
{
	uint8_t r[64], out[TPM_SENSITIVE_MAX];
	uint32_t rc, h = 0;
	size_t n = 0;
	/* Unseal: header, parameterSize 6, TPM2B of 4, one session */
	static const uint8_t unseal[] = {0x80, 0x02, 0, 0, 0, 0x1d, 0, 0, 0, 0,
					 0,    0,    0, 6, 0, 4,    1, 2, 3, 4,
					 0,    2,    9, 9, 1, 0,    2, 7, 7};
	/* StartAuthSession: no sessions, a handle, a nonce of 2 */
	static const uint8_t start[] = {0x80, 0x01, 0, 0, 0, 0x12, 0, 0, 0,
					0,    3,    0, 0, 0, 0,	   2, 5, 6};

	CHECK_INT(tpm_rsp_unseal(unseal, sizeof(unseal), &rc, out, &n), 0);
	CHECK_INT(n, 4);
	CHECK_INT(out[3], 4);
	memcpy(r, unseal, sizeof(unseal));
	r[13] = 7; /* parameterSize past the parameters */
	CHECK_INT(tpm_rsp_unseal(r, sizeof(unseal), &rc, out, &n), -EBADMSG);
	memcpy(r, unseal, sizeof(unseal));
	r[5] = 0x1c; /* the last session byte dropped */
	CHECK_INT(tpm_rsp_unseal(r, 0x1c, &rc, out, &n), -EBADMSG);
	CHECK_INT(
	    tpm_rsp_start_auth_session(start, sizeof(start), &rc, &h, out, &n),
	    0);
	CHECK_INT(h, 0x03000000);
	CHECK_INT(n, 2);
	CHECK_INT(out[1], 6);
	static const uint8_t refused[] = {0x80, 0x01, 0, 0,    0,
					  10,	0,    0, 0x09, 0x8e};
	CHECK_INT(tpm_rsp_unseal(refused, sizeof(refused), &rc, out, &n),
		  -EREMOTEIO);
	CHECK_INT(rc, 0x98e);
	CHECK_INT(tpm_rsp_policy(start, sizeof(start), &rc), -EBADMSG);
}

/* --- the real thing */

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static pid_t swtpm_socket(const char *dir)
{
	char state[300], srv[300], ctrl[300], path[300];
	pid_t pid;

	snprintf(state, sizeof(state), "dir=%s", dir);
	snprintf(srv, sizeof(srv), "type=unixio,path=%s/sock", dir);
	snprintf(ctrl, sizeof(ctrl), "type=unixio,path=%s/sock.ctrl", dir);
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 1);
		dup2(devnull, 2);
		execlp("swtpm", "swtpm", "socket", "--tpm2", "--tpmstate",
		       state, "--server", srv, "--ctrl", ctrl, "--flags",
		       "startup-clear", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; pid > 0 && i < 200; i++) {
		snprintf(path, sizeof(path), "%s/sock.ctrl", dir);
		if (access(path, F_OK) == 0) {
			snprintf(path, sizeof(path), "%s/sock", dir);
			if (access(path, F_OK) == 0)
				break;
		}
		usleep(20000);
	}
	return pid;
}

static int tpm_connect(struct tpm *t, const char *dir)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/sock", dir);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return tpm_open_fd(t, fd);
}

/* A LUKS2 image with passphrase "pass" (PBKDF2, fast), enrolled with
 * systemd-cryptenroll against the swtpm to @pcrs ("" for none); @pin
 * NULL for none. */
static int make_image(const char *dir, const char *img, const char *pcrs,
		      const char *pin)
{
	if (sh("cd %s && truncate -s 20M %s && printf pass >pw && "
	       "cryptsetup luksFormat --type luks2 --batch-mode --pbkdf pbkdf2 "
	       "--pbkdf-force-iterations 1000 --key-file pw %s",
	       dir, img, img))
		return -1;
	return sh("cd %s && PASSWORD=pass %s%s timeout 120 systemd-cryptenroll "
		  "--tpm2-device=swtpm:path=%s/sock --tpm2-pcrs=%s %s %s "
		  ">>enroll.log 2>&1",
		  dir, pin ? "NEWPIN=" : "", pin ? pin : "", dir, pcrs,
		  pin ? "--tpm2-with-pin=yes" : "", img);
}

/* The volume key as cryptsetup dumps it ("MK dump:" and its lines). */
static int volume_key(const char *dir, const char *img, uint8_t *key,
		      size_t *len)
{
	char path[300], line[256];
	FILE *f;
	int in = 0;

	snprintf(path, sizeof(path), "%s/vk", dir);
	if (sh("cd %s && cryptsetup luksDump --dump-volume-key --batch-mode "
	       "--key-file pw %s >vk 2>/dev/null",
	       dir, img) ||
	    !(f = fopen(path, "r")))
		return -1;
	*len = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		unsigned v;
		int k;

		if (strncmp(line, "MK dump:", 8) == 0)
			in = 1, p += 8;
		else if (!in || (line[0] != '\t' && line[0] != ' '))
			in = 0;
		while (in && sscanf(p, " %2x%n", &v, &k) == 1 && *len < 128)
			key[(*len)++] = (uint8_t)v, p += k;
	}
	fclose(f);
	return *len ? 0 : -1;
}

struct img {
	int fd;
	uint64_t size;
};

static int img_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct img *m = ctx;
	ssize_t n = pread(m->fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -EIO;
}

/* The image's systemd-tpm2 token, as the scan will hand it over. */
static int read_token(struct img *m, struct luks_hdr *h,
		      struct tpm_sealed_text *t)
{
	char err[200];

	memset(t, 0, sizeof(*t));
	if (luks_read(img_read, m, m->size, h, err, sizeof(err)))
		return -1;
	for (size_t i = 0; i < h->n_token; i++) {
		const struct luks_token *k = &h->token[i];

		if (!k->type || strcmp(k->type, "systemd-tpm2"))
			continue;
		for (size_t j = 0; j < k->n_field; j++)
			tpm_sealed_set(t, k->field[j].name, k->field[j].value);
		return 0;
	}
	return -1;
}

/* The three volumes: 0 sealed to PCR 7, 1 to PCR 7 and a PIN, 2 to
 * the PIN alone (a policy without PolicyPCR). */
static const struct {
	const char *img, *pcrs, *pin;
} vols[] = {
    {"a.img", "7", NULL}, {"b.img", "7", "4711"}, {"c.img", "", "4711"}};
#define NVOL 3

struct vol {
	struct img m;
	struct luks_hdr h;
	struct tpm_sealed_text t;
	uint8_t vk[128];
	size_t vk_len;
};

struct real {
	char dir[64];
	pid_t pid;
	struct tpm t;
	struct vol v[NVOL];
};

static const char *missing_tool(void)
{
	static const char *tools[] = {"swtpm", "systemd-cryptenroll",
				      "cryptsetup"};

	for (size_t i = 0; i < 3; i++)
		if (sh("command -v %s >/dev/null 2>&1", tools[i]))
			return tools[i];
	/* systemd 252 loads the TCTI for --tpm2-device=swtpm:... by name */
	if (sh("ldconfig -p | grep -q libtss2-tcti-swtpm.so.0"))
		return "libtss2-tcti-swtpm0";
	return NULL;
}

static int open_img(struct real *r, struct img *m, const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	m->fd = open(path, O_RDONLY);
	if (m->fd < 0 || fstat(m->fd, &st))
		return -1;
	m->size = (uint64_t)st.st_size;
	return 0;
}

static void swtpm_stop(pid_t *pid)
{
	int st;

	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, &st, 0);
	}
	*pid = -1;
}

static int handles(struct tpm *t, uint8_t ht, uint32_t *list);

/* systemd-cryptenroll 252 leaves a session loaded per enrolment, which
 * no resource manager flushes here, and swtpm holds only three: flushed
 * between enrolments (a restart would not do: an unorderly shutdown
 * counts against the dictionary-attack limit, Part 1 19.8.6). */
static int flush_sessions(const char *dir)
{
	struct tpm t;
	uint32_t h[64];
	uint8_t cmd[16], rsp[TPM_BUF_MAX];
	size_t len;
	int n;

	if (tpm_connect(&t, dir))
		return -1;
	n = handles(&t, 0x02, h);
	for (int i = 0; i < n; i++)
		if (tpm_transact(&t, cmd,
				 tpm_cmd_flush_context(cmd, sizeof(cmd), h[i]),
				 rsp, sizeof(rsp), &len))
			n = -1;
	tpm_close(&t);
	return n < 0 ? -1 : 0;
}

static int real_setup(struct real *r)
{
	for (int i = 0; i < NVOL; i++)
		r->v[i].m.fd = -1;
	strcpy(r->dir, "/tmp/test_tpm_unseal.XXXXXX");
	if (!mkdtemp(r->dir) || (r->pid = swtpm_socket(r->dir)) <= 0)
		return -1;
	for (int i = 0; i < NVOL; i++) {
		struct vol *v = &r->v[i];

		if (make_image(r->dir, vols[i].img, vols[i].pcrs,
			       vols[i].pin) ||
		    flush_sessions(r->dir) ||
		    volume_key(r->dir, vols[i].img, v->vk, &v->vk_len) ||
		    open_img(r, &v->m, vols[i].img) ||
		    read_token(&v->m, &v->h, &v->t))
			return -1;
	}
	return tpm_connect(&r->t, r->dir);
}

static void real_teardown(struct real *r)
{
	tpm_close(&r->t);
	for (int i = 0; i < NVOL; i++) {
		luks_free(&r->v[i].h);
		if (r->v[i].m.fd >= 0)
			close(r->v[i].m.fd);
	}
	swtpm_stop(&r->pid);
	if (sh("rm -rf %s", r->dir))
		printf("  could not remove %s\n", r->dir);
}

/* Unseals volume @i's token with @pin and expects @want (and, on
 * failure, the sentence @why). */
static void check_unseal(struct real *r, int i, const char *pin, int want,
			 const char *why)
{
	uint8_t sec[TPM_SENSITIVE_MAX];
	size_t len = 99;
	char err[200] = "";

	CHECK_INT(tpm_unseal_token(&r->t, &r->v[i].t, pin, sec, &len, err,
				   sizeof(err)),
		  want);
	if (want) {
		CHECK_STR(err, why);
		CHECK_INT(len, 0);
	} else {
		CHECK_INT(len, 32);
	}
}

/* The secret's passphrase opens the token's keyslot to cryptsetup's
 * volume key. */
static void check_opens(struct real *r, int i, const char *pin)
{
	struct vol *v = &r->v[i];
	char pass[200], err[200];
	uint8_t sec[TPM_SENSITIVE_MAX], key[LUKS_KEY_MAX];
	size_t len = 0, key_len = 0;
	int slot = -1;
	struct luks_unlock u = {.slot = -1, .mem_max_kib = 64 * 1024};

	CHECK_INT(
	    tpm_unseal_token(&r->t, &v->t, pin, sec, &len, err, sizeof(err)),
	    0);
	CHECK_INT(tpm_unseal_passphrase(sec, len, pass, sizeof(pass)), 44);
	u.pass = pass;
	u.pass_len = strlen(pass);
	CHECK_INT(luks_unlock(&v->h, img_read, &v->m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  0);
	CHECK_INT(slot, 1); /* the token's keyslot; "pass" is slot 0 */
	CHECK_INT(key_len, v->vk_len);
	CHECK(memcmp(key, v->vk, v->vk_len) == 0);
}

static const char pcr7_changed[] = "PCR 7 changed since the key was enrolled";
static const char wrong_pin[] = "wrong PIN for this volume's TPM2 key";
static const char locked[] =
    "the TPM refuses its keys for a while after too many wrong PINs";

/* The token changed by hand: the primary key's algorithm matters (the
 * sealed key loads only under the key it was sealed under); none named
 * is ECC first, as systemd 252 does. */
static void check_forged(struct real *r)
{
	struct tpm_sealed_text t = r->v[0].t;
	uint8_t sec[TPM_SENSITIVE_MAX];
	size_t len = 0;
	char err[200] = "";

	t.primary_alg = NULL;
	CHECK_INT(
	    tpm_unseal_token(&r->t, &t, NULL, sec, &len, err, sizeof(err)), 0);
	CHECK_INT(len, 32);
	t.primary_alg = "rsa";
	CHECK_INT(
	    tpm_unseal_token(&r->t, &t, NULL, sec, &len, err, sizeof(err)),
	    -EREMOTEIO);
	CHECK(strncmp(err, "the TPM refused the volume's sealed key", 39) == 0);
	CHECK_INT(len, 0);
}

/* After PCR 7 changed: without the policy hash to compare, the TPM
 * itself refuses (TPM_RC_POLICY_FAIL) and the sentence is the same; a
 * token naming two PCRs names both. */
static void check_forged_after(struct real *r)
{
	struct tpm_sealed_text t = r->v[0].t;
	uint8_t sec[TPM_SENSITIVE_MAX];
	size_t len = 0;
	char err[200] = "";

	t.policy_hash = NULL;
	CHECK_INT(
	    tpm_unseal_token(&r->t, &t, NULL, sec, &len, err, sizeof(err)),
	    -EACCES);
	CHECK_STR(err, pcr7_changed);
	CHECK_INT(r->t.rc, 0x99d); /* TPM_RC_POLICY_FAIL of session 1 */
	t = r->v[0].t;
	t.pcrs = "7,11";
	CHECK_INT(
	    tpm_unseal_token(&r->t, &t, NULL, sec, &len, err, sizeof(err)),
	    -EACCES);
	CHECK_STR(err, "the PCRs 7, 11 no longer match the TPM2 key's policy");
}

/* Wrong PINs until the TPM's dictionary-attack protection stops them
 * (swtpm: after 3); then it refuses every key, a PIN or none. Last, as
 * it lasts. */
static void check_lockout(struct real *r)
{
	uint8_t sec[TPM_SENSITIVE_MAX];
	size_t len = 0;
	char err[200] = "";
	int rc = -EACCES, n = 0;

	while (rc == -EACCES && n++ < 64)
		rc = tpm_unseal_token(&r->t, &r->v[2].t, "0000", sec, &len, err,
				      sizeof(err));
	CHECK_INT(rc, -ENOLCK);
	CHECK_STR(err, locked);
	CHECK(n > 1);
	check_unseal(r, 2, "4711", -ENOLCK, locked);
	check_unseal(r, 0, NULL, -ENOLCK, locked);
}

/* How many handles of type @ht (Part 2 7.2: 0x80 transient objects,
 * 0x02 loaded sessions, 0x03 saved ones) the TPM holds, and which (into
 * @list when given, up to 64), through GetCapability(TPM_CAP_HANDLES)
 * written here apart from tpm/cmd.c. -1 when the answer is not one. */
static int handles(struct tpm *t, uint8_t ht, uint32_t *list)
{
	uint8_t cmd[22] = {0x80, 0x01, 0, 0,  0, 22, 0, 0, 0x01, 0x7a, 0,
			   0,	 0,    1, ht, 0, 0,  0, 0, 0,	 0,    64};
	uint8_t rsp[TPM_BUF_MAX];
	size_t len = 0;
	uint32_t n;

	if (tpm_transact(t, cmd, sizeof(cmd), rsp, sizeof(rsp), &len) ||
	    len < 19 || rsp[6] | rsp[7] | rsp[8] | rsp[9])
		return -1;
	n = (uint32_t)rsp[15] << 24 | rsp[16] << 16 | rsp[17] << 8 | rsp[18];
	if (n > 64 || len != 19 + 4 * (size_t)n)
		return -1;
	for (uint32_t i = 0; list && i < n; i++) {
		const uint8_t *p = rsp + 19 + 4 * i;

		list[i] = (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	}
	return (int)n;
}

TEST(swtpm_systemd_cryptenroll)
{
	static struct real r;
	const char *tool = missing_tool();
	struct measure_digests d;
	struct measure_hash mh;

	if (tool) {
		test_skip("%s is not installed (Debian's swtpm, systemd, "
			  "cryptsetup-bin and libtss2-tcti-swtpm0 packages)",
			  tool);
		return;
	}
	memset(&r, 0, sizeof(r));
	if (real_setup(&r)) {
		CHECK(!"the images could not be made and enrolled");
		sh("tail -5 %s/enroll.log", r.dir);
		real_teardown(&r);
		return;
	}
	CHECK_INT(handles(&r.t, 0x80, NULL), 0);
	CHECK_INT(handles(&r.t, 0x02, NULL), 0);
	CHECK_STR(r.v[0].t.pcrs, "7");
	CHECK_STR(r.v[0].t.primary_alg, "ecc");
	CHECK_STR(r.v[1].t.pin, "true");
	CHECK_STR(r.v[2].t.pcrs, "");
	/* more rounds than the TPM has object slots */
	for (int i = 0; i < 4; i++)
		check_unseal(&r, 0, NULL, 0, NULL);
	check_opens(&r, 0, NULL);
	check_unseal(&r, 1, NULL, -ENOKEY,
		     "this volume's TPM2 key wants its PIN");
	check_unseal(&r, 1, "4712", -EACCES, wrong_pin);
	check_opens(&r, 1, "4711");
	check_opens(&r, 2, "4711");
	check_forged(&r);
	/* PCR 7 moved on (a Secure Boot change): the policy fails */
	measure_hash_init(&mh, r.t.banks);
	measure_hash_update(&mh, "bootmenu", 8);
	measure_hash_final(&mh, &d);
	CHECK_INT(tpm_pcr_extend(&r.t, 7, &d), 0);
	for (int i = 0; i < 4; i++)
		check_unseal(&r, 0, NULL, -EACCES, pcr7_changed);
	check_unseal(&r, 1, "4711", -EACCES, pcr7_changed);
	check_forged_after(&r);
	check_opens(&r, 2, "4711"); /* no PCR in its policy */
	check_lockout(&r);
	/* every way out above flushed what it made */
	CHECK_INT(handles(&r.t, 0x80, NULL), 0);
	CHECK_INT(handles(&r.t, 0x02, NULL), 0);
	CHECK_INT(handles(&r.t, 0x03, NULL), 0);
	real_teardown(&r);
}

TEST_MAIN("test_tpm_unseal", decode_real_token, decode_refusals,
	  passphrase_is_base64, command_bytes, response_parsers,
	  swtpm_systemd_cryptenroll)
