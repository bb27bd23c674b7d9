/* evlog.c - the TCG crypto-agile event log: writer, reader, replay.
 *
 * TCG PC Client Platform Firmware Profile (PFP) 1.05:
 * - 10.2.1 TCG_PCClientPCREvent: PCRIndex (4), EventType (4), a SHA-1
 *   digest (20), EventSize (4), Event: the log's first event, in this
 *   older format so that a SHA-1-only reader can skip it;
 * - 10.4.5.1 TCG_EfiSpecIDEvent, its data: signature "Spec ID Event03"
 *   with its NUL (16), platformClass (4), specVersionMinor 0,
 *   specVersionMajor 2, specErrata 2, uintnSize (1: 1 for UINT32, 2 for
 *   UINT64), numberOfAlgorithms (4), {algorithmId (2), digestSize (2)}
 *   for each, vendorInfoSize (1), vendorInfo;
 * - 10.2.2 TCG_PCR_EVENT2: PCRIndex (4), EventType (4), Digests: a
 *   TPML_DIGEST_VALUES, count (4) then {hashAlg (2), digest} each,
 *   EventSize (4), Event.
 * Every integer is little-endian (PFP 10.1), unlike TPM commands.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tpm/evlog.h"
#include "util/arena.h"
#include "util/le.h"

static const char spec_id_sig[16] = "Spec ID Event03"; /* with its NUL */

#define SPEC_ID_FIXED (16 + 4 + 4 + 4 + 1) /* all but the algorithm list */
#define HEADER_FIXED (4 + 4 + 20 + 4)	   /* TCG_PCClientPCREvent */

static unsigned count_banks(unsigned banks)
{
	unsigned n = 0;

	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1)
		n += (banks & b) != 0;
	return n;
}

static size_t digests_len(unsigned banks)
{
	size_t n = 4;

	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1)
		if (banks & b)
			n += 2 + measure_bank_size(b);
	return n;
}

static bool logged(const struct measure_event *e, unsigned flags)
{
	return !(flags & EVLOG_EXTENDED) || e->rc == 0;
}

/* A little-endian writer over a buffer sized beforehand: a write that
 * would not fit is dropped and counted, so a size mistake is caught. */
struct w {
	uint8_t *p;
	size_t len, off;
	int bad;
};

static void w_bytes(struct w *w, const void *b, size_t n)
{
	if (w->off > w->len || n > w->len - w->off) {
		w->bad++;
		return;
	}
	if (n)
		memcpy(w->p + w->off, b, n);
	w->off += n;
}

static void w_le(struct w *w, uint32_t v, size_t n)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			(uint8_t)(v >> 24)};

	w_bytes(w, b, n);
}

static void write_header(struct w *w, unsigned banks)
{
	static const uint8_t zero[20];
	unsigned n = count_banks(banks);

	w_le(w, 0, 4); /* PCRIndex */
	w_le(w, TCG_EV_NO_ACTION, 4);
	w_bytes(w, zero, 20);
	w_le(w, SPEC_ID_FIXED + 4 * n, 4);
	w_bytes(w, spec_id_sig, 16);
	w_le(w, 0, 4); /* platformClass: client */
	w_le(w, 0, 1); /* specVersionMinor */
	w_le(w, 2, 1); /* specVersionMajor */
	w_le(w, 2, 1); /* specErrata, PFP 1.05 */
	w_le(w, 2, 1); /* uintnSize: UINT64, an x86-64 or arm64 target's */
	w_le(w, n, 4);
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
		if (!(banks & b))
			continue;
		w_le(w, measure_bank_alg(b), 2);
		w_le(w, (uint32_t)measure_bank_size(b), 2);
	}
	w_le(w, 0, 1); /* vendorInfoSize */
}

static void write_event(struct w *w, const struct measure_event *e,
			unsigned banks)
{
	w_le(w, e->pcr, 4);
	w_le(w, e->type, 4);
	w_le(w, count_banks(banks), 4);
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
		if (!(banks & b))
			continue;
		w_le(w, measure_bank_alg(b), 2);
		w_bytes(w, measure_digest(&e->d, b), measure_bank_size(b));
	}
	w_le(w, (uint32_t)e->log_len, 4);
	w_bytes(w, e->log, e->log_len);
}

int evlog_write(struct arena *a, const struct measure_list *l, unsigned flags,
		uint8_t **out, size_t *len)
{
	unsigned banks = l->banks & MEASURE_BANKS_ALL;
	size_t n = HEADER_FIXED + SPEC_ID_FIXED + 4 * count_banks(banks);
	struct w w = {0};

	if (!banks)
		return -EINVAL;
	for (size_t i = 0; i < l->n; i++)
		if (logged(&l->ev[i], flags))
			n += 8 + digests_len(banks) + 4 + l->ev[i].log_len;
	w.p = arena_alloc(a, n);
	w.len = n;
	write_header(&w, banks);
	for (size_t i = 0; i < l->n; i++)
		if (logged(&l->ev[i], flags))
			write_event(&w, &l->ev[i], banks);
	if (w.bad || w.off != n)
		return -EOVERFLOW; /* a size above is wrong: a bug */
	*out = w.p;
	*len = n;
	return 0;
}

