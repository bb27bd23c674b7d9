/* test_boot_measure.c - the boot transaction's measuring step
 * (boot/measure.h) over the fake TPM (tests/double/tpm_double.h): the
 * events of a kexec load in the policy's order, the PCRs the TPM then
 * holds, the event log handed on in a cpio archive and what it replays
 * to, the "Starting" line's note, and the rules: no TPM changes nothing,
 * a failing TPM does not stop the boot unless `tpm = required`. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "boot/measure.h"
#include "kexec/plan.h"
#include "test.h"
#include "tpm/evlog.h"
#include "tpm/tpm.h"
#include "tpm_double.h"

static const char kernel[] = "MZ a kernel's bytes";
static const char initrd1[] = "microcode";
static const char initrd2[] = "an initramfs";
static const char cmdline[] = "root=/dev/vda1 ro quiet";

static struct entry ent = {.title = "Test", .cmdline = (char *)cmdline};

static struct boot_read sample(void)
{
	struct boot_read r = {.e = &ent, .cmdline = cmdline, .n_files = 3};

	r.files[0] = (struct boot_read_file){"kernel", "/vmlinuz", kernel,
					     sizeof(kernel)};
	r.files[1] = (struct boot_read_file){"initrd", "/ucode.img", initrd1,
					     sizeof(initrd1)};
	r.files[2] = (struct boot_read_file){"initrd", "/initrd.img", initrd2,
					     sizeof(initrd2)};
	return r;
}

/* PCR @pcr in @bank after extending, from zero, the digests of
 * datas[0..n) in turn: computed with measure_extend(), not with the
 * step. */
static void expect(unsigned bank, const void *const *datas, const size_t *lens,
		   size_t n, struct measure_digests *out)
{
	memset(out, 0, sizeof(*out));
	out->banks = bank;
	for (size_t i = 0; i < n; i++) {
		struct measure_digests d;

		measure_digests_of(bank, datas[i], lens[i], &d);
		measure_extend(out, &d);
	}
}

/* The log file inside the cpio archive @extra (newc, the one file). */
static const uint8_t *log_in(const struct kexec_blob *extra, size_t *len)
{
	const char *p = extra->buf;
	size_t off = 0;

	while (off + 110 <= extra->len) {
		char f[9] = {0};
		size_t nsz, fsz, name = off + 110;

		memcpy(f, p + off + 54, 8);
		fsz = strtoul(f, NULL, 16);
		memcpy(f, p + off + 94, 8);
		nsz = strtoul(f, NULL, 16);
		off = (name + nsz + 3) & ~(size_t)3;
		if (!strcmp(p + name, BOOT_MEASURE_LOG_PATH)) {
			*len = fsz;
			return (const uint8_t *)p + off;
		}
		off = (off + fsz + 3) & ~(size_t)3;
	}
	return NULL;
}

/* A fake TPM with @banks, opened as @t and handed to @m. */
static struct tpm_double *fake_tpm(struct boot_measure *m, struct tpm *t,
				   unsigned banks)
{
	struct tpm_double *d;
	int fd;

	d = tpm_double_start(banks, &fd);
	CHECK(d != NULL);
	CHECK_INT(tpm_open_fd(t, fd), 0);
	m->dev = t;
	return d;
}

