/* fs.h - the only door parsers have to a filesystem.
 *
 * A struct fs_root stands for one filesystem (a mount under /run/bootmenu,
 * or a directory given with --root). Every path is resolved inside it:
 * `..`, absolute symlinks and magic links cannot leave the root (openat2
 * RESOLVE_IN_ROOT where the kernel has it, a component walk otherwise).
 * Reads are capped. Nothing here writes.
 */
#ifndef BM_FS_H
#define BM_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct arena;

/* Largest config file a parser may read (a 100 MB grub.cfg is refused). */
#define FS_CONFIG_MAX (4u << 20)
/* Longest path accepted inside a filesystem. */
#define FS_PATH_MAX 1024
/* Most names fs_list() returns for one directory. */
#define FS_LIST_MAX 4096

struct fs_root {
	int root_fd;          /* O_PATH | O_DIRECTORY; owned by the creator */
	const char *name;     /* shown to users: "sda2", or the --root label */
	const char *device;   /* /dev/sda2, or NULL for a directory */
	const char *fstype;   /* "ext4", "vfat", ...; NULL if unknown */
	const char *uuid;     /* filesystem UUID as blkid prints it, or NULL */
	const char *label;    /* filesystem LABEL, or NULL */
	const char *partuuid; /* GPT/MBR partition UUID, or NULL */
	const char *partlabel;
	const char *mountpoint; /* where it is mounted, or the --root dir */
	bool casefold;        /* FAT: look names up case-insensitively */
	bool esp, xbootldr;   /* partition type says ESP / XBOOTLDR */
	void *priv;           /* the scan room's; parsers leave it alone */
};

/* Open @path (absolute or relative to the root; both mean the same) for
 * reading. Returns an fd the caller closes, or -errno (-ELOOP, -EXDEV for
 * an escape attempt that could not be confined, -ENAMETOOLONG, ...).
 * @want_dir selects O_DIRECTORY. */
int fs_open(const struct fs_root *fs, const char *path, bool want_dir);

/* Read the whole regular file @path into a malloc'd buffer (NUL-terminated
 * for convenience; *len excludes the NUL). The caller frees *buf.
 * Returns 0, -EFBIG when larger than @max, -EISDIR, or another -errno. */
int fs_read_file(const struct fs_root *fs, const char *path, size_t max,
		 char **buf, size_t *len);

/* stat() of @path inside the root, following symlinks inside it. */
int fs_stat(const struct fs_root *fs, const char *path, struct stat *st);

/* True when @path exists and is a regular file. */
bool fs_is_file(const struct fs_root *fs, const char *path);

/* Names in directory @dir (no "." or ".."), sorted bytewise, owned by @a.
 * At most FS_LIST_MAX. Returns 0 or -errno. */
int fs_list(const struct fs_root *fs, const char *dir, struct arena *a,
	    char ***names, size_t *count);

/* The path of @path with every symlink resolved inside the root, owned
 * by @a (for /vmlinuz -> boot/vmlinuz-6.1.0-13-amd64). Returns 0 or -errno. */
int fs_realpath(const struct fs_root *fs, const char *path, struct arena *a,
		char **out);

/* Make @fs a directory-backed root (for --root and tests). Returns 0 or
 * -errno; fs_root_close() closes it. Other fields are left as they are. */
int fs_root_open_dir(struct fs_root *fs, const char *dir);
void fs_root_close(struct fs_root *fs);

#endif