/* --- reading */

/* The TCG_EfiSpecIDEvent in spec[0..len): the banks and their sizes. */
static int read_spec_id(struct evlog_reader *r, const uint8_t *spec, size_t len)
{
	uint32_t n = 0;
	uint8_t vendor = 0;
	size_t off = 24;

	if (len < SPEC_ID_FIXED || memcmp(spec, spec_id_sig, 16) ||
	    get_le32(spec, len, off, &n) || n == 0 || n > EVLOG_ALGS_MAX ||
	    n > (len - SPEC_ID_FIXED) / 4)
		return -EBADMSG;
	off += 4;
	for (uint32_t i = 0; i < n; i++, off += 4) {
		uint16_t alg = 0, size = 0;
		unsigned bank;

		get_le16(spec, len, off, &alg);
		get_le16(spec, len, off + 2, &size);
		bank = measure_alg_bank(alg);
		if (size == 0 || (bank && size != measure_bank_size(bank)) ||
		    (r->banks & bank))
			return -EBADMSG;
		r->banks |= bank;
		r->algs[i].alg = alg;
		r->algs[i].size = size;
	}
	r->n_algs = n;
	if (get_le8(spec, len, off, &vendor) || vendor != len - off - 1)
		return -EBADMSG;
	return 0;
}

int evlog_open(struct evlog_reader *r, const void *log, size_t len)
{
	uint32_t pcr = 0, type = 0, size = 0;
	const uint8_t *p = log;

	memset(r, 0, sizeof(*r));
	if (get_le32(p, len, 0, &pcr) || get_le32(p, len, 4, &type) ||
	    get_le32(p, len, 28, &size) || pcr != 0 ||
	    type != TCG_EV_NO_ACTION || size > len - HEADER_FIXED)
		return -EBADMSG;
	if (read_spec_id(r, p + HEADER_FIXED, size))
		return -EBADMSG;
	r->p = p;
	r->len = len;
	r->off = HEADER_FIXED + size;
	return 0;
}

/* The index in r->algs of @alg, or -1. */
static int alg_index(const struct evlog_reader *r, uint16_t alg)
{
	for (unsigned i = 0; i < r->n_algs; i++)
		if (r->algs[i].alg == alg)
			return (int)i;
	return -1;
}

/* TPML_DIGEST_VALUES at r->off: one digest for each listed bank. */
static int read_digests(struct evlog_reader *r, size_t *off,
			struct measure_digests *d)
{
	uint32_t count = 0, seen = 0;

	if (get_le32(r->p, r->len, *off, &count) || count != r->n_algs)
		return -EBADMSG;
	*off += 4;
	for (uint32_t i = 0; i < count; i++) {
		uint16_t alg = 0;
		int k;
		unsigned bank;

		if (get_le16(r->p, r->len, *off, &alg) ||
		    (k = alg_index(r, alg)) < 0 || (seen & 1u << k) ||
		    !le_in(r->len, *off + 2, r->algs[k].size))
			return -EBADMSG;
		seen |= 1u << k;
		bank = measure_alg_bank(alg);
		if (bank)
			memcpy(measure_digest_mut(d, bank), r->p + *off + 2,
			       r->algs[k].size);
		*off += 2 + (size_t)r->algs[k].size;
	}
	d->banks = r->banks;
	return 0;
}

int evlog_next(struct evlog_reader *r, struct evlog_event *ev)
{
	size_t off = r->off;
	uint32_t size = 0;

	if (off == r->len)
		return 0;
	memset(ev, 0, sizeof(*ev));
	if (get_le32(r->p, r->len, off, &ev->pcr) ||
	    get_le32(r->p, r->len, off + 4, &ev->type))
		return -EBADMSG;
	off += 8;
	if (read_digests(r, &off, &ev->d) ||
	    get_le32(r->p, r->len, off, &size) || !le_in(r->len, off + 4, size))
		return -EBADMSG;
	ev->data = r->p + off + 4;
	ev->data_len = size;
	r->off = off + 4 + size;
	return 1;
}

int evlog_replay(const void *log, size_t len, struct evlog_pcrs *out)
{
	struct evlog_reader r;
	struct evlog_event ev;
	int rc;

	memset(out, 0, sizeof(*out));
	if (evlog_open(&r, log, len))
		return -EBADMSG;
	out->banks = r.banks;
	for (unsigned i = 0; i < EVLOG_PCRS; i++)
		out->pcr[i].banks = r.banks;
	while ((rc = evlog_next(&r, &ev)) == 1) {
		out->events++;
		if (ev.type == TCG_EV_NO_ACTION)
			continue;
		if (ev.pcr >= EVLOG_PCRS)
			return -EBADMSG;
		measure_extend(&out->pcr[ev.pcr], &ev.d);
		out->touched |= 1u << ev.pcr;
	}
	return rc;
}
