/* test_unlock_tpm.c - session_unlock_tpm() (session.h): which device, the
 * header read from its node, the first systemd-tpm2 token, its secret
 * unsealed by a TPM and handed to scan_unlock() as the keyslot's
 * passphrase, and the sentence for each way that fails.
 *
 * The scan is stood in for here: scan_devices() returns the devices the
 * test sets, scan_unlock() records what it was given and opens the
 * token's keyslot of the image with it (luks_unlock()), as the real one
 * would before mapping it. The TPM is a swtpm the test starts, reached
 * through session_unlock_tpm_on() (unlock_tpm.h); the images are LUKS2
 * files enrolled by Debian 12's systemd-cryptenroll (systemd 252).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "scan/scan.h"
#include "session/session.h"
#include "session/unlock_tpm.h"
#include "tpm/cmd.h"
#include "tpm/measure.h"
#include "tpm/tpm.h"
#include "vol/luks.h"

#define FIXTURES "tests/fixtures/luks/"

/* --- the scan's stand-ins */

static struct scan_dev devs[4];
static size_t n_devs;

static struct {
	int calls;
	char name[32];
	char pass[SESSION_TPM_PASS_MAX];
	size_t len;
	int slot;
	int force; /* nonzero: return this instead of opening */
	int rc;	   /* what opening the keyslot gave */
} unl;

size_t scan_devices(struct scan *s, struct scan_dev *out, size_t max)
{
	for (size_t i = 0; i < n_devs && i < max; i++)
		out[i] = devs[i];
	return n_devs;
}

static int img_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	const int *fd = ctx;

	return pread(*fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -EIO;
}

/* Opens the keyslot the way the real scan_unlock() does before it maps
 * the volume. */
static int open_slot(const char *node, const struct scan_unlock *u)
{
	static struct luks_hdr h;
	struct luks_unlock lu = {.pass = u->pass,
				 .pass_len = u->pass_len,
				 .slot = u->slot,
				 .mem_max_kib = 64 * 1024};
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[200];
	int fd = open(node, O_RDONLY), rc;
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return -EIO;
	rc = luks_read(img_read, &fd, (uint64_t)st.st_size, &h, err,
		       sizeof(err));
	if (rc == 0)
		rc = luks_unlock(&h, img_read, &fd, &lu, key, sizeof(key),
				 &key_len, NULL, err, sizeof(err));
	luks_free(&h);
	close(fd);
	return rc;
}

int scan_unlock(struct scan *s, const char *name, const struct scan_unlock *u,
		char *err, size_t errlen)
{
	unl.calls++;
	snprintf(unl.name, sizeof(unl.name), "%s", name);
	unl.len = u->pass_len < sizeof(unl.pass) ? u->pass_len : 0;
	memcpy(unl.pass, u->pass, unl.len);
	unl.slot = u->slot;
	unl.rc = open_slot(devs[0].devnode, u);
	if (unl.force) {
		snprintf(err, errlen, "the stand-in's sentence");
		return unl.force;
	}
	if (unl.rc)
		snprintf(err, errlen, "wrong passphrase");
	return unl.rc;
}

/* One locked device, vda2, whose node is @node; then vda1 mounted and
 * vda3 already unlocked. */
static void set_devs(const char *node)
{
	memset(devs, 0, sizeof(devs));
	devs[0] = (struct scan_dev){.name = "vda2",
				    .devnode = node,
				    .fstype = "crypto_LUKS",
				    .state = SCAN_DEV_LOCKED,
				    .luks_version = 2,
				    .unlocked_as = ""};
	devs[1] = (struct scan_dev){.name = "vda1",
				    .devnode = "/dev/vda1",
				    .fstype = "ext4",
				    .state = SCAN_DEV_MOUNTED,
				    .unlocked_as = ""};
	devs[2] = (struct scan_dev){.name = "vda3",
				    .devnode = "/dev/vda3",
				    .fstype = "crypto_LUKS",
				    .state = SCAN_DEV_SKIPPED,
				    .luks_version = 2,
				    .unlocked_as = "luks-1234"};
	n_devs = 3;
	memset(&unl, 0, sizeof(unl));
}

static struct session sess;
static char dummy_scan;

/* @want, with the sentence @why (NULL: not checked), through the
 * machine's TPM (@t NULL) or @t. */
