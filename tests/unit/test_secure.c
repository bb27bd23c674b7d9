/* test_secure.c - the Secure Boot state (a scratch efivarfs directory and
 * the lockdown fixtures) and a kernel's signer as the details view and
 * --list --json show it (images signed by sbsign, tests/fixtures/pe_sig). */
#include "test.h"
#include "tfs.h"
#include "cfg/resolve.h"
#include "boot/secure.h"
#include "efi/efivar.h"
#include "session/listing.h"
#include "kexec_double.h"
#include "kexec/sys.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define SIG "tests/fixtures/pe_sig/"
#define MEMMAP "tests/fixtures/memmap/"
#define SB_NAME "SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"

/* <dir>/efivars holding SecureBoot = @val (-1: no such variable). */
static void fake_vars(char *dir, size_t n, int val)
{
	char path[256];
	FILE *f;

	snprintf(dir, n, "/tmp/test_secure.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	if (val < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, SB_NAME);
	f = fopen(path, "wb");
	/* NV+BS+RT (0x06 here: BS+RT, as firmware sets it), then one byte */
	if (!f || fwrite("\x06\0\0\0", 1, 4, f) != 4 || fputc(val, f) == EOF)
		abort();
	fclose(f);
}

static void drop_vars(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, SB_NAME);
	unlink(path);
	rmdir(dir);
}

static struct kexec_sys_ops lock_ops;

static void state(int sb_val, const char *lockdown, struct secure_state *st)
{
	char dir[64];
	struct efi_vars v = {0};

	fake_vars(dir, sizeof(dir), sb_val);
	v.dir = dir;
	lock_ops = (struct kexec_sys_ops){0};
	lock_ops.lockdown_path = lockdown;
	kexec_sys_set_ops(&lock_ops);
	secure_state_read(st, &v);
	kexec_sys_set_ops(NULL);
	drop_vars(dir);
}

TEST(state_on_locked)
{
	struct secure_state st;

	state(1, MEMMAP "lockdown-integrity", &st);
	CHECK_INT(st.sb, SECURE_BOOT_ON);
	CHECK(st.locked);
	CHECK_STR(st.lockdown, "integrity");
	CHECK_STR(secure_boot_name(st.sb), "on");
}

TEST(state_off_and_missing)
{
	struct secure_state st;

	state(0, MEMMAP "lockdown-none", &st);
	CHECK_INT(st.sb, SECURE_BOOT_OFF);
	CHECK(!st.locked);
	CHECK_STR(st.lockdown, "none");
	/* a firmware without Secure Boot has no variable at all */
	state(-1, MEMMAP "no-such-lockdown-file", &st);
	CHECK_INT(st.sb, SECURE_BOOT_OFF);
	CHECK(!st.locked);
	CHECK_STR(st.lockdown, "");
	/* an odd value is not taken for on or off */
	state(7, MEMMAP "lockdown-none", &st);
	CHECK_INT(st.sb, SECURE_BOOT_UNKNOWN);
	CHECK_STR(secure_boot_name(st.sb), "unknown");
}

TEST(state_not_uefi)
{
	struct secure_state st;
	struct efi_vars v = {.dir = "/nonexistent/efivars"};

	secure_state_read(&st, &v);
	CHECK_INT(st.sb, SECURE_BOOT_NO_UEFI);
	CHECK_STR(secure_boot_name(st.sb), "off (not booted through UEFI)");
}

/* A scratch filesystem holding fixture @name as /vmlinuz and one BLS
 * entry for it. */
static void kernel_fs(struct tfs *t, const char *name)
{
	char path[256], *b;
	size_t len;
	FILE *f;

	tfs_init(t);
	snprintf(path, sizeof(path), SIG "%s", name);
	b = test_slurp(path, &len);
	if (!b)
		abort();
	snprintf(path, sizeof(path), "%s/vmlinuz", t->dir);
	f = fopen(path, "wb");
	if (!f || fwrite(b, 1, len, f) != len)
		abort();
	fclose(f);
	free(b);
	tfs_write(t, "/loader/entries/a.conf", "title A\nlinux /vmlinuz\n");
	CHECK_INT(bls_parse_fs(&t->ctx), 0);
	cfg_finish(&t->out, t->all, 1);
	CHECK(t->out.head != NULL);
}

static int signer_of(const char *name, char *out, size_t n)
{
	struct tfs t;
	int rc;

	kernel_fs(&t, name);
	rc = t.out.head ? secure_signer(t.out.head, out, n) : -EIO;
	tfs_done(&t);
	return rc;
}

TEST(signer_signed_unsigned_broken)
{
	char who[600];

	CHECK_INT(signer_of("snakeoil.efi", who, sizeof(who)), 1);
	CHECK_STR(who, "C=US, ST=Colorado, L=Fort Collins, O=SnakeOil / issuer "
		       "C=US, ST=Colorado, L=Fort Collins, O=SnakeOil");
	CHECK_INT(signer_of("unsigned.efi", who, sizeof(who)), 0);
	CHECK_STR(who, "none: not signed");
	CHECK(signer_of("past-end.efi", who, sizeof(who)) < 0);
	CHECK_STR(who, "unreadable: the signature table lies past the end of "
		       "the file or is too large");
	CHECK(signer_of("truncated-table.efi", who, sizeof(who)) < 0);
	CHECK(who[0] != '\0');
}

TEST(signer_in_json)
{
	struct tfs t;
	struct listing_extra x = {.secure_boot = "on",
				  .lockdown = "integrity",
				  .signer = secure_signer};
	char *out = NULL;
	size_t len;
	FILE *f;

	kernel_fs(&t, "snakeoil.efi");
	CHECK(nth(&t, 0) == t.out.head);
	CHECK_INT(n_warn(&t), 0);
	f = open_memstream(&out, &len);
	listing_json(f, &t.out, NULL, &x);
	fclose(f);
	CHECK(strstr(out, "{\"secure_boot\":{\"state\":\"on\",\"lockdown\":"
			  "\"integrity\"},\n\"entries\":[") == out);
	CHECK(strstr(out, ",\"signed\":true,\"signer\":\"C=US, ST=Colorado, "
			  "L=Fort Collins, O=SnakeOil / issuer ") != NULL);
	free(out);
	/* without the extra: the object has no such fields */
	f = open_memstream(&out, &len);
	listing_json(f, &t.out, NULL, NULL);
	fclose(f);
	CHECK(strstr(out, "{\"entries\":[") == out);
	CHECK(strstr(out, "\"signed\"") == NULL);
	free(out);
	tfs_done(&t);
}

TEST_MAIN("test_secure", state_on_locked, state_off_and_missing, state_not_uefi,
	  signer_signed_unsigned_broken, signer_in_json)
