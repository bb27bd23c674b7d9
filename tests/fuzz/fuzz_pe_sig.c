/* fuzz_pe_sig.c - the certificate-table and signer reader on any bytes,
 * both as a whole PE file and as a bare table (so the DER reader is
 * reached without the headers). Names must stay NUL-terminated in their
 * buffers; the error sentence too, even in a one-byte buffer. */
#include "format/pe_sig.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check(int rc, const struct pe_sig_info *info, const char *err,
		  size_t errlen)
{
	if (rc == 0) {
		for (unsigned i = 0; i < info->count && i < PE_SIG_MAX; i++)
			if (!memchr(info->signer[i].subject, '\0',
				    PE_SIG_NAME_MAX) ||
			    !memchr(info->signer[i].issuer, '\0',
				    PE_SIG_NAME_MAX))
				abort();
	}
	if (errlen && !memchr(err, '\0', errlen))
		abort();
	if (rc != 0 && rc != -ENOENT && rc != -ENOEXEC && rc != -EINVAL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pe_sig_info info;
	char err[128], tiny[1];
	size_t off, len;
	int rc;

	rc = pe_sig_read(data, size, &info, err, sizeof(err));
	check(rc, &info, err, sizeof(err));
	if (pe_sig_locate(data, size, &off, &len) == 0 && off <= size &&
	    len <= size - off) {
		rc = pe_sig_parse_table(data + off, len, &info, tiny, 1);
		check(rc, &info, tiny, 1);
	}
	rc = pe_sig_parse_table(data, size, &info, NULL, 0);
	check(rc, &info, NULL, 0);
	return 0;
}
