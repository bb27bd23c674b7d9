/* measure.c - the measuring step of a boot (measure.h). */
#include "boot/measure.h"
#include "boot/boot.h"
#include "entry/entry.h"
#include "kexec/plan.h"
#include "scan/fs.h"
#include "tpm/evlog.h"
#include "tpm/tpm.h"
#include "tpm/uki_measure.h"
#include "util/hex.h"
#include "util/json.h"
#include "util/log.h"
#include "util/say.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The events of @r for the TPM's banks, in the policy's order. */
static int bm_plan(struct measure_list *l, const struct boot_read *r)
{
	struct measure_file files[1 + ENTRY_INITRD_MAX];
	bool uki = r->uki != NULL;
	int rc;

	for (size_t i = 0; i < r->n_files; i++)
		files[i] = (struct measure_file){
		    .path = r->files[i].path,
		    .what = r->files[i].what,
		    .data = r->files[i].buf,
		    .len = r->files[i].len,
		};
	if (r->multiboot)
		return measure_plan_multiboot(l, &files[0], r->cmdline,
					      files + 1, r->mb_strings,
					      r->n_files - 1);
	rc = measure_plan_kexec(l, &files[0], files + 1, r->n_files - 1,
				r->cmdline);
	if (!rc && uki)
		rc = uki_measure_pcr11(l, r->uki, r->uki_len);
	/* PCR 12: the line as systemd-stub measures load options, which for
	 * a UKI it does only when they replace its .cmdline (an edited line,
	 * or a UKI without one); its own is in PCR 11 already */
	if (!rc && (!uki || !r->uki_own_cmdline))
		rc = uki_measure_pcr12(l, r->cmdline);
	return rc;
}

static void bm_hex(FILE *out, const struct measure_digests *d, unsigned b)
{
	char hex[2 * MEASURE_DIGEST_MAX + 1];

	hex_encode(measure_digest(d, b), measure_bank_size(b), hex);
	fputs(hex, out);
}

static void bm_print(const struct measure_list *l, FILE *out)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct measure_event *ev = &l->ev[i];

		fprintf(out, "tpm:      PCR %2u", ev->pcr);
		for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
			if (!(ev->d.banks & b))
				continue;
			fprintf(out, " %s:", measure_bank_name(b));
			bm_hex(out, &ev->d, b);
		}
		fprintf(out, " %s\n", ev->what ? ev->what : "");
	}
}

static void bm_json_events(FILE *out, const struct measure_list *l)
{
	fputs("\"events\":[", out);
	for (size_t i = 0; i < l->n; i++) {
		const struct measure_event *ev = &l->ev[i];

		fprintf(out, "%s{\"pcr\":%u,\"what\":", i ? "," : "", ev->pcr);
		json_str(out, ev->what ? ev->what : "");
		for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1)
			if (ev->d.banks & b) {
				fprintf(out, ",\"%s\":\"",
					measure_bank_name(b));
				bm_hex(out, &ev->d, b);
				fputc('"', out);
			}
		fputc('}', out);
	}
	fputc(']', out);
}

/* The PCRs @l extends, from their values now: "pcrs" in JSON, else one
 * line per PCR and bank. */
static int bm_show_pcrs(FILE *out, bool json, struct tpm *t, unsigned banks,
			const struct measure_list *l)
{
	uint32_t pcrs = 0;
	bool first = true;

	for (size_t i = 0; i < l->n; i++)
		pcrs |= 1u << l->ev[i].pcr;
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
		if (!(banks & b))
			continue;
		if (json)
			fprintf(out, "%s\"%s\":{", first ? "" : ",",
				measure_bank_name(b));
		first = false;
		for (unsigned p = 0, n = 0; p < 24; p++) {
			struct measure_digests now, then;
			int rc;

			if (!(pcrs & (1u << p)))
				continue;
			if ((rc = tpm_pcr_read(t, p, b, &now)))
				return rc;
			measure_predict(l, p, &now, &then);
			if (json)
				fprintf(out, "%s\"%u\":\"", n++ ? "," : "", p);
			else
				fprintf(out, "PCR %2u %s becomes ", p,
					measure_bank_name(b));
			bm_hex(out, &then, b);
			fputs(json ? "\"" : "\n", out);
		}
		if (json)
			fputc('}', out);
	}
	return 0;
}

