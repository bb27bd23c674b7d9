/* file.c - small files read whole. */
#include "util/file.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

/* read() (@at false) or pread() from @off until @cap bytes, EOF or an
 * error other than EINTR. */
static ssize_t read_loop(int fd, void *buf, size_t cap, bool at, uint64_t off)
{
	size_t got = 0;

	while (got < cap) {
		char *p = (char *)buf + got;
		ssize_t n = at ? pread(fd, p, cap - got, (off_t)(off + got))
			       : read(fd, p, cap - got);

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

ssize_t util_read_full(int fd, void *buf, size_t cap)
{
	return read_loop(fd, buf, cap, false, 0);
}

ssize_t util_pread_full(int fd, void *buf, size_t cap, uint64_t off)
{
	return read_loop(fd, buf, cap, true, off);
}

uint64_t util_meminfo_kib(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && strncmp(p, key, n)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || !n)
		return 0;
	p += n;
	while (*p == ' ')
		p++;
	return *p >= '0' && *p <= '9' ? strtoull(p, NULL, 10) : 0;
}

uint64_t util_meminfo_read_kib(const char *path, const char *key)
{
	char text[4096];

	if (util_read_small(AT_FDCWD, path, text, sizeof(text)))
		return 0;
	return util_meminfo_kib(text, key);
}
