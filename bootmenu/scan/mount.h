/* mount.h - read-only mounts that never write to the disk.
 *
 * Every mount is MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC with the
 * options that stop a journal replay; the block device itself can be set
 * read-only first (BLKROSET), so no filesystem driver can write to it.
 * No allocation; all functions are thread-safe.
 */
#ifndef BM_MOUNT_H
#define BM_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

#define MOUNT_BASE "/run/bootmenu"
#define MOUNT_DETAIL_MAX 128

/* True when @fstype (blkid's TYPE) is one mount_fs() knows how to mount. */
bool mount_supported(const char *fstype);

/* The option strings mount_fs() tries for @fstype, in order (NULL-ended),
 * and the kernel filesystem names it tries them with. NULL for an
 * unsupported type. For the tests and the device list. */
const char *const *mount_options(const char *fstype);
const char *const *mount_kernel_types(const char *fstype);

/* Mount @devnode (of blkid type @fstype) read-only at @target, creating
 * the directory. With @set_ro, the block device is made read-only with
 * BLKROSET first. Falls back through the type's option list only when
 * the kernel refuses an option or a type (EINVAL, ENODEV). Returns 0 or
 * -errno; @detail (MOUNT_DETAIL_MAX bytes) says what was tried. */
int mount_fs(const char *devnode, const char *fstype, const char *target,
	     bool set_ro, char *detail);

/* The directory inside the mounted @mnt_fd a distribution's root is in:
 * "" for the top, or for btrfs without /boot at the top the first of the
 * common subvolume layouts ("@", "@rootfs", "root") that has a boot
 * directory. @out holds MOUNT_DETAIL_MAX bytes. */
void mount_pick_root(int mnt_fd, const char *fstype, char *out);

/* Unmount @target: a plain unmount, lazy (MNT_DETACH) when busy or when
 * @lazy; then remove the directory. Returns 0 or -errno. */
int mount_release(const char *target, bool lazy);

/* Lazily unmount whatever is mounted below @base (a previous bootmenu's
 * mounts, when init respawned it). Returns how many, or -errno. */
int mount_cleanup(const char *base);

#endif
