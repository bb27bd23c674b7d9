/* bios.c - the installer's BIOS mode (install_int.h): syslinux as the
 * first stage. The BIOS runs the disk's first 440 bytes, syslinux's
 * mbr.bin (or gptmbr.bin on GPT), which starts the boot sector of the
 * active partition (GPT: the first one marked Legacy BIOS Bootable);
 * `extlinux --install DIR` put its own boot sector there, which loads
 * ldlinux.sys from DIR, which reads DIR/extlinux.conf, whose one entry
 * starts bootmenu.efi as a Linux kernel (it is a bzImage; syslinux's
 * LINUX loads one whatever its name).
 */
#include "install/install_int.h"
#include "util/file.h"
#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIOS_FILE INSTALL_BIOS_DIR "/bootmenu.efi"
#define BIOS_CONF INSTALL_BIOS_DIR "/extlinux.conf"
#define MBR_ACTIVE 0x80
#define GPT_LEGACY_BOOT (1ull << 2) /* UEFI 2.10 table 5.13 */
#define OUT_MAX 2048		    /* what extlinux says, kept */

/* statfs(2)'s f_type of the filesystems extlinux installs on and whose
 * partition the mount names (btrfs, which extlinux can boot from too,
 * gives its files an anonymous device: its partition is not found yet). */
static const long bios_fs_types[] = {
    0xef53,	/* ext2, ext3, ext4 */
    0x4d44,	/* vfat */
    0x58465342, /* xfs */
};
#define BIOS_FS_BTRFS 0x9123683e

/* The kernel's own command line (kernel/bootmenu.config CONFIG_CMDLINE)
 * comes first anyway; APPEND says it again for a kernel built without. */
static const char bios_conf_text[] =
    "# written by bootmenu-install: syslinux starts bootmenu, a Linux\n"
    "# kernel with its menu inside; bootmenu-install --uninstall removes it\n"
    "DEFAULT bootmenu\n"
    "PROMPT 0\n"
    "TIMEOUT 0\n"
    "LABEL bootmenu\n"
    "\tLINUX bootmenu.efi\n"
    "\tAPPEND console=tty0 console=ttyS0,115200\n";

static const char *const extlinux_places[] = {
    "/usr/bin/extlinux", "/usr/sbin/extlinux", "/sbin/extlinux",
    "/bin/extlinux"};

/* --- Checks */

/* BIOS boot code on a machine the firmware started through UEFI is
 * never run by it (unless a CSM boots the disk), so ask to be sure. */
static int bios_firmware(struct inst *in)
{
	const char *efi = in->o->efi_dir ? in->o->efi_dir : "/sys/firmware/efi";
	struct stat st;

	if (in->o->force_bios || stat(efi, &st) < 0)
		return 0;
	return say(in->err, in->errlen, -EOPNOTSUPP,
		   "this machine booted through UEFI, so its firmware would "
		   "not run BIOS boot code from %s: install for UEFI "
		   "(without --bios), or add --force-bios when the disk "
		   "goes to a BIOS machine (or the firmware boots it in "
		   "legacy mode)",
		   in->disk);
}

/* mbr.bin or gptmbr.bin into in->code: exactly the 440 bytes. */
static int bios_code_load(struct inst *in, char *path, size_t cap)
{
	const char *dir =
	    in->o->mbr_dir ? in->o->mbr_dir : INSTALL_SYSLINUX_MBR_DIR;
	uint8_t buf[BIOS_CODE_LEN + 1];
	int fd;
	ssize_t n;

	snprintf(path, cap, "%s/%s", dir, in->gpt ? "gptmbr.bin" : "mbr.bin");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -errno : util_read_full(fd, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	if (n != BIOS_CODE_LEN)
		return say(in->err, in->errlen, n < 0 ? (int)n : -EINVAL,
			   "no syslinux boot code at %s (%s): install "
			   "Debian's syslinux-common package",
			   path,
			   n < 0 ? strerror((int)-n) : "not 440 bytes long");
	memcpy(in->code, buf, BIOS_CODE_LEN);
	return 0;
}

static int bios_find_extlinux(struct inst *in)
{
	size_t n = sizeof(extlinux_places) / sizeof(*extlinux_places);

	for (size_t i = 0; i < n + 1; i++) {
		const char *p = i ? extlinux_places[i - 1] : in->o->extlinux;

		if (!p)
			continue;
		snprintf(in->extlinux, sizeof(in->extlinux), "%s", p);
		if (access(p, X_OK) == 0 || in->o->extlinux)
			break;
		in->extlinux[0] = '\0';
	}
	if (!in->extlinux[0] || access(in->extlinux, X_OK) < 0)
		return say(in->err, in->errlen, -ENOENT,
			   "extlinux was not found%s%s: install Debian's "
			   "extlinux package",
			   in->o->extlinux ? " at " : "",
			   in->o->extlinux ? in->o->extlinux : "");
	return 0;
}

/* The number of the partition @st_dev is, when it is one of DISK's. */
static int bios_sysfs_part(struct inst *in, dev_t dev, uint32_t *num)
{
	char path[128], text[32];
	unsigned maj, min;
	struct stat disk;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
		 major(dev), minor(dev));
	if (util_read_small(AT_FDCWD, path, text, sizeof(text)) < 0)
		return -ENOENT;
	*num = (uint32_t)strtoul(text, NULL, 10);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(dev),
		 minor(dev));
	if (util_read_small(AT_FDCWD, path, text, sizeof(text)) < 0 ||
	    sscanf(text, "%u:%u", &maj, &min) != 2 ||
	    fstat(in->diskfd, &disk) < 0 || !S_ISBLK(disk.st_mode) ||
	    disk.st_rdev != makedev(maj, min))
		return -EXDEV;
	return 0;
}