TEST(measured_in_order)
{
	struct boot_measure m = {.mode = BOOT_MEASURE_AUTO};
	struct boot_read r = sample();
	struct kexec_blob extra = {0};
	struct tpm t;
	struct tpm_double *d;
	struct measure_digests want;
	struct evlog_pcrs rep;
	uint8_t got[32];
	char err[256] = "";
	const uint8_t *log;
	size_t log_len = 0;

	d = fake_tpm(&m, &t, MEASURE_BANK_SHA1 | MEASURE_BANK_SHA256);
	CHECK_INT(boot_measure_step(&m, &r, &extra, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	/* kernel, line (8), line (12), two initrds */
	CHECK_INT(m.events, 5);
	CHECK_INT(m.extended, 5);
	CHECK_STR(m.note, "measured into PCRs 8, 9, 12");
	{
		const void *files[] = {kernel, initrd1, initrd2};
		const size_t lens[] = {sizeof(kernel), sizeof(initrd1),
				       sizeof(initrd2)};

		expect(MEASURE_BANK_SHA256, files, lens, 3, &want);
		CHECK_INT(tpm_double_pcr(d, 9, MEASURE_BANK_SHA256, got), 0);
		CHECK(!memcmp(got, want.sha256, 32));
	}
	{
		const void *line[] = {cmdline};
		const size_t len[] = {strlen(cmdline)}; /* without the NUL */

		expect(MEASURE_BANK_SHA256, line, len, 1, &want);
		CHECK_INT(tpm_double_pcr(d, 8, MEASURE_BANK_SHA256, got), 0);
		CHECK(!memcmp(got, want.sha256, 32));
	}
	/* the log handed on replays to what the TPM holds */
	CHECK(extra.len > 0);
	log = log_in(&extra, &log_len);
	CHECK(log != NULL);
	CHECK_INT(evlog_replay(log, log_len, &rep), 0);
	CHECK_INT(rep.touched, (1u << 8) | (1u << 9) | (1u << 12));
	for (unsigned p = 8; p <= 12; p++) {
		if (!(rep.touched & (1u << p)))
			continue;
		CHECK_INT(tpm_double_pcr(d, p, MEASURE_BANK_SHA1, got), 0);
		CHECK(!memcmp(got, rep.pcr[p].sha1, 20));
		CHECK_INT(tpm_double_pcr(d, p, MEASURE_BANK_SHA256, got), 0);
		CHECK(!memcmp(got, rep.pcr[p].sha256, 32));
	}
	boot_measure_free(&m);
	tpm_close(&t);
	tpm_double_stop(d);
}

TEST(no_tpm_changes_nothing)
{
	struct boot_measure m = {.mode = BOOT_MEASURE_AUTO,
				 .tpm_path = "/nonexistent/tpmrm0"};
	struct boot_read r = sample();
	struct kexec_blob extra = {0};
	char err[256] = "";

	CHECK_INT(boot_measure_step(&m, &r, &extra, err, sizeof(err)), 0);
	CHECK(!m.tpm);
	CHECK_INT(extra.len, 0);
	CHECK_STR(m.note, "");
	CHECK_STR(err, "");
	CHECK(!boot_measure_available("/nonexistent/tpmrm0"));
	boot_measure_free(&m);
}

TEST(required_without_tpm_refuses)
{
	struct boot_measure m = {.mode = BOOT_MEASURE_REQUIRED,
				 .tpm_path = "/nonexistent/tpmrm0"};
	struct boot_read r = sample();
	struct kexec_blob extra = {0};
	char err[256] = "";

	CHECK(boot_measure_step(&m, &r, &extra, err, sizeof(err)) < 0);
	CHECK_STR(err, "tpm = required (bootmenu.conf) and this boot was not "
		       "measured: this machine has no TPM");
	CHECK_INT(extra.len, 0);
	boot_measure_free(&m);
}

/* A TPM that refuses PCR_Extend: the boot goes on with "not measured"
 * (auto), or is refused (required); a log of nothing is not handed on. */
TEST(tpm_error_said_or_refused)
{
	for (int required = 0; required <= 1; required++) {
		struct boot_measure m = {.mode = required
						     ? BOOT_MEASURE_REQUIRED
						     : BOOT_MEASURE_AUTO};
		struct boot_read r = sample();
		struct kexec_blob extra = {0};
		struct tpm t;
		struct tpm_double *d;
		char err[256] = "";
		int rc;

		d = fake_tpm(&m, &t, MEASURE_BANK_SHA256);
		tpm_double_fail(d, 0x00000182 /* PCR_Extend */, 0x921, 100);
		rc = boot_measure_step(&m, &r, &extra, err, sizeof(err));
		CHECK_STR(m.note, "not measured: TPM error 0x921");
		CHECK_INT(m.extended, 0);
		CHECK_INT(extra.len, 0);
		if (required) {
			CHECK(rc < 0);
			CHECK_STR(err,
				  "tpm = required (bootmenu.conf) and this "
				  "boot was not measured: TPM error 0x921");
		} else {
			CHECK_INT(rc, 0);
			CHECK_STR(err, "");
		}
		boot_measure_free(&m);
		tpm_close(&t);
		tpm_double_stop(d);
	}
}

TEST(off_touches_nothing)
{
	struct boot_measure m = {.mode = BOOT_MEASURE_OFF};
	struct boot_read r = sample();
	struct kexec_blob extra = {0};
	struct tpm t;
	struct tpm_double *d;
	char err[256] = "";

	d = fake_tpm(&m, &t, MEASURE_BANK_SHA256);
	CHECK_INT(boot_measure_step(&m, &r, &extra, err, sizeof(err)), 0);
	CHECK_INT(tpm_double_counts(d).extends, 0);
	CHECK_INT(extra.len, 0);
	boot_measure_free(&m);
	tpm_close(&t);
	tpm_double_stop(d);
}

TEST_MAIN("test_boot_measure", measured_in_order, no_tpm_changes_nothing,
	  required_without_tpm_refuses, tpm_error_said_or_refused,
	  off_touches_nothing)
