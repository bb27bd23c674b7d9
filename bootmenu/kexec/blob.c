/* blob.c - files into one buffer, with progress. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kexec/blob.h"

#define BLOB_CHUNK (1u << 20) /* progress granularity */

static int fd_size(int fd, unsigned long long *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	*size = (unsigned long long)st.st_size;
	return 0;
}

int kexec_blob_size(const int *fds, size_t n, unsigned long long *size)
{
	unsigned long long total = 0, one;

	for (size_t i = 0; i < n; i++) {
		int rc = fd_size(fds[i], &one);

		if (rc)
			return rc;
		if (one > KEXEC_BLOB_MAX)
			return -EFBIG;
		total += n > 1 ? (one + 3) & ~3ull : one;
	}
	if (total > KEXEC_BLOB_MAX)
		return -EFBIG;
	*size = total;
	return 0;
}

static int read_all(int fd, char *dst, size_t len, struct kexec_progress *pr)
{
	while (len) {
		ssize_t got = read(fd, dst, len < BLOB_CHUNK ? len : BLOB_CHUNK);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		dst += got;
		len -= (size_t)got;
		if (pr && pr->fn) {
			pr->done += (unsigned long long)got;
			pr->fn(pr->data, pr->done, pr->total);
		}
	}
	return 0;
}

int kexec_blob_read(const int *fds, size_t n, struct kexec_progress *pr,
		    struct kexec_blob *out)
{
	unsigned long long total, one;
	size_t off = 0;
	char *buf;
	int rc;

	out->buf = NULL;
	out->len = 0;
	rc = kexec_blob_size(fds, n, &total);
	if (rc)
		return rc;
	buf = calloc(1, total ? (size_t)total : 1);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rc = fd_size(fds[i], &one);
		if (!rc && (one > total || off > total - one))
			rc = -EIO; /* the file grew under us */
		if (!rc)
			rc = read_all(fds[i], buf + off, (size_t)one, pr);
		if (rc)
			goto err_read;
		off += n > 1 ? (size_t)((one + 3) & ~3ull) : (size_t)one;
		if (pr && pr->fn && n > 1 && (one & 3)) {
			pr->done += 4 - (one & 3); /* the padding counts too */
			pr->fn(pr->data, pr->done, pr->total);
		}
	}
	out->buf = buf;
	out->len = (size_t)total;
	return 0;

err_read:
	free(buf);
	return rc;
}