static void expect(struct tpm *t, const char *name, const char *pin, int want,
		   const char *why)
{
	char err[256] = "";
	int rc = session_unlock_tpm_on(&sess, t, name, pin, err, sizeof(err));

	CHECK_INT(rc, want);
	if (why)
		CHECK_STR(err, why);
	if (rc != want || (why && strcmp(err, why)))
		printf("  (%s: \"%s\")\n", name, err);
}

TEST(which_device)
{
	sess.scan = (struct scan *)&dummy_scan;
	set_devs(FIXTURES "luks2-pbkdf2.img");
	expect(NULL, "vdz", NULL, -ENOENT, "no device vdz");
	expect(NULL, "vda1", NULL, -ENOENT, "vda1 is not a locked LUKS device");
	expect(NULL, "vda3", NULL, -EALREADY,
	       "vda3 is already unlocked as luks-1234");
	sess.scan = NULL; /* a --root session has no devices */
	expect(NULL, "vda2", NULL, -ENOENT, "no device vda2");
	sess.scan = (struct scan *)&dummy_scan;
	CHECK_INT(unl.calls, 0);
}

/* No systemd-tpm2 token: -ENOENT, the TPM never asked. */
TEST(no_token)
{
	sess.scan = (struct scan *)&dummy_scan;
	set_devs(FIXTURES "luks2-pbkdf2.img");
	expect(NULL, "vda2", NULL, -ENOENT, "vda2 has no TPM2 token");
	set_devs(FIXTURES "luks1-sha256.img");
	expect(NULL, "vda2", NULL, -ENOENT, "vda2 has no TPM2 token");
	set_devs("/dev/null"); /* not LUKS at all: luks_read()'s answer */
	expect(NULL, "vda2", NULL, -ENOENT, "too small for a LUKS header");
	set_devs(FIXTURES "README");
	expect(NULL, "vda2", NULL, -ENOENT, NULL);
	CHECK_INT(unl.calls, 0);
}

/* --- against a swtpm */

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

static char dir[64];
static pid_t swtpm_pid = -1;

static int swtpm_start(void)
{
	char path[128], ctrl[128];

	swtpm_pid = fork();
	if (swtpm_pid == 0) {
		char state[128], srv[128], ctl[128];
		int null = open("/dev/null", O_WRONLY);

		snprintf(state, sizeof(state), "dir=%s", dir);
		snprintf(srv, sizeof(srv), "type=unixio,path=%s/sock", dir);
		snprintf(ctl, sizeof(ctl), "type=unixio,path=%s/sock.ctrl",
			 dir);
		dup2(null, 1);
		dup2(null, 2);
		execlp("swtpm", "swtpm", "socket", "--tpm2", "--tpmstate",
		       state, "--server", srv, "--ctrl", ctl, "--flags",
		       "startup-clear", (char *)NULL);
		_exit(127);
	}
	/* the TCTI talks to both: the control socket sets the locality */
	snprintf(path, sizeof(path), "%s/sock", dir);
	snprintf(ctrl, sizeof(ctrl), "%s/sock.ctrl", dir);
	for (int i = 0; swtpm_pid > 0 && i < 250; i++, usleep(20000))
		if (access(path, F_OK) == 0 && access(ctrl, F_OK) == 0)
			return 0;
	return -1;
}

static void swtpm_stop(void)
{
	int st;

	if (swtpm_pid > 0) {
		kill(swtpm_pid, SIGTERM);
		waitpid(swtpm_pid, &st, 0);
	}
	swtpm_pid = -1;
}

static int connect_tpm(struct tpm *t)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/sock", dir);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return tpm_open_fd(t, fd);
}

/* systemd-cryptenroll 252 leaves its session loaded in the TPM, and
 * swtpm has room for three: each is flushed here after an enrolment.
 * GetCapability(TPM_CAP_HANDLES, HMAC_SESSION_FIRST 0x02000000) by hand
 * (Part 3 30.2), then FlushContext of each handle listed. */
