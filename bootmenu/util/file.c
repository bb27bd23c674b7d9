/* file.c - small files read whole. */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int util_read_small(int dirfd, const char *path, char *buf, size_t cap)
{
	size_t got = 0;
	ssize_t n = 1;
	int fd, rc = 0;

	if (!cap)
		return -EINVAL;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* a read may return less than asked before the end (procfs) */
	while (got < cap - 1 && n > 0) {
		n = read(fd, buf + got, cap - 1 - got);
		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno == EINTR)
			n = 1;
		else if (n < 0)
			rc = -errno;
	}
	close(fd);
	buf[got] = '\0';
	return rc;
}

ssize_t util_read_full(int fd, void *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

ssize_t util_pread_full(int fd, void *buf, size_t cap, uint64_t off)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t n =
		    pread(fd, (char *)buf + got, cap - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}
