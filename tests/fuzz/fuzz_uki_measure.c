/* fuzz_uki_measure.c - systemd-stub 252's PCR 11 events (its own PE
 * section walk, tpm/uki_measure.c) and the PCR 12 form on any bytes.
 * What it reports must hold: nothing appended on an error, two PCR 11
 * events per measured section with the UTF-16 name as their data; one
 * PCR 12 event at most, an even number of bytes ending in a NUL unit. */
#include "tpm/measure.h"
#include "tpm/uki_measure.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void pcr11(const uint8_t *data, size_t size)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	int rc;

	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	uki_stub_version(data, size);
	rc = uki_measure_pcr11(&l, data, size);
	if (rc && l.n)
		abort();
	if (!rc && (l.n < 2 || l.n % 2 || l.n > 14))
		abort();
	for (size_t i = 0; i < l.n; i++)
		if (l.ev[i].pcr != 11 || l.ev[i].log_len > 18 ||
		    l.ev[i].log_len != l.ev[i ^ 1].log_len)
			abort();
	arena_free(&a);
}

static void pcr12(const uint8_t *data, size_t size)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	char *line = malloc(size + 1);
	const uint8_t *log;

	if (!line)
		return;
	memcpy(line, data, size);
	line[size] = '\0';
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	if (uki_measure_pcr12(&l, line) || l.n > 1)
		abort();
	if (l.n) {
		log = l.ev[0].log;
		if (l.ev[0].pcr != 12 || l.ev[0].log_len < 2 ||
		    l.ev[0].log_len % 2 || l.ev[0].log_len > 2 * (size + 1) ||
		    log[l.ev[0].log_len - 1] || log[l.ev[0].log_len - 2])
			abort();
	}
	free(line);
	arena_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pcr11(data, size);
	pcr12(data, size);
	return 0;
}
