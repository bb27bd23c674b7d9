/* load.c - machine -> plan -> print or commit. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kexec/load.h"
#include "kexec/unpack.h"
#include "format/pe_sig.h"
#include "util/say.h"

/* A plan kexec_file_load can take although ours failed for a reason the
 * kernel's own loader does not share (memory map unreadable). */
static void plan_file_only(const struct kexec_request *rq, struct kexec_plan *p)
{
	kexec_plan_files(p, &rq->kernel, &rq->initrd, rq->cmdline, rq->crash);
}

static int plan_request(const struct kexec_request *rq, struct kexec_plan *p,
			enum kexec_syscall first, char *err, size_t errlen)
{
	struct kexec_machine m;
	struct kexec_plan_in in = {
	    .kernel = rq->kernel,
	    .initrd = rq->initrd,
	    .cmdline = rq->cmdline,
	    .m = &m,
	    .crash = rq->crash,
	    .sha256 = rq->sha256,
	};
	int rc;

	rc = kexec_machine_read(&m, rq->paths, err, errlen);
	if (rc == 0) {
		rc = kexec_plan_build(&in, p, err, errlen);
		kexec_machine_free(&m);
	}
	/* the file syscall places segments itself: only image faults, and
	 * the kernel's own half-of-memory rule, count */
	if (rc && first == KEXEC_SYSCALL_FILE && rc != -ENOEXEC &&
	    rc != -E2BIG && rc != -EFBIG) {
		plan_file_only(rq, p);
		rc = 0;
	}
	return rc;
}

static void print_file_only(const struct kexec_request *rq, FILE *out)
{
	fprintf(out, "cmdline:  \"%s\"\n", rq->cmdline ? rq->cmdline : "");
	fprintf(out, "initrd:   %zu bytes\n", rq->initrd.len);
	fprintf(out,
		"syscall:  kexec_file_load%s (the kernel places the "
		"segments)\n",
		rq->crash ? " (panic kernel)" : "");
}

static int load_plain(const struct kexec_request *rq, enum kexec_syscall *used,
		      char *err, size_t errlen)
{
	enum kexec_syscall first = kexec_syscall_first(rq->syscall);
	FILE *out = rq->plan_out ? rq->plan_out : stdout;
	struct kexec_plan p;
	int rc;

	if (used)
		*used = first;
	rc = plan_request(rq, &p, first, err, errlen);
	if (rc)
		return rc;
	rc = kexec_plan_fits(&p, first == KEXEC_SYSCALL_FILE, err, errlen);
	if (rc) {
		kexec_plan_free(&p);
		return rc;
	}
	if (rq->dry_run) {
		if (p.n_seg)
			kexec_plan_print(&p, kexec_syscall_name(first), out);
		else
			print_file_only(rq, out);
		kexec_plan_free(&p);
		return 0;
	}
	p.initrd_secret =
	    rq->initrd_secret < p.initrd_len ? rq->initrd_secret : p.initrd_len;
	rc = kexec_commit(&p, rq->syscall, used, err, errlen);
	kexec_plan_free(&p);
	return rc;
}

/* Under lockdown only kexec_file_load runs, and it verifies a PE
 * signature (kimage_validate_signature()): an image that is not a PE file
 * has no place for one, so it is refused here, before any syscall, with
 * that reason. Whether a PE image's signature is trusted is the kernel's
 * decision alone (its keyrings, IMA): it is not guessed here. */
static int lockdown_precheck(const struct kexec_blob *k, char *err,
			     size_t errlen)
{
	size_t off, size;

	if (!kexec_locked_down() ||
	    pe_sig_locate(k->buf, k->len, &off, &size) != -ENOEXEC)
		return 0;
	return say(err, errlen, -ENOEXEC, "%s",
		   "the kernel is locked down (Secure Boot): only a bzImage "
		   "with a PE signature boots, and this image is not a PE "
		   "file");
}

