/* measure.c - measurement events: digests over the active banks, lists,
 * and the planner for a kexec boot.
 *
 * The planner follows GRUB 2.06, so that tools that predict GRUB's PCR 8
 * and 9 predict ours (read in GRUB's tag grub-2.06):
 *
 * - Files, PCR 9. grub-core/commands/tpm.c, grub_tpm_verify_init() keeps
 *   io->name as the context; grub_tpm_verify_write() measures the whole
 *   file (GRUB_VERIFY_FLAGS_SINGLE_CHUNK: grub-core/kern/verifiers.c,
 *   grub_verifiers_open(), reads it all and hands it over once) with
 *   grub_tpm_measure (buf, size, GRUB_BINARY_PCR, context), PCR 9
 *   (include/grub/tpm.h). io->name is the name given to grub_file_open()
 *   (grub-core/kern/file.c, file->name = grub_strdup (name)): the path as
 *   the `linux`/`initrd` command wrote it, "/vmlinuz-6.1.0-13-amd64", or
 *   "(hd0,gpt2)/vmlinuz..." when it names a device; no prefix is added.
 *   The verifier filter is GRUB_FILE_FILTER_VERIFY, before GZIO
 *   (include/grub/file.h): the bytes digested are the file's as read,
 *   before decompression.
 * - Command line, PCR 8. grub_tpm_verify_string(): the digest is over
 *   grub_strlen (str) bytes, without the NUL; the description is
 *   "kernel_cmdline: " followed by the line ("module_cmdline: " for a
 *   multiboot module, "grub_cmd: " for each command run).
 * - Event data. grub-core/commands/efi/tpm.c, grub_tpm2_log_event(): type
 *   EV_IPL, and the event data is the description with its NUL
 *   (grub_strlen (description) + 1 bytes; grub_tpm1_log_event() the
 *   same for a TPM 1.2). So a file's event data is its path + NUL and the
 *   line's "kernel_cmdline: <line>" + NUL.
 * - Order. grub-core/loader/i386/linux.c, grub_cmd_linux(): the kernel is
 *   opened (measured) first, then the line is made and measured
 *   (grub_create_loader_cmdline(), grub-core/lib/cmdline.c, ends in
 *   grub_verify_string()); `initrd` then opens each file in turn.
 *
 * Where we differ: GRUB 2.06 measures the line it made *without* the
 * "BOOT_IMAGE=" it puts in front (linux.c hands grub_create_loader_cmdline
 * the buffer past LINUX_IMAGE), so its PCR 8 is not the line the kernel
 * gets. We measure the line the target actually gets (issue 40's rule).
 *
 * PCR 12 (systemd-stub's form of the line) is tpm/uki_measure.c's.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tpm/measure.h"
#include "util/arena.h"

uint16_t measure_bank_alg(unsigned bank)
{
	switch (bank) {
	case MEASURE_BANK_SHA1:
		return TPM_ALG_SHA1;
	case MEASURE_BANK_SHA256:
		return TPM_ALG_SHA256;
	case MEASURE_BANK_SHA384:
		return TPM_ALG_SHA384;
	case MEASURE_BANK_SHA512:
		return TPM_ALG_SHA512;
	}
	return 0;
}

unsigned measure_alg_bank(uint16_t alg)
{
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1)
		if (measure_bank_alg(b) == alg)
			return b;
	return 0;
}

size_t measure_bank_size(unsigned bank)
{
	switch (bank) {
	case MEASURE_BANK_SHA1:
		return SHA1_LEN;
	case MEASURE_BANK_SHA256:
		return SHA256_LEN;
	case MEASURE_BANK_SHA384:
		return SHA384_LEN;
	case MEASURE_BANK_SHA512:
		return SHA512_LEN;
	}
	return 0;
}

uint8_t *measure_digest_mut(struct measure_digests *d, unsigned bank)
{
	switch (bank) {
	case MEASURE_BANK_SHA1:
		return d->sha1;
	case MEASURE_BANK_SHA256:
		return d->sha256;
	case MEASURE_BANK_SHA384:
		return d->sha384;
	case MEASURE_BANK_SHA512:
		return d->sha512;
	}
	return NULL;
}

const uint8_t *measure_digest(const struct measure_digests *d, unsigned bank)
{
	return measure_digest_mut((struct measure_digests *)d, bank);
}

const char *measure_bank_name(unsigned bank)
{
	static const char *const names[] = {"sha1", "sha256", "sha384",
					    "sha512"};

	for (unsigned i = 0; i < MEASURE_BANKS; i++)
		if (bank == 1u << i)
			return names[i];
	return "?";
}

void measure_hash_init(struct measure_hash *h, unsigned banks)
{
	h->banks = banks & MEASURE_BANKS_ALL;
	if (h->banks & MEASURE_BANK_SHA1)
		sha1_init(&h->sha1);
	if (h->banks & MEASURE_BANK_SHA256)
		sha256_init(&h->sha256);
	if (h->banks & MEASURE_BANK_SHA384)
		sha384_init(&h->sha384);
	if (h->banks & MEASURE_BANK_SHA512)
		sha512_init(&h->sha512);
}

void measure_hash_update(struct measure_hash *h, const void *data, size_t len)
{
	if (h->banks & MEASURE_BANK_SHA1)
		sha1_update(&h->sha1, data, len);
	if (h->banks & MEASURE_BANK_SHA256)
		sha256_update(&h->sha256, data, len);
	if (h->banks & MEASURE_BANK_SHA384)
		sha512_update(&h->sha384, data, len);
	if (h->banks & MEASURE_BANK_SHA512)
		sha512_update(&h->sha512, data, len);
}

void measure_hash_final(struct measure_hash *h, struct measure_digests *d)
{
	memset(d, 0, sizeof(*d));
	d->banks = h->banks;
	if (h->banks & MEASURE_BANK_SHA1)
		sha1_final(&h->sha1, d->sha1);
	if (h->banks & MEASURE_BANK_SHA256)
		sha256_final(&h->sha256, d->sha256);
	if (h->banks & MEASURE_BANK_SHA384)
		sha384_final(&h->sha384, d->sha384);
	if (h->banks & MEASURE_BANK_SHA512)
		sha512_final(&h->sha512, d->sha512);
}

void measure_digests_of(unsigned banks, const void *data, size_t len,
			struct measure_digests *d)
{
	struct measure_hash h;

	measure_hash_init(&h, banks);
	measure_hash_update(&h, data, len);
	measure_hash_final(&h, d);
}

void measure_extend(struct measure_digests *pcr,
		    const struct measure_digests *d)
{
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
		struct measure_hash h;
		struct measure_digests out;

		if (!(pcr->banks & d->banks & b))
			continue;
		measure_hash_init(&h, b);
		measure_hash_update(&h, measure_digest(pcr, b),
				    measure_bank_size(b));
		measure_hash_update(&h, measure_digest(d, b),
				    measure_bank_size(b));
		measure_hash_final(&h, &out);
		memcpy(measure_digest_mut(pcr, b), measure_digest(&out, b),
		       measure_bank_size(b));
	}
}

void measure_predict(const struct measure_list *l, unsigned pcr,
		     const struct measure_digests *start,
		     struct measure_digests *out)
{
	if (start) {
		*out = *start;
	} else {
		memset(out, 0, sizeof(*out));
		out->banks = l->banks;
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].pcr == pcr &&
		    (l->ev[i].rc == 0 || l->ev[i].rc == MEASURE_PENDING))
			measure_extend(out, &l->ev[i].d);
}

void measure_list_init(struct measure_list *l, struct arena *a, unsigned banks)
{
	memset(l, 0, sizeof(*l));
	l->a = a;
	l->banks = banks & MEASURE_BANKS_ALL;
}

/* A new zeroed event at the end; the arena has no realloc, so a full
 * array is copied into one twice its size (the old one stays in the
 * arena: lists are short). */
