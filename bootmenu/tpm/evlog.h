/* evlog.h - bootmenu's events as a TCG event log the booted system reads.
 *
 * The format is the TCG PC Client Platform Firmware Profile's "crypto
 * agile" log (PFP 1.05, 10.2.1 and 10.4.5): one TCG_PCClientPCREvent
 * (SHA-1 format) whose EV_NO_ACTION event data is the "Spec ID Event03"
 * structure listing the banks and their digest sizes, then one
 * TCG_PCR_EVENT2 per event with a digest for every listed bank. All its
 * integers are little-endian. `tpm2_eventlog FILE` reads it and prints
 * the PCR values it replays to.
 *
 * The writer is pure: a measure_list in, bytes out. The reader walks a
 * log given as bytes (outside input: tests/fuzz/fuzz_tpm_evlog.c) and the
 * replay computes the PCRs a log leads to from all-zero PCRs.
 */
#ifndef BM_TPM_EVLOG_H
#define BM_TPM_EVLOG_H

#include <stddef.h>
#include <stdint.h>

#include "tpm/measure.h"

struct arena;

/* evlog_write() flags. */
#define EVLOG_EXTENDED 0x1u /* only the events tpm_measure() extended */

/* The log of @l's events (all of them, or with EVLOG_EXTENDED only those
 * whose rc is 0, so that it replays to what the TPM holds), listing
 * l->banks in its Spec ID event. The bytes are @a's: *out, *len.
 * Returns 0, or -EINVAL for a list without banks. */
int evlog_write(struct arena *a, const struct measure_list *l, unsigned flags,
		uint8_t **out, size_t *len);

#define EVLOG_ALGS_MAX 16 /* banks a log may list; a PC has <= 5 */

/* A log being read: evlog_open(), then evlog_next() until it returns 0. */
struct evlog_reader {
	const uint8_t *p;
	size_t len, off;
	unsigned banks; /* the MEASURE_BANK_* the log lists */
	unsigned n_algs;
	struct {
		uint16_t alg, size;
	} algs[EVLOG_ALGS_MAX];
};

struct evlog_event {
	uint32_t pcr, type;
	struct measure_digests d; /* the digests of the banks we know */
	const uint8_t *data;	  /* the event data, inside the log */
	size_t data_len;
};

/* Reads the Spec ID event at the start of log[0..len) (which must
 * outlive @r). Returns 0, or -EBADMSG for anything but a crypto-agile
 * log (a SHA-1-only log included), or a digest size that differs from
 * the algorithm's. */
int evlog_open(struct evlog_reader *r, const void *log, size_t len);

/* The next event into @ev: 1, 0 at the end, -EBADMSG when the bytes
 * are not a well-formed event with one digest for each listed bank. */
int evlog_next(struct evlog_reader *r, struct evlog_event *ev);

#define EVLOG_PCRS 24

/* What a log replays to. */
struct evlog_pcrs {
	unsigned banks;	  /* the banks we know that the log lists */
	uint32_t touched; /* bit n: PCR n was extended by an event */
	size_t events;	  /* events read, EV_NO_ACTION ones included */
	struct measure_digests pcr[EVLOG_PCRS];
};

/* Replays log[0..len) from all-zero PCRs: each event but EV_NO_ACTION
 * extends its PCR, PCR = H(PCR || digest), in every bank we know.
 * Returns 0, or -EBADMSG (a malformed log, a PCR past 23). */
int evlog_replay(const void *log, size_t len, struct evlog_pcrs *out);

#endif
