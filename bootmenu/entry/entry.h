/* entry.h - the boot entry model shared by every config format.
 *
 * A parser turns one filesystem's configs into a struct entry_list; the
 * scan collects lists of every filesystem; cfg_finish() (cfg/resolve.h)
 * resolves files on other filesystems, entry_finish() removes duplicates
 * and keeps one default per filesystem. Filesystems are only pointers
 * here (scan/fs.h owns what they are). All
 * memory belongs to the arena of the scan.
 */
#ifndef BM_ENTRY_H
#define BM_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct fs_root;

enum entry_format {
	FMT_GRUB,
	FMT_SYSLINUX,
	FMT_BLS,
	FMT_UKI,
	FMT_LILO,
	FMT_BARE,
	FMT_EFI, /* an EFI loader on an ESP, booted by the firmware */
	FMT_IPXE /* an iPXE script */
};

/* "grub", "syslinux", "bls", "uki", "lilo", "bare", "efi", "ipxe" */
const char *entry_format_name(enum entry_format f);

/* A file an entry needs. @dev names the filesystem when it is not the one
 * the config came from: "UUID=...", "LABEL=...", "PARTUUID=...",
 * "PARTLABEL=...", or a device path "/dev/sda1"; NULL means the config's
 * own filesystem. @fs is filled by cfg_finish() (NULL: not found yet). */
struct entry_file {
	const char *dev;
	const char *path; /* absolute within its filesystem */
	const struct fs_root *fs;
};

/* How an entry boots. The boot room dispatches on it (boot.h). */
enum entry_method {
	ENTRY_KEXEC,	/* kernel, initrds, command line: kexec */
	ENTRY_FIRMWARE, /* kernel.path on an ESP, once by BootNext */
	ENTRY_UNLOCK,	/* not a boot: a locked LUKS device (@unlock_dev)
			 * the menu offers to open; never a default */
};

struct entry {
	struct entry *next;
	enum entry_method method;
	const char *id; /* stable: format-specific id, unique per fs */
	const char *title;
	const char *group; /* submenu path "Advanced options>...", or NULL */
	enum entry_format format;
	const struct fs_root *fs; /* the filesystem the config is on */
	struct entry_file kernel; /* for a UKI: the .efi file itself */
	struct entry_file *initrds;
	size_t n_initrds;
	bool initrds_over;   /* named more than ENTRY_INITRD_MAX: disabled */
	const char *cmdline; /* "" when none */
	const char *devicetree;
	const char *arch;    /* BLS architecture, or NULL */
	const char *version; /* kernel version, when known */
	const char *source;  /* config file, absolute within @fs */
	int line;	     /* 1-based line of the entry in @source */
	bool is_default; /* its config names it as its filesystem's default */
	int fallback;	 /* grub `fallback`: 1 for the first, ...; 0 none */
	const char *disabled; /* why it cannot be booted, or NULL */
	/* BLS ordering and boot counting */
	const char *sort_key, *machine_id;
	int tries_left, tries_done; /* -1 when the name has no counter */
	/* lilo.conf's access rules, for the menu's password check */
	bool password, restricted, mandatory;
	/* files a multiboot kernel (Xen) loads as modules: the dom0 kernel
	 * counts as named, so no bare entry repeats it (entry_finish) */
	struct entry_file *modules;
	size_t n_modules;
	int multiboot; /* 1 or 2: @kernel is a multiboot kernel (Xen) and
			* @cmdline its string as it is given it */
	/* in @modules' order: each module's string as its kernel is given
	 * it (GRUB's: the words after the file; mboot.c32's: the file and
	 * its words), and GRUB's --nounzip (kept compressed); NULL: none */
	const char **module_args;
	const bool *module_nounzip;
	/* ENTRY_FIRMWARE: the firmware's setup screen (OsIndications), no
	 * file */
	bool fw_setup;
	/* ENTRY_FIRMWARE: one of the firmware's own boot options, Boot@fw_num
	 * (BootNext names it as it is); @kernel is its file when that is on
	 * a filesystem bootmenu reads, else empty */
	bool fw_option;
	uint16_t fw_num;
	/* ENTRY_UNLOCK: the scan's name of the locked device ("vda3"), its
	 * LUKS UUID and LUKS2 label ("" when none), for unlock_at_start */
	const char *unlock_dev, *unlock_uuid, *unlock_label;
};

struct warning {
	struct warning *next;
	const char *file; /* absolute within the filesystem */
	int line;	  /* 0 when not tied to a line */
	const char *msg;  /* ends in " (N times)" when it repeated */
	const struct fs_root *fs;
	unsigned count; /* how many times it was given: 1, or more */
	size_t msg_len; /* the message's length without " (N times)" */
};

/* What parsing one filesystem (or all of them) produced. */
struct entry_list {
	struct arena *a;
	struct entry *head, **tail;
	size_t count;
	struct warning *warnings, **wtail;
	size_t n_warnings;
	int timeout_ds; /* the config's timeout in tenths of a second, -1 unset
			 */
	/* A list merged from several filesystems' parses (the session's):
	 * each one's timeout_ds, in the order of the filesystems, for
	 * choose_timeout() to decide between; NULL and 0 otherwise. */
	const int *fs_timeout_ds;
	size_t n_fs_timeout_ds;
	/* the last 8 warnings entry_warn() added, a ring it looks in for a
	 * repeat: a repeat costs a bounded search and no memory */
	struct warning *recent[8];
	unsigned n_recent;
};

/* Start an empty list whose memory comes from @a. */
void entry_list_init(struct entry_list *l, struct arena *a);
/* A zeroed entry (tries_* = -1, cmdline "") owned by l->a, not yet added. */
struct entry *entry_new(struct entry_list *l, enum entry_format f,
			const struct fs_root *fs);
/* Append @e; returns -E2BIG past ENTRY_MAX entries (e is dropped). */
int entry_add(struct entry_list *l, struct entry *e);
/* Most initrds one entry may name (GRUB's `initrd a b c ...`, syslinux's
 * initrd=a,b,c): the ones past it are not kept, and entry_finish()
 * disables the entry. Each add copies the array, so this also bounds that
 * cost. */
#define ENTRY_INITRD_MAX 32

/* Add an initrd to @e (copied into the arena). */
void entry_add_initrd(struct entry_list *l, struct entry *e, const char *dev,
		      const char *path);
/* Record a warning with its file and line (printf-style message). The
 * same message for the same file and filesystem as one of the last few
 * warnings is not added again: that one counts it and ends in
 * " (N times)". */
void entry_warn(struct entry_list *l, const struct fs_root *fs,
		const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Move every entry and warning of @from to the end of @to. */
void entry_list_splice(struct entry_list *to, struct entry_list *from);

/* Most entries one scan keeps; more are dropped with a warning. */
#define ENTRY_MAX 20000

/* Where bootmenu-install --bios puts bootmenu (under the boot
 * directory): an entry booting a kernel there is bootmenu itself. */
#define ENTRY_SELF_SUFFIX "/bootmenu/bootmenu.efi"

/* Finish a list whose files are resolved (cfg/resolve.h cfg_finish()):
 * drop entries of format FMT_BARE whose kernel an entry of another format
 * already boots or loads as a module, drop a kexec entry whose kernel is
 * ENTRY_SELF_SUFFIX (bootmenu), and keep the first is_default of each
 * filesystem (later ones are cleared): which one boots is the policy's
 * (choose.h). */
void entry_finish(struct entry_list *l);

#endif
