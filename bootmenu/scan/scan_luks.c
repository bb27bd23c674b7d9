/* scan_luks.c - LUKS devices in the scan: the header read by the
 * device's job (pread() only, never written), and what it means for the
 * record: locked with its facts, failed with luks_read()'s sentence, or
 * left alone when the kernel already uses the device (its own dm-crypt,
 * outside bootmenu). Opening one is scan_unlock.c's. Calls scan_vol.c
 * only (the holders rule the volumes use); scan_record.c sets the state
 * this file says.
 */
#include "scan/scan_int.h"
#include "util/file.h"
#include "vol/luks.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define MEMINFO "/proc/meminfo"

/* The header of the open device @fd of @size bytes into j->luks_*. */
static void job_read_hdr(struct scan_job *j, int fd, uint64_t size)
{
	struct luks_hdr *h = calloc(1, sizeof(*h));

	if (!h) {
		j->luks_rc = -ENOMEM;
		snprintf(j->luks_why, sizeof(j->luks_why),
			 "out of memory for its LUKS header");
		return;
	}
	j->luks_rc = luks_read(luks_fd_read, &fd, size, h, j->luks_why,
			       sizeof(j->luks_why));
	if (j->luks_rc == 0) {
		j->luks_version = h->version;
		snprintf(j->luks_uuid, sizeof(j->luks_uuid), "%s", h->uuid);
		snprintf(j->luks_label, sizeof(j->luks_label), "%s", h->label);
	}
	luks_free(h);
	free(h);
}

void scan_luks_job_read(struct scan_job *j)
{
	char holder[NAME_MAX + 1];
	uint64_t size = j->dev_size;
	int fd;

	j->luks = true;
	if (scan_vol_holder(j->holders, holder, sizeof(holder)) == 0) {
		j->luks_rc = -EBUSY;
		snprintf(j->luks_why, sizeof(j->luks_why), "in use by %.60s",
			 holder);
		return;
	}
	fd = open(j->devnode, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		j->luks_rc = -errno;
		snprintf(j->luks_why, sizeof(j->luks_why),
			 "cannot be opened: %s", strerror(errno));
		return;
	}
	if (!size) {
		off_t end = lseek(fd, 0, SEEK_END);

		size = end > 0 ? (uint64_t)end : 0;
	}
	job_read_hdr(j, fd, size);
	close(fd);
}

void scan_luks_reason(int version, const char *label, char *out, size_t len)
{
	if (label && label[0])
		snprintf(out, len, "LUKS%d '%s'", version, label);
	else
		snprintf(out, len, "LUKS%d", version);
}

bool scan_luks_take(struct scan *s, struct scan_rec *r,
		    const struct scan_job *j, enum scan_state *st, char *why,
		    size_t len)
{
	if (!j->luks)
		return false;
	snprintf(why, len, "%s", j->luks_why);
	if (j->luks_rc < 0) {
		*st = j->luks_rc == -EBUSY ? SCAN_DEV_SKIPPED : SCAN_DEV_FAILED;
		return true;
	}
	r->pub.luks_version = j->luks_version;
	r->pub.luks_uuid = scan_str(s, j->luks_uuid);
	r->pub.luks_label = scan_str(s, j->luks_label);
	scan_luks_reason(j->luks_version, j->luks_label, why, len);
	*st = SCAN_DEV_LOCKED;
	return true;
}

uint64_t scan_luks_mem_max_kib(void)
{
	uint64_t kib = util_meminfo_read_kib(MEMINFO, "MemAvailable:");
	struct sysinfo si;

	if (!kib && sysinfo(&si) == 0)
		kib = (uint64_t)si.freeram * si.mem_unit / 1024;
	return kib / 2;
}