/* For people (the menu's `i`): one bank, SHA-256 when the TPM has it,
 * each event and then each PCR's value to come, a line each. */
static int bm_show_text(FILE *out, struct tpm *t, const struct measure_list *l)
{
	unsigned b = t->banks & MEASURE_BANK_SHA256 ? MEASURE_BANK_SHA256
						    : t->banks & -t->banks;

	for (size_t i = 0; i < l->n; i++) {
		fprintf(out, "PCR %2u %s ", l->ev[i].pcr, measure_bank_name(b));
		bm_hex(out, &l->ev[i].d, b);
		fprintf(out, " %s\n", l->ev[i].what ? l->ev[i].what : "");
	}
	return bm_show_pcrs(out, false, t, b, l);
}

static int bm_show(struct boot_measure *m, struct tpm *t,
		   const struct measure_list *l)
{
	int rc;

	if (!m->show_json)
		return bm_show_text(m->show, t, l);
	fputc('{', m->show);
	bm_json_events(m->show, l);
	fputs(",\"pcrs\":{", m->show);
	rc = bm_show_pcrs(m->show, true, t, t->banks, l);
	fputs("}}", m->show);
	return rc;
}

/* "measured into PCRs 8, 9, 12" */
static void bm_note_done(struct boot_measure *m, const struct measure_list *l)
{
	uint32_t pcrs = 0;
	size_t n;

	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].rc == 0)
			pcrs |= 1u << l->ev[i].pcr;
	n = (size_t)snprintf(m->note, sizeof(m->note), "measured into PCRs");
	for (unsigned p = 0; p < 24 && n < sizeof(m->note); p++)
		if (pcrs & (1u << p))
			n += (size_t)snprintf(m->note + n, sizeof(m->note) - n,
					      "%s %u", n > 18 ? "," : "", p);
}

static void bm_note_failed(struct boot_measure *m, int rc, uint32_t tpm_rc)
{
	if (rc == -EREMOTEIO)
		snprintf(m->note, sizeof(m->note),
			 "not measured: TPM error 0x%x", tpm_rc);
	else
		snprintf(m->note, sizeof(m->note), "not measured: %s",
			 rc == -ETIMEDOUT ? "the TPM did not answer"
					  : strerror(-rc));
}

/* The extended events' log as the one file of a cpio archive. */
static int bm_archive(struct boot_measure *m, const struct measure_list *l,
		      struct kexec_blob *extra)
{
	uint8_t *log;
	size_t len;
	int rc = evlog_write(&m->a, l, EVLOG_EXTENDED, &log, &len);

	if (rc)
		return rc;
	cpio_add_dir(&m->cpio, ".extra", 0755);
	cpio_add_dir(&m->cpio, BOOT_MEASURE_LOG_DIR, 0755);
	cpio_add_file(&m->cpio, BOOT_MEASURE_LOG_PATH, log, len, 0444);
	rc = cpio_finish(&m->cpio);
	if (!rc) {
		extra->buf = m->cpio.buf;
		extra->len = m->cpio.len;
	}
	return rc;
}

/* Extend @l's events; the note says what happened. */
static int bm_extend(struct boot_measure *m, struct tpm *t,
		     struct measure_list *l, struct kexec_blob *extra)
{
	int rc = tpm_measure(t, l);
	uint32_t tpm_rc = 0;

	m->events = l->n;
	for (size_t i = 0; i < l->n; i++) {
		if (l->ev[i].rc == 0)
			m->extended++;
		else if (!tpm_rc)
			tpm_rc = l->ev[i].tpm_rc;
	}
	if (rc) {
		bm_note_failed(m, rc, tpm_rc);
		log_warn("tpm: %s (%zu of %zu events extended)", m->note,
			 m->extended, m->events);
	} else {
		bm_note_done(m, l);
	}
	if (m->extended && bm_archive(m, l, extra) < 0)
		log_warn("tpm: the event log could not be made: it is not "
			 "handed on");
	return rc;
}