static int flush_sessions(void)
{
	static const uint8_t cap[22] = {0x80, 1,    0, 0, 0, 22, 0, 0,
					1,    0x7a, 0, 0, 0, 1,	 2, 0,
					0,    0,    0, 0, 0, 32};
	uint8_t rsp[TPM_BUF_MAX], cmd[16], r2[64];
	size_t len = 0, l2;
	struct tpm t;
	uint32_t n;
	int rc = -1;

	if (connect_tpm(&t))
		return -1;
	if (tpm_transact(&t, cap, sizeof(cap), rsp, sizeof(rsp), &len) ||
	    len < 19)
		goto out;
	n = (uint32_t)rsp[15] << 24 | rsp[16] << 16 | rsp[17] << 8 | rsp[18];
	if (n > 32 || len != 19 + 4 * (size_t)n)
		goto out;
	for (rc = 0; rc == 0 && n--;) {
		const uint8_t *p = rsp + 19 + 4 * n;
		uint32_t h =
		    (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];

		rc = tpm_transact(&t, cmd,
				  tpm_cmd_flush_context(cmd, sizeof(cmd), h),
				  r2, sizeof(r2), &l2);
	}
out:
	tpm_close(&t);
	return rc;
}

/* LUKS2 image @img, passphrase "pass" in keyslot 0 (PBKDF2, fast), the
 * TPM2 token's in keyslot 1: sealed to @pcrs ("" none), with @pin. */
static int enroll(const char *img, const char *pcrs, const char *pin)
{
	if (sh("cd %s && truncate -s 20M %s && printf pass >pw && "
	       "cryptsetup luksFormat --type luks2 --batch-mode --pbkdf pbkdf2 "
	       "--pbkdf-force-iterations 1000 --key-file pw %s",
	       dir, img, img))
		return -1;
	if (sh("cd %s && PASSWORD=pass %s%s timeout 120 systemd-cryptenroll "
	       "--tpm2-device=swtpm:path=%s/sock --tpm2-pcrs=%s %s %s "
	       ">>enroll.log 2>&1",
	       dir, pin ? "NEWPIN=" : "", pin ? pin : "", dir, pcrs,
	       pin ? "--tpm2-with-pin=yes" : "", img))
		return -1;
	return flush_sessions();
}

static const char *missing_tool(void)
{
	static const char *tools[] = {"swtpm", "systemd-cryptenroll",
				      "cryptsetup"};

	for (size_t i = 0; i < 3; i++)
		if (sh("command -v %s >/dev/null 2>&1", tools[i]))
			return tools[i];
	if (sh("ldconfig -p | grep -q libtss2-tcti-swtpm.so.0"))
		return "libtss2-tcti-swtpm0";
	return NULL;
}

static char img_a[128], img_b[128], img_c[128];

/* a: PCR 7; b: PCRs 7 and 11 and PIN 4711; c: PIN 4711 alone. */
static int setup(void)
{
	strcpy(dir, "/tmp/test_unlock_tpm.XXXXXX");
	if (!mkdtemp(dir) || swtpm_start())
		return -1;
	snprintf(img_a, sizeof(img_a), "%s/a.img", dir);
	snprintf(img_b, sizeof(img_b), "%s/b.img", dir);
	snprintf(img_c, sizeof(img_c), "%s/c.img", dir);
	if (enroll("a.img", "7", NULL) || enroll("b.img", "7+11", "4711") ||
	    enroll("c.img", "", "4711"))
		return -1;
	return 0;
}

static void teardown(void)
{
	swtpm_stop();
	if (dir[0] && sh("rm -rf %s", dir))
		printf("  could not remove %s\n", dir);
}

#define ASKING ": asking for the passphrase"

/* Unlocked: scan_unlock() got keyslot 1 and a passphrase that opens it
 * (44 characters: base64 of systemd's 32-byte secret). */
static void expect_opened(struct tpm *t, const char *img, const char *pin)
{
	set_devs(img);
	expect(t, "vda2", pin, 0, NULL);
	CHECK_INT(unl.calls, 1);
	CHECK_STR(unl.name, "vda2");
	CHECK_INT(unl.slot, 1);
	CHECK_INT(unl.len, 44);
	CHECK_INT(unl.rc, 0);
}

static void expect_refused(struct tpm *t, const char *img, const char *pin,
			   int want, const char *why)
{
	set_devs(img);
	expect(t, "vda2", pin, want, why);
	CHECK_INT(unl.calls, 0);
}

static void check_keyslot_fails(struct tpm *t)
{
	set_devs(img_a);
	unl.force = -EACCES;
	expect(
	    t, "vda2", NULL, -EACCES,
	    "the key the TPM unsealed does not open keyslot 1 of vda2" ASKING);
	CHECK_INT(unl.rc, 0); /* the key was right: the stand-in lied */
	set_devs(img_a);
	unl.force = -ENOTSUP;
	expect(t, "vda2", NULL, -ENOTSUP, "the stand-in's sentence");
}