/* Which partition of DISK holds --boot-dir, and whether extlinux can
 * install on its filesystem. */
static int bios_part(struct inst *in)
{
	struct stat st;
	struct statfs sf;
	bool known = false;

	if (in->o->bios_part) {
		in->bpart = in->o->bios_part;
		return 0;
	}
	if (stat(in->esp, &st) < 0 || statfs(in->esp, &sf) < 0)
		return say(in->err, in->errlen, -errno, "cannot stat %s: %s",
			   in->esp, strerror(errno));
	for (size_t i = 0; i < sizeof(bios_fs_types) / sizeof(long); i++)
		known |= (long)sf.f_type == bios_fs_types[i];
	if ((long)sf.f_type == BIOS_FS_BTRFS)
		return say(in->err, in->errlen, -EOPNOTSUPP,
			   "%s is on btrfs, whose partition bootmenu-install "
			   "cannot find from its mount yet: name the directory "
			   "of a partition with ext2/3/4, vfat or xfs",
			   in->esp);
	if (!known)
		return say(in->err, in->errlen, -EOPNOTSUPP,
			   "%s is on a filesystem extlinux cannot boot from: "
			   "name the directory of a partition with ext2/3/4, "
			   "vfat or xfs (usually /boot)",
			   in->esp);
	if (bios_sysfs_part(in, st.st_dev, &in->bpart) < 0)
		return say(in->err, in->errlen, -EXDEV,
			   "%s is not on a partition of %s (the BIOS starts "
			   "the disk's boot code, which starts a partition "
			   "of the same disk): name the disk it is on",
			   in->esp, in->disk);
	return 0;
}

/* The partition exists in the table, and the boot code can start it. */
static int bios_part_usable(struct inst *in)
{
	uint64_t val;

	if (!in->gpt && in->bpart > 4)
		return say(in->err, in->errlen, -EINVAL,
			   "%s is on partition %u of %s, a logical one: "
			   "syslinux's mbr.bin starts only a primary "
			   "partition (1 to 4); put /boot on one",
			   in->esp, in->bpart, in->disk);
	if (disk_part_get(in, in->bpart, &val) < 0)
		return say(in->err, in->errlen, -ENOENT,
			   "%s has no partition %u in its table", in->disk,
			   in->bpart);
	return 0;
}

/* An earlier install's boot code must still be there to build on. */
static int bios_code_still_ours(struct inst *in, const struct record *r)
{
	uint8_t now[BIOS_CODE_LEN];
	int k = rec_code(r), rc;

	if (k < 0)
		return 0;
	rc = disk_read(in, 0, now, sizeof(now));
	if (rc < 0)
		return say(in->err, in->errlen, rc, "cannot read %s: %s",
			   in->disk, strerror(-rc));
	/* the old bytes: an install cut before it wrote the boot code */
	if (memcmp(now, r->code_ours, sizeof(now)) &&
	    memcmp(now, r->code_old, sizeof(now)))
		return say(in->err, in->errlen, -EBUSY,
			   "the boot code in the first 440 bytes of %s is no "
			   "longer the one bootmenu-install wrote: another "
			   "boot loader was installed since, and putting the "
			   "old bytes back would break it; nothing was "
			   "changed",
			   in->disk);
	return 0;
}

