/* fuzz_tftp.c - a TFTP server's answer to our tsize question. */
#include "net/tftp.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long t = 0;
	const char *why = NULL;
	int rc = net_tftp_answer(data, size, &t, &why);

	if (rc != 1 && rc != 0 && rc != -ENOENT && rc != -EACCES &&
	    rc != -EIO && rc != -EINVAL)
		abort();
	if (rc < 0 && !why)
		abort();
	return 0;
}
