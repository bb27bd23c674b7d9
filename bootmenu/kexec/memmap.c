/* memmap.c - read /sys/firmware/memmap or /proc/iomem into e820 ranges. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kexec/memmap.h"
#include "util/file.h"

#define SYS_MEMMAP "/sys/firmware/memmap"
#define PROC_IOMEM "/proc/iomem"

static const struct {
	const char *name;
	uint32_t type;
} e820_names[] = {
    {"System RAM", E820_RAM},
    {"Reserved", E820_RESERVED},
    {"reserved", E820_RESERVED},
    {"ACPI Tables", E820_ACPI},
    {"ACPI Non-volatile Storage", E820_NVS},
    {"Unusable memory", E820_UNUSABLE},
    {"Persistent Memory (legacy)", E820_PRAM},
    {"Persistent Memory", E820_PMEM},
    {"Soft Reserved", E820_SOFT_RESERVED},
};

uint32_t kexec_e820_type(const char *name)
{
	for (size_t i = 0; i < sizeof(e820_names) / sizeof(e820_names[0]); i++)
		if (strcmp(name, e820_names[i].name) == 0)
			return e820_names[i].type;
	return E820_RESERVED;
}

void kexec_memmap_free(struct kexec_memmap *m)
{
	free(m->r);
	m->r = NULL;
	m->n = 0;
}

static int memmap_add(struct kexec_memmap *m, uint64_t start, uint64_t last,
		      uint32_t type)
{
	struct kexec_range *r;

	if (m->n >= KEXEC_MEMMAP_MAX)
		return -E2BIG;
	if (last < start || last == UINT64_MAX)
		return -EINVAL;
	r = realloc(m->r, (m->n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	m->r = r;
	m->r[m->n++] = (struct kexec_range){start, last + 1, type};
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct kexec_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* One small sysfs file into buf, without its newline. */
static int read_line(int dirfd, const char *name, char *buf, size_t len)
{
	int rc = util_read_small(dirfd, name, buf, len);

	if (!rc)
		buf[strcspn(buf, "\n")] = '\0';
	return rc;
}

static int sysfs_entry(int dfd, const char *name, struct kexec_memmap *m)
{
	char s[32], e[32], t[64], *end1, *end2;
	uint64_t start, last;
	int fd, rc;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = read_line(fd, "start", s, sizeof(s));
	if (!rc)
		rc = read_line(fd, "end", e, sizeof(e));
	if (!rc)
		rc = read_line(fd, "type", t, sizeof(t));
	close(fd);
	if (rc)
		return rc;
	start = strtoull(s, &end1, 16);
	last = strtoull(e, &end2, 16);
	if (end1 == s || end2 == e || *end1 || *end2)
		return -EINVAL;
	return memmap_add(m, start, last, kexec_e820_type(t));
}

static int read_sysfs(const char *dir, struct kexec_memmap *m)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return -errno;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		rc = sysfs_entry(dirfd(d), de->d_name, m);
	}
	closedir(d);
	return rc;
}

/* "00100000-7ffdffff : System RAM"; nested lines start with spaces. */
static int iomem_line(const char *line, uint64_t *start, uint64_t *last,
		      const char **name)
{
	char *p;

	*start = strtoull(line, &p, 16);
	if (p == line || *p != '-')
		return -EINVAL;
	line = p + 1;
	*last = strtoull(line, &p, 16);
	if (p == line || strncmp(p, " : ", 3) != 0)
		return -EINVAL;
	*name = p + 3;
	return 0;
}

/* @want NULL: every top-level line; else nested lines named @want. */
static int read_iomem(const char *path, const char *want,
		      struct kexec_memmap *m)
{
	FILE *f = fopen(path, "re");
	char line[256];
	int rc = 0;

	if (!f)
		return -errno;
	while (!rc && fgets(line, sizeof(line), f)) {
		const char *p = line, *name;
		uint64_t start, last;

		line[strcspn(line, "\n")] = '\0';
		p += strspn(p, " ");
		if ((want == NULL) != (p == line))
			continue;
		if (iomem_line(p, &start, &last, &name) < 0)
			continue;
		if (want && strcmp(name, want) != 0)
			continue;
		rc = memmap_add(m, start, last,
				want ? E820_RAM : kexec_e820_type(name));
	}
	fclose(f);
	return rc;
}

static bool memmap_all_zero(const struct kexec_memmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->r[i].start || m->r[i].end != 1)
			return false;
	return true;
}

static int read_path(const char *path, struct kexec_memmap *m)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? read_sysfs(path, m)
				   : read_iomem(path, NULL, m);
}

int kexec_memmap_read(const char *path, struct kexec_memmap *m, char *err,
		      size_t errlen)
{
	const char *used = path ? path : SYS_MEMMAP;
	int rc;

	m->r = NULL;
	m->n = 0;
	rc = read_path(used, m);
	if (!path && (rc < 0 || m->n == 0)) {
		kexec_memmap_free(m);
		used = PROC_IOMEM;
		rc = read_path(used, m);
	}
	if (!rc && m->n && memmap_all_zero(m))
		rc = -EPERM; /* not -EACCES: that is a file we may not read */
	if (!rc && m->n == 0)
		rc = -ENOENT;
	if (rc < 0) {
		kexec_memmap_free(m);
		snprintf(err, errlen, "cannot read the memory map from %s: %s",
			 used,
			 rc == -EPERM	 ? "its addresses are hidden "
					   "(not root)"
			 : rc == -E2BIG	 ? "too many ranges"
			 : rc == -ENOENT ? "no ranges"
					 : strerror(-rc));
		return rc;
	}
	if (m->n)
		qsort(m->r, m->n, sizeof(m->r[0]), range_cmp);
	return 0;
}

int kexec_memmap_read_crash(const char *path, struct kexec_memmap *m)
{
	int rc;

	m->r = NULL;
	m->n = 0;
	rc = read_iomem(path ? path : PROC_IOMEM, "Crash kernel", m);
	if (rc < 0) {
		kexec_memmap_free(m);
		return rc;
	}
	if (m->n)
		qsort(m->r, m->n, sizeof(m->r[0]), range_cmp);
	return 0;
}
