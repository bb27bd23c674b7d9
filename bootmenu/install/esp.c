/* esp.c - which directory is the ESP, and which partition it is on
 * (install_int.h). An ESP is a vfat filesystem on a GPT partition of type
 * EFI System (UEFI 2.10 section 5.3.3); the firmware names it by that
 * partition's number, start, size and GUID (the HD node, 10.3.5.1), in
 * the disk's logical blocks. */
#include "install/install_int.h"
#include "scan/probe.h"
#include "util/file.h"
#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MOUNTINFO "/proc/self/mountinfo"

/* Where an ESP is mounted, best first (the Boot Loader Specification's
 * and the distributions' places). */
static const char *const esp_places[] = {"/efi", "/boot/efi", "/boot"};

/* The GPT ESP that is block device @maj:@min, into @p: 0, or -ENOENT. */
static int esp_part(unsigned maj, unsigned min, struct install_part *p)
{
	char link[64], target[PATH_MAX], lbs[32], attr[PATH_MAX];
	struct probe_dev d;
	struct probe_result r;
	ssize_t n;
	uint64_t bs = 512;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -ENOENT;
	target[n] = '\0';
	if (probe_sysfs_dev("/sys", "/dev", strrchr(target, '/') + 1,
			    PROBE_SYSFS_LOOP, &d) < 0 ||
	    !d.partno || probe_path(d.devnode, 0, 0, &r) < 0 || !r.esp ||
	    strcmp(r.type, "vfat") || strcmp(r.part_scheme, "gpt"))
		return -ENOENT;
	snprintf(attr, sizeof(attr), "/sys/block/%s/queue/logical_block_size",
		 d.disk);
	if (util_read_small(AT_FDCWD, attr, lbs, sizeof(lbs)) == 0 &&
	    strtoull(lbs, NULL, 10) >= 512)
		bs = strtoull(lbs, NULL, 10);
	*p = (struct install_part){.num = (uint32_t)d.partno,
				   .start = d.start / bs,
				   .size = d.size / bs};
	snprintf(p->partuuid, sizeof(p->partuuid), "%s", r.partuuid);
	snprintf(p->disk, sizeof(p->disk), "/dev/%s", d.disk);
	return 0;
}

/* Whether @dir is the root of a mounted GPT ESP; its partition into @p. */
static bool esp_dir_part(const char *dir, struct install_part *p)
{
	char up[PATH_MAX];
	struct stat st, parent;

	snprintf(up, sizeof(up), "%s/..", dir);
	if (stat(dir, &st) < 0 || stat(up, &parent) < 0)
		return false;
	/* a directory inside the filesystem, not its root */
	if (st.st_dev == parent.st_dev && st.st_ino != parent.st_ino)
		return false;
	return esp_part(major(st.st_dev), minor(st.st_dev), p) == 0;
}

/* The mount point of a vfat mountinfo @line, into @mnt: 0 or -ENOENT.
 * proc(5): ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE ... */
static int esp_mount_line(const char *line, char *mnt, size_t cap)
{
	const char *dash = strstr(line, " - ");
	char point[PATH_MAX];

	if (!dash || strncmp(dash, " - vfat ", 8) ||
	    sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1)
		return -ENOENT;
	/* octal escapes (\040 for a space) are left as they are: such a
	 * mount point is not found, and --esp names it instead */
	snprintf(mnt, cap, "%s", point);
	return 0;
}

/* The best-placed mounted ESP into in->esp. */
static int esp_search(struct inst *in, FILE *f)
{
	char line[8192], mnt[PATH_MAX];
	int best = -1;

	while (fgets(line, sizeof(line), f)) {
		struct install_part p;
		int rank = 3;

		if (esp_mount_line(line, mnt, sizeof(mnt)) < 0 ||
		    !esp_dir_part(mnt, &p))
			continue;
		for (int k = 0; k < 3; k++)
			if (!strcmp(mnt, esp_places[k]))
				rank = k;
		if (best >= 0 && rank >= best)
			continue;
		best = rank;
		snprintf(in->esp, sizeof(in->esp), "%s", mnt);
		in->part = p;
		in->on_part = true;
	}
	return best >= 0 ? 0 : -ENOENT;
}

int esp_find(struct inst *in)
{
	const char *mi = in->o->mountinfo ? in->o->mountinfo : MOUNTINFO;
	FILE *f;
	int rc;

	if (in->o->esp) {
		snprintf(in->esp, sizeof(in->esp), "%s", in->o->esp);
		if (in->o->part) {
			in->part = *in->o->part;
			in->on_part = true;
		} else {
			in->on_part = esp_dir_part(in->esp, &in->part);
		}
		return 0;
	}
	f = fopen(mi, "re");
	rc = f ? esp_search(in, f) : -ENOENT;
	if (f)
		fclose(f);
	if (rc < 0)
		return say(in->err, in->errlen, -ENOENT,
			   "no EFI system partition is mounted (a vfat "
			   "filesystem on a GPT partition of type EFI "
			   "System): mount it, e.g. at /boot/efi, or name "
			   "its directory with --esp");
	return 0;
}
