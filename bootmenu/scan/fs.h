/* fs.h - the only door parsers have to a filesystem.
 *
 * A struct fs_root stands for one filesystem (a mount under /run/bootmenu,
 * or a directory given with --root). Every path is resolved inside it:
 * `..`, absolute symlinks and magic links cannot leave the root (openat2
 * RESOLVE_IN_ROOT where the kernel has it, a component walk otherwise).
 * Reads are capped. Nothing here writes. Every function is safe to call
 * from several threads at once, for different or the same roots.
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
/* Most symlinks followed while resolving one path (as the kernel's 40). */
#define FS_LINKS_MAX 40
/* Deepest directory nesting the component walk follows. */
#define FS_WALK_DEPTH 64
/* Most subvolumes of one btrfs filesystem that are named (struct
 * fs_btrfs). The scan lists them in order of their ids and stops here: a
 * file in a subvolume past the cap (made later) is named by the nearest
 * named subvolume above it, or none, with its path from there, so where
 * it is stays right and only the name is the outer one. */
#define FS_SUBVOL_MAX 256

struct fs_root;

/* What a long read reports: @fn gets the bytes so far and the total (0
 * when not known yet) and returns nonzero to cancel the transfer. */
struct fs_progress {
	int (*fn)(void *data, const char *path, unsigned long long done,
		  unsigned long long total);
	void *data;
	/* when not NULL: why the fetch failed, in the backend's words */
	char *why;
	size_t why_len;
};

/* The backend seam. A filesystem whose files are not in a local directory
 * (a network root that fetches a file when it is opened; an in-memory
 * tree in the tests) brings its own operations, each keeping the contract
 * of the fs_ function of its name below: the same limits, the same
 * -errno. Parsers cannot tell the difference. fs_read_file() reads
 * through open(), so its size cap holds for every backend. */
struct fs_ops {
	int (*open)(const struct fs_root *fs, const char *path, bool want_dir);
	int (*stat)(const struct fs_root *fs, const char *path,
		    struct stat *st);
	int (*list)(const struct fs_root *fs, const char *dir, struct arena *a,
		    char ***names, size_t *count);
	int (*realpath)(const struct fs_root *fs, const char *path,
			struct arena *a, char **out);
	/* Optional: bring @path near before it is opened (a network root
	 * fetches it), calling @cb as bytes come (see fs_prefetch()). */
	int (*prefetch)(const struct fs_root *fs, const char *path,
			const struct fs_progress *cb);
	/* Optional: why @path gave @rc, in the backend's words (see
	 * fs_strerror()), into buf[0..len); its length, 0 when none. */
	size_t (*why)(const struct fs_root *fs, const char *path, int rc,
		      char *buf, size_t len);
};

/* A btrfs filesystem seen two ways. Parsers are handed @home: the
 * distribution's root (the default subvolume, or "@"/"@rootfs"/"root" in
 * it), as before. GRUB reads btrfs from the top level (subvolume id 5,
 * grub-core/fs/btrfs.c get_root()), so grub paths resolve in @top, a
 * second fs_root of the same filesystem that is in no list of roots.
 * @top's name is home's with ":top" after it. Paths are inside the top
 * level, without a leading '/'. @subvols says which subvolume a file is
 * in (fs_subvol()), for --list: the scan asks the kernel for them, --root
 * is told with subvol= (source/dirs.c). */
struct fs_btrfs {
	struct fs_root *top; /* owned with @home; closed with it */
	const struct fs_root *home;
	const char *home_path;	  /* home's directory in top: "@", "" */
	const char *default_path; /* the default subvolume's */
	/* the subvolumes, the default first unless it is the top level; at
	 * most FS_SUBVOL_MAX, none empty */
	const char *const *subvols;
	size_t n_subvols;
};

/* A network root (net/remote.c): the files of a TFTP or HTTP server,
 * fetched when opened. The source found which config the server has for
 * this client, the way the network loader named by DHCP would (pxelinux,
 * GRUB, an iPXE script); cfg_scan_fs() runs that one parser on it and no
 * other, since a server cannot be searched or listed. */
enum fs_net_loader { FS_NET_NONE, FS_NET_PXELINUX, FS_NET_GRUB, FS_NET_IPXE };

/* A variable a network config may read (iPXE's ${name}): the lease's
 * values, set by the network source (net/search.h). */
struct ipxe_var {
	const char *name;
	const char *value;
};

struct fs_net {
	enum fs_net_loader loader;
	const char *config; /* the config's path on the server, or NULL */
	const char *prefix; /* pxelinux's path prefix, GRUB's $prefix */
	const char *why;    /* no config: why, a sentence for the menu */
	/* the lease as iPXE names it, for ${...} in an iPXE script */
	const struct ipxe_var *vars;
	size_t n_vars;
};

struct fs_root {
	/* NULL: a directory at root_fd (a mount, or --root) */
	const struct fs_ops *ops;
	int root_fd;	      /* O_PATH | O_DIRECTORY; owned by the creator */
	const char *name;     /* shown to users: "sda2", or the --root label */
	const char *device;   /* /dev/sda2, or NULL for a directory */
	const char *fstype;   /* "ext4", "vfat", ...; NULL if unknown */
	const char *uuid;     /* filesystem UUID as blkid prints it, or NULL */
	const char *label;    /* filesystem LABEL, or NULL */
	const char *partuuid; /* GPT/MBR partition UUID, or NULL */
	const char *partlabel;
	const char *mountpoint; /* where it is mounted, or the --root dir */
	bool casefold;		/* FAT: look names up case-insensitively */
	bool esp, xbootldr;	/* partition type says ESP / XBOOTLDR */
	/* the partition's number, first sector and size, in 512-byte
	 * sectors as sysfs counts them; 0 when unknown (--root) */
	unsigned partno;
	unsigned long long part_start, part_size;
	bool removable; /* removable or USB media: last in the default rule */
	/* an LVM logical volume or md mirror the scan mapped read-only from
	 * its member devices: nothing may write to it */
	bool volume;
	const struct fs_btrfs *btrfs; /* btrfs with its top level, or NULL */
	const struct fs_net *net;     /* a network root, or NULL */
	void *priv; /* the scan room's; parsers leave it alone */
};