static struct measure_event *list_push(struct measure_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct measure_event *ev = arena_alloc(l->a, cap * sizeof(*ev));

		if (l->n)
			memcpy(ev, l->ev, l->n * sizeof(*ev));
		l->ev = ev;
		l->cap = cap;
	}
	memset(&l->ev[l->n], 0, sizeof(l->ev[0]));
	return &l->ev[l->n++];
}

struct measure_event *measure_add_digests(struct measure_list *l, unsigned pcr,
					  uint32_t type,
					  const struct measure_digests *d,
					  const void *log, size_t log_len,
					  const char *what)
{
	struct measure_event *e;
	void *copy;

	if ((d->banks & l->banks) != l->banks) {
		errno = EINVAL;
		return NULL;
	}
	copy = arena_alloc(l->a, log_len ? log_len : 1);
	if (log_len)
		memcpy(copy, log, log_len);
	e = list_push(l);
	e->pcr = pcr;
	e->type = type;
	e->d = *d;
	e->d.banks = l->banks;
	e->log = copy;
	e->log_len = log_len;
	e->what = arena_strdup(l->a, what);
	e->rc = MEASURE_PENDING;
	return e;
}

struct measure_event *measure_add(struct measure_list *l, unsigned pcr,
				  uint32_t type, const void *data, size_t len,
				  const void *log, size_t log_len,
				  const char *what)
{
	struct measure_digests d;

	measure_digests_of(l->banks, data, len, &d);
	return measure_add_digests(l, pcr, type, &d, log, log_len, what);
}