static int bm_refuse(const struct boot_measure *m, int rc, char *err,
		     size_t len)
{
	if (m->mode != BOOT_MEASURE_REQUIRED)
		return 0;
	return say(err, len, rc < 0 ? rc : -EIO,
		   "tpm = required (bootmenu.conf) and this boot was %s",
		   m->tpm ? m->note : "not measured: this machine has no TPM");
}

int boot_measure_step(void *ctx, const struct boot_read *r,
		      struct kexec_blob *extra, char *err, size_t len)
{
	struct boot_measure *m = ctx;
	struct tpm own = {.fd = -1}, *t = m->dev ? m->dev : &own;
	struct measure_list l;
	int rc;

	if (m->mode == BOOT_MEASURE_OFF)
		return 0;
	rc = m->dev ? 0 : tpm_open(&own, m->tpm_path);
	m->tpm = rc != -ENOENT && rc != -ENODEV;
	if (rc) {
		if (m->tpm)
			bm_note_failed(m, rc, own.rc);
		return bm_refuse(m, rc, err, len);
	}
	measure_list_init(&l, &m->a, t->banks);
	rc = bm_plan(&l, r);
	if (rc) {
		snprintf(m->note, sizeof(m->note), "not measured: %s",
			 rc == -EOPNOTSUPP ? "a UKI of a systemd-stub other "
					     "than 252"
					   : strerror(-rc));
	} else if (r->dry_run && m->show) {
		rc = bm_show(m, t, &l);
	} else if (r->dry_run) {
		bm_print(&l, r->out ? r->out : stdout);
	} else {
		rc = bm_extend(m, t, &l, extra);
	}
	tpm_close(&own);
	return rc ? bm_refuse(m, rc, err, len) : 0;
}

/* Whether a file of @e is on a network root: showing what it would
 * measure would fetch it, outside a boot's progress and cancel. */
static bool bm_remote(const struct entry *e)
{
	if (e->kernel.fs && e->kernel.fs->net)
		return true;
	for (size_t i = 0; i < e->n_initrds; i++)
		if (e->initrds[i].fs && e->initrds[i].fs->net)
			return true;
	return false;
}

int boot_measure_show(const struct entry *e, const struct boot_opts *o,
		      FILE *out, bool json, char *err, size_t len)
{
	static const struct boot_opts defaults;
	struct boot_measure m = {.show = out, .show_json = json};
	struct boot_loaded l;
	struct boot_opts d;
	int rc;

	d = o ? *o : defaults;
	if (e->method != ENTRY_KEXEC || bm_remote(e))
		return -EOPNOTSUPP;
	if (d.tpm == BOOT_MEASURE_OFF || !boot_measure_available(d.tpm_path))
		return -ENODEV;
	d.dry_run = true;
	d.plan_out = fopen("/dev/null", "w");
	if (!d.plan_out)
		return say(err, len, -errno, "cannot open /dev/null: %s",
			   strerror(errno));
	d.measure = boot_measure_step;
	d.measure_ctx = &m;
	m.tpm_path = d.tpm_path;
	rc = boot_load_entry(e, &d, &l, err, len);
	fclose(d.plan_out);
	if (!rc && m.note[0])
		rc = say(err, len, -EIO, "%s", m.note);
	boot_measure_free(&m);
	return rc;
}

void boot_measure_free(struct boot_measure *m)
{
	cpio_free(&m->cpio);
	arena_free(&m->a);
}

bool boot_measure_available(const char *tpm_path)
{
	if (tpm_path)
		return access(tpm_path, R_OK | W_OK) == 0;
	return access(TPM_DEV_RM, R_OK | W_OK) == 0 ||
	       access(TPM_DEV_RAW, R_OK | W_OK) == 0;
}