static const char wrong_pin[] = "wrong PIN for this volume's TPM2 key" ASKING;

static void check_pcrs_moved(struct tpm *t)
{
	struct measure_digests d;
	struct measure_hash mh;

	measure_hash_init(&mh, t->banks);
	measure_hash_update(&mh, "bootmenu", 8);
	measure_hash_final(&mh, &d);
	CHECK_INT(tpm_pcr_extend(t, 7, &d), 0);
	expect_refused(
	    t, img_a, NULL, -EACCES,
	    "the TPM's PCR 7 is not what the key was sealed to" ASKING);
	expect_refused(t, img_b, "4711", -EACCES,
		       "the TPM's PCRs 7, 11 are not what the key was sealed "
		       "to" ASKING);
	/* a wrong PIN first, then the PCRs: the PIN's code is not kept */
	expect_refused(t, img_c, "0000", -EACCES, wrong_pin);
	expect_refused(
	    t, img_a, NULL, -EACCES,
	    "the TPM's PCR 7 is not what the key was sealed to" ASKING);
	expect_opened(t, img_c, "4711"); /* no PCR in its policy */
}

/* swtpm locks out after 3 wrong PINs; from then on it refuses every
 * key. Last: it lasts. */
static void check_lockout(struct tpm *t)
{
	char err[256];
	int rc = -EACCES, n = 0;

	set_devs(img_c);
	while (rc == -EACCES && n++ < 32)
		rc = session_unlock_tpm_on(&sess, t, "vda2", "0000", err,
					   sizeof(err));
	CHECK_INT(rc, -ENOLCK);
	CHECK_STR(err, "the TPM is locked out after too many wrong PINs and "
		       "refuses its keys for a while" ASKING);
	CHECK(n > 1);
	expect_refused(t, img_c, "4711", -ENOLCK, NULL);
}

TEST(swtpm_tokens)
{
	const char *tool = missing_tool();
	static struct tpm t = {.fd = -1};

	if (tool) {
		test_skip("%s is not installed (Debian's swtpm, systemd, "
			  "cryptsetup-bin and libtss2-tcti-swtpm0 packages)",
			  tool);
		return;
	}
	sess.scan = (struct scan *)&dummy_scan;
	if (setup() || connect_tpm(&t)) {
		CHECK(!"the images could not be made and enrolled");
		sh("tail -5 %s/enroll.log", dir);
		teardown();
		return;
	}
	expect_opened(&t, img_a, NULL);
	expect_opened(&t, img_a, "1234"); /* a PIN it does not want: unused */
	expect_refused(&t, img_b, NULL, -ENOKEY,
		       "this volume's TPM2 key wants its PIN");
	expect_refused(&t, img_b, "4712", -EACCES, wrong_pin);
	expect_opened(&t, img_b, "4711");
	check_keyslot_fails(&t);
	check_pcrs_moved(&t);
	check_lockout(&t);
	tpm_close(&t);
	teardown();
}

/* Through the machine's TPM: none here is -ENOENT, nothing asked. */
TEST(no_tpm_here)
{
	if (access(TPM_DEV_RM, F_OK) == 0 || access(TPM_DEV_RAW, F_OK) == 0) {
		test_skip("this machine has a TPM: the no-TPM path cannot be "
			  "taken");
		return;
	}
	if (missing_tool() || setup()) {
		test_skip("no enrolled image could be made (swtpm, "
			  "systemd-cryptenroll)");
		teardown();
		return;
	}
	sess.scan = (struct scan *)&dummy_scan;
	set_devs(img_a);
	char err[256] = "";
	CHECK_INT(session_unlock_tpm(&sess, "vda2", NULL, err, sizeof(err)),
		  -ENOENT);
	CHECK_STR(err, "this machine has no TPM");
	set_devs(img_b);
	CHECK_INT(session_unlock_tpm(&sess, "vda2", NULL, err, sizeof(err)),
		  -ENOENT); /* not -ENOKEY: no PIN is asked for no TPM */
	CHECK_INT(unl.calls, 0);
	teardown();
}

TEST_MAIN("test_unlock_tpm", which_device, no_token, swtpm_tokens, no_tpm_here)