int bios_check(struct inst *in)
{
	char path[PATH_MAX];
	int rc;

	/* the record names it for an uninstall from anywhere */
	if (!realpath(in->o->bios_disk, path) ||
	    strlen(path) >= sizeof(in->disk))
		return say(in->err, in->errlen, -ENOENT,
			   "there is no disk %s: name a whole disk, e.g. "
			   "/dev/sda",
			   in->o->bios_disk);
	memcpy(in->disk, path, strlen(path) + 1);
	rc = bios_firmware(in);
	if (rc == 0)
		rc = disk_open(in, !in->o->print);
	if (rc == 0)
		rc = disk_table(in);
	if (rc == 0)
		rc = bios_code_load(in, path, sizeof(path));
	if (rc == 0)
		rc = bios_find_extlinux(in);
	if (rc == 0)
		rc = bios_part(in);
	if (rc == 0)
		rc = bios_part_usable(in);
	if (rc == 0)
		rc = bios_code_still_ours(in, &in->old);
	if (rc < 0)
		return rc;
	fprintf(in->out, "disk:     %s (%s; boot partition %u)\n", in->disk,
		in->gpt ? "GPT" : "MBR", in->bpart);
	inst_say(in, "code", path, " (syslinux's, for the disk)");
	return 0;
}

/* --- Changes */

/* Run extlinux --install on DIR/bootmenu; its output into @out. */
static int bios_exec(struct inst *in, const char *dir, char *out, size_t cap)
{
	int p[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		return -errno;
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execl(in->extlinux, "extlinux", "--install", dir, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], out + got, cap - 1 - got)) > 0 ||
	       (n < 0 && errno == EINTR))
		got += n > 0 ? (size_t)n : 0;
	out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/* extlinux writes ldlinux.sys (ext, vfat: a file; btrfs, xfs: into the
 * boot area), ldlinux.c32 and the partition's boot sector. */
static int bios_extlinux(struct inst *in)
{
	static const char *const made[] = {INSTALL_BIOS_DIR "/ldlinux.sys",
					   INSTALL_BIOS_DIR "/ldlinux.c32"};
	char dir[PATH_MAX + 16], more[PATH_MAX + 128], out[OUT_MAX];
	bool was[2];
	int rc;

	snprintf(dir, sizeof(dir), "%s/" INSTALL_BIOS_DIR, in->esp);
	snprintf(more, sizeof(more),
		 " --install %s (ldlinux.sys, ldlinux.c32, and the boot "
		 "sector of partition %u)",
		 dir, in->bpart);
	inst_say(in, "run", in->extlinux, more);
	if (in->o->print)
		return 0;
	for (int i = 0; i < 2; i++)
		was[i] = file_exists(in, made[i]);
	rc = bios_exec(in, dir, out, sizeof(out));
	/* what it made goes with an uninstall, and with a rollback too */
	for (int i = 0; i < 2; i++)
		if (!was[i] && file_exists(in, made[i]) &&
		    !rec_has(&in->old, REC_NEW, made[i], 0))
			rec_add(&in->done, REC_NEW, made[i], 0, -1);
	if (rc < 0)
		return say(in->err, in->errlen, rc,
			   "%s --install %s failed: %s", in->extlinux, dir,
			   out[0] ? out : strerror(-rc));
	return 0;
}

/* One partition's flag (MBR) or attributes (GPT) to @want. */
static int bios_flag(struct inst *in, uint32_t num, uint64_t now, uint64_t want)
{
	char what[PATH_MAX + 32], more[160];
	int rc;

	snprintf(what, sizeof(what), "%s partition %u", in->disk, num);
	snprintf(more, sizeof(more), " %s (was 0x%llx, now 0x%llx)",
		 in->gpt ? "attributes, bit 2 legacy BIOS bootable"
			 : "boot indicator, 0x80 active",
		 (unsigned long long)now, (unsigned long long)want);
	inst_say(in, "flag", what, more);
	rc = in->o->print ? 0 : disk_part_set(in, num, want);
	if (rc < 0)
		return say(in->err, in->errlen, rc,
			   "cannot write the partition table of %s: %s",
			   in->disk, strerror(-rc));
	rc = rec_add(&in->done, in->gpt ? REC_ATTR : REC_FLAG, NULL,
		     (uint16_t)num, -1);
	if (rc == 0)
		in->done.it[in->done.n - 1].old = now;
	return rc;
}