/* Open @path (absolute or relative to the root; both mean the same) for
 * reading: a regular file, or with @want_dir a directory. Returns an fd
 * the caller closes, or -errno: -ENOENT, -ELOOP, -ENAMETOOLONG, -EISDIR
 * (a directory without @want_dir), -ENOTDIR, -EINVAL (a FIFO, socket or
 * device node: never opened, so a FIFO cannot block the menu). With
 * fs->casefold, a name that does not exist as spelled is looked up
 * case-insensitively (ASCII), for FAT trees copied to other filesystems. */
int fs_open(const struct fs_root *fs, const char *path, bool want_dir);

/* For a backend that fetches files (a network root): fetch @path now,
 * reporting to @cb (may be NULL), so that fs_open() after it does not
 * wait. 0 at once for a local root. Returns 0, -ECANCELED when @cb asked
 * to stop, or the -errno fs_open() would give. */
int fs_prefetch(const struct fs_root *fs, const char *path,
		const struct fs_progress *cb);

/* Why @path could not be read, for a parser's warning: @rc (a -errno an
 * fs_ function gave for it) in the backend's words when it has them (a
 * network root: "the TFTP server 10.0.2.99 does not answer", or that the
 * file is still being fetched, for -EINPROGRESS), written into
 * buf[0..len); else strerror(-@rc). Returns the text (@buf or a
 * static string). */
const char *fs_strerror(const struct fs_root *fs, const char *path, int rc,
			char *buf, size_t len);

/* Read the whole regular file @path into a malloc'd buffer (NUL-terminated
 * for convenience; *len excludes the NUL). The caller frees *buf.
 * Returns 0, -EFBIG when larger than @max, -EISDIR, or another -errno. */
int fs_read_file(const struct fs_root *fs, const char *path, size_t max,
		 char **buf, size_t *len);

/* stat() of @path inside the root, following symlinks inside it. Works
 * for every file type (nothing is opened for reading). */
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
 * -errno; fs_root_close() closes it (and a btrfs top level made with
 * fs_root_add_btrfs()). Other fields are left as they are. */
int fs_root_open_dir(struct fs_root *fs, const char *dir);
void fs_root_close(struct fs_root *fs);

/* Make @home (open, its identities set) the view of a btrfs filesystem
 * whose top level is the directory @top_fd (O_PATH; owned by @home from
 * here on, even on failure): @home_path and @default_path are directories
 * inside it, @subvols[0..n_subvols) the paths of its subvolumes (the
 * default is added when missing; leading and trailing '/' dropped, empty
 * paths and those past FS_SUBVOL_MAX left out). Everything is allocated in @a.
 * Returns 0 or -errno. */
int fs_root_add_btrfs(struct fs_root *home, struct arena *a, int top_fd,
		      const char *home_path, const char *default_path,
		      const char *const *subvols, size_t n_subvols);

/* The length of the longest of @subvols[0..n) that is @path or a leading
 * part of it ending where a component ends ("@/.snap" is not in
 * "@/.snapshots/1"); 0 when none is. Paths from a btrfs top level, without
 * a leading '/'. Pure. */
size_t fs_subvol_prefix(const char *const *subvols, size_t n, const char *path);

/* Where @path of a btrfs view (@fs->btrfs set: its home or its top) is
 * on the filesystem: its path from the top level (without a leading '/',
 * "//" or "." components) in buf[0..size), and in *@sub the length of the
 * subvolume's path at its start (fs_subvol_prefix(); 0: in no subvolume
 * named). buf[*sub] is then '/' or the end. Returns 0, -EINVAL (not
 * btrfs, or ".." in @path: which directory that is, only resolving
 * says), -ENAMETOOLONG. */
int fs_subvol(const struct fs_root *fs, const char *path, char *buf,
	      size_t size, size_t *sub);

/* The resolvers behind fs_open(), for the scan room and the tests.
 * FS_RESOLVE_AUTO is openat2 when the kernel has it, else the walk;
 * FS_RESOLVE_OPENAT2 fails with -ENOSYS where the kernel lacks it. */
enum fs_resolver { FS_RESOLVE_AUTO, FS_RESOLVE_OPENAT2, FS_RESOLVE_WALK };

/* Resolve @path inside @fs with @how and open it with open(2) @flags
 * (O_PATH allowed; O_CLOEXEC and O_NOCTTY are added). No file type check:
 * that is fs_open()'s. Returns an fd or -errno. */
int fs_open_how(const struct fs_root *fs, const char *path, int flags,
		enum fs_resolver how);

/* True when the running kernel has openat2 (cached after the first call). */
bool fs_have_openat2(void);

/* True when @fs answers to @spec ("UUID=...", "LABEL=...", "PARTUUID=",
 * "PARTLABEL=", a device path or name). UUIDs compare without case. */
bool fs_matches(const char *spec, const struct fs_root *fs);

/* Find a filesystem by a "UUID=..."-style spec; NULL when none matches. */
const struct fs_root *fs_find(const char *spec,
			      const struct fs_root *const *fss, size_t n_fss);

#endif
