/* unpack.c - compressed kernel files: gzip inflated, the rest refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kexec/unpack.h"
#include "format/inflate.h"

static const struct {
	const char *name;
	const char *magic;
	size_t len;
	const char *how; /* the command that decompresses it */
} formats[] = {
    {"gzip", "\x1f\x8b", 2, "gzip -dk"},
    {"xz",
     "\xfd"
     "7zXZ\0",
     6, "xz -dk"},
    {"zstd", "\x28\xb5\x2f\xfd", 4, "zstd -d"},
    {"bzip2", "BZh", 3, "bzip2 -dk"},
    {"lz4", "\x04\x22\x4d\x18", 4, "lz4 -d"},
    {"lzop", "\x89LZO\0", 5, "lzop -d"},
};

static int format_of(const void *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (len >= formats[i].len &&
		    memcmp(buf, formats[i].magic, formats[i].len) == 0)
			return (int)i;
	return -1;
}

const char *kexec_compression(const void *buf, size_t len)
{
	int f = format_of(buf, len);

	return f < 0 ? NULL : formats[f].name;
}

int kexec_unpack(const struct kexec_blob *in, struct kexec_blob *out,
		 uint8_t **owned, const char **format, char *err, size_t errlen)
{
	int f = format_of(in->buf, in->len);
	size_t len = 0;
	int rc;

	*out = *in;
	*owned = NULL;
	if (format)
		*format = f < 0 ? NULL : formats[f].name;
	if (f < 0)
		return 0;
	if (f > 0) {
		/* x86 kernels carry their own xz/zstd inside the bzImage; a
		 * whole file compressed so is rare, and its decoders large */
		snprintf(err, errlen,
			 "the kernel file is %s-compressed, and "
			 "only gzip is decompressed here: decompress it first "
			 "(%s FILE) and load the result",
			 formats[f].name, formats[f].how);
		return -ENOEXEC;
	}
	rc = inflate_gzip(in->buf, in->len, KEXEC_UNPACK_MAX, owned, &len);
	if (rc) {
		snprintf(err, errlen,
			 "the gzip-compressed kernel cannot be "
			 "decompressed: %s",
			 inflate_strerror(rc));
		return rc == -ENOMEM ? rc : -ENOEXEC;
	}
	*out = (struct kexec_blob){*owned, len};
	return 0;
}