/* The boot partition the one the boot code starts: marked, and every
 * other partition unmarked (mbr.bin starts the active one, gptmbr.bin
 * the first with the attribute). */
static int bios_flags(struct inst *in)
{
	uint32_t count = disk_part_count(in);
	uint64_t now, want;
	int rc = 0;

	for (uint32_t i = 1; rc == 0 && i <= count; i++) {
		if (disk_part_get(in, i, &now) < 0)
			continue;
		if (in->gpt)
			want = i == in->bpart ? now | GPT_LEGACY_BOOT
					      : now & ~GPT_LEGACY_BOOT;
		else
			want = i == in->bpart	   ? MBR_ACTIVE
			       : now == MBR_ACTIVE ? 0
						   : now;
		if (want != now)
			rc = bios_flag(in, i, now, want);
	}
	return rc;
}

/* The first 440 bytes: syslinux's. The old ones go into the record and
 * the record onto the disk before they are overwritten: a power cut
 * between the two leaves a record whose old bytes are still in place
 * (bios_code_still_ours() takes that), never overwritten bytes that no
 * record holds. With an earlier record (an install again, or one cut
 * before its boot code was written) its old bytes stay the ones kept. */
static int bios_code(struct inst *in)
{
	uint8_t now[BIOS_CODE_LEN];
	char more[PATH_MAX + 64];
	bool known = rec_code(&in->old) >= 0;
	int rc = disk_read(in, 0, now, sizeof(now));

	if (rc == 0 && !memcmp(now, in->code, sizeof(now))) {
		inst_say(in, "keep", in->disk,
			 known ? " bytes 0..439 (the boot code an earlier "
				 "install wrote)"
			       : " bytes 0..439 (syslinux's)");
		return 0;
	}
	snprintf(more, sizeof(more),
		 " bytes 0..439, the boot code (the old ones kept in %s)",
		 in->rec_path);
	inst_say(in, "code", in->disk, more);
	if (rc == 0 && !known) {
		memcpy(in->done.code_old, now, sizeof(now));
		memcpy(in->done.code_ours, in->code, sizeof(now));
		rc = rec_add(&in->done, REC_CODE, NULL, 0, -1);
		if (rc == 0 && !in->o->print)
			rc = inst_record_ahead(in);
		if (rc < 0)
			return rc;
	}
	if (rc == 0 && !in->o->print)
		rc = disk_write(in, 0, in->code, sizeof(in->code));
	if (rc < 0)
		return say(in->err, in->errlen, rc,
			   "cannot write the boot code to %s: %s", in->disk,
			   strerror(-rc));
	return 0;
}

int bios_apply(struct inst *in)
{
	int rc;

	snprintf(in->done.disk, sizeof(in->done.disk), "%s", in->disk);
	rc = inst_file(in, BIOS_CONF, bios_conf_text,
		       sizeof(bios_conf_text) - 1, "the installer");
	if (rc == 0)
		rc = bios_extlinux(in);
	if (rc == 0)
		rc = bios_flags(in);
	/* the boot code last: until it is written the BIOS starts what it
	 * started before */
	return rc ? rc : bios_code(in);
}

/* --- Taking it back */

int bios_uninstall_check(struct inst *in, const struct record *r)
{
	int rc;

	snprintf(in->disk, sizeof(in->disk), "%s", r->disk);
	if (!r->disk[0])
		return say(in->err, in->errlen, -EINVAL,
			   "the install record %s/%s names no disk", in->esp,
			   in->rec_path);
	rc = disk_open(in, !in->o->print);
	if (rc == 0)
		rc = disk_table(in);
	return rc ? rc : bios_code_still_ours(in, r);
}

int bios_undo(struct inst *in, const struct record *r,
	      const struct rec_item *it)
{
	char what[PATH_MAX + 32], more[64];
	int rc;

	if (it->kind == REC_CODE) {
		inst_say(in, "code", in->disk, " bytes 0..439 as they were");
		rc = in->o->print
			 ? 0
			 : disk_write(in, 0, r->code_old, sizeof(r->code_old));
	} else {
		snprintf(what, sizeof(what), "%s partition %u", in->disk,
			 it->num);
		snprintf(more, sizeof(more), " back to 0x%llx",
			 (unsigned long long)it->old);
		inst_say(in, "flag", what, more);
		rc = in->o->print ? 0 : disk_part_set(in, it->num, it->old);
	}
	if (rc < 0)
		return say(in->err, in->errlen, rc, "cannot write to %s: %s",
			   in->disk, strerror(-rc));
	return 0;
}