/* Modules GRUB would decompress (gzip here), unpacked into @owned[]. */
static int mb_unpack_mods(const struct kexec_request *rq,
			  struct kexec_mb_module *mods, uint8_t **owned,
			  char *err, size_t errlen)
{
	for (size_t i = 0; i < rq->n_mods; i++) {
		const char *format;
		int rc;

		mods[i] = rq->mods[i];
		owned[i] = NULL;
		if (rq->nounzip && rq->nounzip[i])
			continue;
		rc = kexec_unpack(&rq->mods[i].blob, &mods[i].blob, &owned[i],
				  &format, err, errlen);
		if (rc == -ENOEXEC && format && strcmp(format, "gzip")) {
			mods[i].blob = rq->mods[i].blob; /* GRUB's xz, lzop */
			rc = 0;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int mb_plan(const struct kexec_request *rq,
		   const struct kexec_mb_module *mods, struct kexec_plan *p,
		   char *err, size_t errlen)
{
	struct kexec_machine m;
	struct kexec_mb_plan_in in = {
	    .image = rq->kernel,
	    .version = rq->multiboot,
	    .cmdline = rq->cmdline,
	    .mods = mods,
	    .n_mods = rq->n_mods,
	    .m = &m,
	    .rsdp = rq->rsdp,
	    .rsdp_len = rq->rsdp_len,
	    .sha256 = rq->sha256,
	};
	uint8_t rsdp[KEXEC_RSDP_MAX];
	int rc = kexec_machine_read(&m, rq->paths, err, errlen);

	if (rc)
		return rc;
	if (!in.rsdp) {
		/* the ACPI tags, when the firmware's RSDP can be read */
		int len = kexec_machine_rsdp(
		    &m, rq->paths ? rq->paths->devmem : NULL, rsdp);

		in.rsdp = len > 0 ? rsdp : NULL;
		in.rsdp_len = len > 0 ? (size_t)len : 0;
	}
	rc = kexec_mb_plan_build(&in, p, err, errlen);
	kexec_machine_free(&m);
	if (!rc)
		rc = kexec_plan_fits(p, false, err, errlen);
	if (rc && p->purg)
		kexec_plan_free(p);
	return rc;
}

static int load_multiboot(const struct kexec_request *rq,
			  enum kexec_syscall *used, char *err, size_t errlen)
{
	struct kexec_mb_module mods[KEXEC_MB_MODULES_MAX];
	uint8_t *owned[KEXEC_MB_MODULES_MAX] = {0};
	struct kexec_plan p;
	int rc;

	if (used)
		*used = KEXEC_SYSCALL_LOAD;
	if (kexec_locked_down())
		return say(err, errlen, -EPERM, "%s",
			   "the kernel is locked down (Secure Boot): only "
			   "kexec_file_load runs, and it has no multiboot "
			   "loader, so Xen and other multiboot kernels cannot "
			   "boot from bootmenu here");
	if (rq->n_mods > KEXEC_MB_MODULES_MAX)
		return say(err, errlen, -E2BIG,
			   "%zu modules: at most %d are supported", rq->n_mods,
			   KEXEC_MB_MODULES_MAX);
	rc = mb_unpack_mods(rq, mods, owned, err, errlen);
	if (!rc)
		rc = mb_plan(rq, mods, &p, err, errlen);
	if (!rc) {
		if (rq->dry_run)
			kexec_plan_print(&p, "kexec_load",
					 rq->plan_out ? rq->plan_out : stdout);
		else
			rc = kexec_commit(&p, KEXEC_SYSCALL_LOAD, used, err,
					  errlen);
		kexec_plan_free(&p);
	}
	for (size_t i = 0; i < rq->n_mods; i++)
		free(owned[i]);
	return rc;
}

int kexec_load_request(const struct kexec_request *rq, enum kexec_syscall *used,
		       char *err, size_t errlen)
{
	struct kexec_request r = *rq;
	const char *format;
	uint8_t *owned;
	int rc;

	if (used)
		*used = kexec_syscall_first(rq->syscall);
	rc = kexec_lockdown_refusal(rq->syscall, err, errlen);
	if (rc)
		return rc;
	rc = kexec_unpack(&rq->kernel, &r.kernel, &owned, &format, err, errlen);
	if (rc)
		return rc;
	rc = rq->multiboot ? load_multiboot(&r, used, err, errlen)
			   : lockdown_precheck(&r.kernel, err, errlen);
	if (rc || rq->multiboot) {
		free(owned);
		return rc;
	}
	if (format && rq->dry_run)
		fprintf(rq->plan_out ? rq->plan_out : stdout,
			"kernel:   "
			"%s-compressed, %zu bytes once decompressed\n",
			format, r.kernel.len);
	rc = load_plain(&r, used, err, errlen);
	if (rc == -ENOEXEC && format && errlen) {
		char inner[512];

		snprintf(inner, sizeof(inner), "%s", err);
		snprintf(err, errlen, "inside the %s-compressed file: %s",
			 format, inner);
	}
	free(owned);
	return rc;
}
