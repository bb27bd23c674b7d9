/* fuzz_inflate.c - any bytes as a raw deflate stream and as a gzip file
 * (format/inflate), with the output capped at 1 MiB. Each must return a
 * known result, keep within its cap and say how much input it took. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "format/inflate.h"

#define CAP (1u << 20)

static int known(int rc)
{
	return rc == 0 || rc == -EINVAL || rc == -ENODATA || rc == -EFBIG ||
	       rc == -ENOEXEC || rc == -EBADMSG;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *out = NULL;
	size_t olen = 0, used = 0;
	int rc;

	rc = inflate_raw(data, size, CAP, &out, &olen, &used);
	if (!known(rc) || rc == -ENOEXEC || rc == -EBADMSG ||
	    (rc == 0 && (olen > CAP || used > size || !out)) ||
	    (rc != 0 && out))
		abort();
	free(out);
	out = NULL;
	rc = inflate_gzip(data, size, CAP, &out, &olen);
	if (!known(rc) || (rc == 0 && (olen > CAP || !out)) || (rc != 0 && out))
		abort();
	/* a success is checked: its CRC-32 matched, so olen bytes are real */
	free(out);
	return 0;
}