struct measure_event *measure_file(struct measure_list *l,
				   const struct measure_file *f)
{
	struct measure_digests d;
	const char *what;

	if (!f->path) {
		errno = EINVAL;
		return NULL;
	}
	if (f->d)
		d = *f->d;
	else
		measure_digests_of(l->banks, f->data, f->len, &d);
	what = arena_printf(l->a, "%s %s", f->what ? f->what : "file", f->path);
	/* grub_tpm2_log_event(): the description with its NUL */
	return measure_add_digests(l, MEASURE_PCR_FILES, TCG_EV_IPL, &d,
				   f->path, strlen(f->path) + 1, what);
}

/* grub_tpm_verify_string(): digest without the NUL, data with it */
static struct measure_event *measure_string(struct measure_list *l,
					    const char *prefix, const char *str,
					    const char *what)
{
	const char *line = str ? str : "";
	char *log = arena_printf(l->a, "%s%s", prefix, line);

	return measure_add(l, MEASURE_PCR_CMDLINE, TCG_EV_IPL, line,
			   strlen(line), log, strlen(log) + 1, what);
}

struct measure_event *measure_cmdline(struct measure_list *l,
				      const char *cmdline)
{
	return measure_string(l, "kernel_cmdline: ", cmdline, "cmdline");
}

int measure_plan_kexec(struct measure_list *l,
		       const struct measure_file *kernel,
		       const struct measure_file *initrds, size_t n_initrds,
		       const char *cmdline)
{
	if (!kernel || !measure_file(l, kernel))
		return -EINVAL;
	measure_cmdline(l, cmdline);
	for (size_t i = 0; i < n_initrds; i++)
		if (!measure_file(l, &initrds[i]))
			return -EINVAL;
	return 0;
}

/* GRUB 2.06 grub-core/loader/multiboot.c: grub_cmd_multiboot() opens the
 * kernel (PCR 9), then grub_multiboot_init_mbi() makes its line
 * (KERNEL_CMDLINE); grub_cmd_module() opens each module (PCR 9), then
 * add_module() makes its string (GRUB_VERIFY_MODULE_CMDLINE:
 * "module_cmdline: "). */
int measure_plan_multiboot(struct measure_list *l,
			   const struct measure_file *kernel,
			   const char *cmdline,
			   const struct measure_file *modules,
			   const char *const *strings, size_t n_modules)
{
	if (!kernel || !measure_file(l, kernel))
		return -EINVAL;
	measure_cmdline(l, cmdline);
	for (size_t i = 0; i < n_modules; i++) {
		if (!measure_file(l, &modules[i]))
			return -EINVAL;
		measure_string(l, "module_cmdline: ", strings[i],
			       "module line");
	}
	return 0;
}
