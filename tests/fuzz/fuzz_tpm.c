/* fuzz_tpm.c - the TPM response parsers (tpm/cmd.h) on any bytes: a TPM
 * is outside input too. What a parser accepts must be what it says:
 * only banks we know, only a response as long as its header says. */
#include "tpm/cmd.h"
#include "tpm/measure.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t rc = 0;
	unsigned banks = 0, other = 0;
	uint8_t out[MEASURE_DIGEST_MAX + 1];
	size_t n = 0;

	if (tpm_rsp_size(data, size, &n) == 0 && n < TPM_HEADER_LEN)
		abort();
	if (tpm_rsp_code(data, size, &rc) == -EREMOTEIO && rc == 0)
		abort();
	if (tpm_rsp_get_pcrs(data, size, &rc, &banks, &other) == 0 &&
	    (banks & ~MEASURE_BANKS_ALL || other > 16 || rc))
		abort();
	tpm_rsp_pcr_extend(data, size, &rc);
	for (unsigned pcr = 0; pcr < TPM_PCR_COUNT; pcr += 7)
		for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
			out[measure_bank_size(b)] = 0xa5;
			if (tpm_rsp_pcr_read(data, size, &rc, pcr, b, out) ==
				0 &&
			    out[measure_bank_size(b)] != 0xa5)
				abort();
		}
	return 0;
}
