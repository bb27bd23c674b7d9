/* blob.c - files into one buffer, with progress. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* The whole file from its start (pread: wherever its offset is). */
static int read_all(int fd, char *dst, size_t len, struct kexec_progress *pr)
{
	off_t pos = 0;

	while (len) {
		ssize_t got =
		    pread(fd, dst, len < BLOB_CHUNK ? len : BLOB_CHUNK, pos);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		dst += got;
		pos += got;
		len -= (size_t)got;
		if (pr && pr->fn) {
			pr->done += (unsigned long long)got;
			pr->fn(pr->data, pr->done, pr->total);
		}
	}
	return 0;
}

/* Fresh memory for @len bytes (at least a page), faulted in at once. */
static char *anon_map(size_t len)
{
	void *m = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

static int read_into(const int *fds, size_t n, char *buf,
		     unsigned long long total, struct kexec_progress *pr)
{
	unsigned long long one;
	size_t off = 0;
	int rc;

	for (size_t i = 0; i < n; i++) {
		rc = fd_size(fds[i], &one);
		if (!rc && (one > total || off > total - one))
			rc = -EIO; /* the file grew under us */
		if (!rc)
			rc = read_all(fds[i], buf + off, (size_t)one, pr);
		if (rc)
			return rc;
		off += n > 1 ? (size_t)((one + 3) & ~3ull) : (size_t)one;
		if (pr && pr->fn && n > 1 && (one & 3)) {
			pr->done += 4 - (one & 3); /* the padding counts too */
			pr->fn(pr->data, pr->done, pr->total);
		}
	}
	return 0;
}

int kexec_blob_read(const int *fds, size_t n, struct kexec_progress *pr,
		    struct kexec_blob *out)
{
	unsigned long long total;
	char *buf = NULL;
	int rc;

	out->buf = NULL;
	out->len = 0;
	rc = kexec_blob_size(fds, n, &total);
	if (rc)
		return rc;
	/* read(), not a mapping of the file (blob.h says why; tried with
	 * MADV_POPULATE_READ too: over a pulled stick the 6.1 kernel kept
	 * retrying the dead device for minutes) */
	buf = anon_map((size_t)total);
	if (!buf)
		return -ENOMEM;
	rc = read_into(fds, n, buf, total, pr);
	if (rc) {
		munmap(buf, total ? (size_t)total : 1);
		return rc;
	}
	out->buf = buf;
	out->len = (size_t)total;
	return 0;
}

int kexec_blob_append(struct kexec_blob *b, const void *more, size_t len)
{
	size_t at = b->buf ? (b->len + 3) & ~(size_t)3 : 0;
	char *m;

	if (len > SIZE_MAX - at)
		return -ENOMEM;
	if (!b->buf)
		m = anon_map(len);
	else
		m = mremap((void *)b->buf, b->len ? b->len : 1, at + len,
			   MREMAP_MAYMOVE);
	if (!m || m == MAP_FAILED)
		return -ENOMEM;
	memset(m + b->len, 0, at - b->len);
	memcpy(m + at, more, len);
	b->buf = m;
	b->len = at + len;
	return 0;
}

void kexec_blob_free(struct kexec_blob *b)
{
	if (b->buf)
		munmap((void *)b->buf, b->len ? b->len : 1);
	b->buf = NULL;
	b->len = 0;
}
