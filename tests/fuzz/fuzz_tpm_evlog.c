/* fuzz_tpm_evlog.c - the TCG event log reader and replay (tpm/evlog.h) on
 * any bytes. A log that reads to its end, written again from the events
 * read (tpm/evlog.c's writer), must replay to the same PCRs. */
#include "tpm/evlog.h"
#include "tpm/measure.h"
#include "util/arena.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void round_trip(const uint8_t *data, size_t size,
		       const struct evlog_pcrs *want)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct evlog_reader r;
	struct evlog_event ev;
	struct evlog_pcrs got;
	uint8_t *log;
	size_t len;

	if (evlog_open(&r, data, size))
		abort();
	measure_list_init(&l, &a, r.banks);
	while (evlog_next(&r, &ev) == 1)
		if (!measure_add_digests(&l, ev.pcr, ev.type, &ev.d, ev.data,
					 ev.data_len, NULL))
			abort();
	if (evlog_write(&a, &l, 0, &log, &len) == 0) {
		if (evlog_replay(log, len, &got) || got.banks != want->banks ||
		    got.touched != want->touched ||
		    got.events != want->events ||
		    memcmp(got.pcr, want->pcr, sizeof(got.pcr)))
			abort();
	} else if (r.banks) {
		abort();
	}
	arena_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evlog_pcrs p;
	int rc = evlog_replay(data, size, &p);

	if (rc != 0 && rc != -EBADMSG)
		abort();
	if (rc == 0 && (p.banks & ~MEASURE_BANKS_ALL))
		abort();
	if (rc == 0)
		round_trip(data, size, &p);
	return 0;
}
