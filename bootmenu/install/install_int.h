/* install_int.h - the install room's parts, shared between its files.
 *
 * install.c checks and runs; record.c keeps the list of changes (in
 * memory and in the record file) and takes them back; file.c is the only
 * code that writes to the ESP; nvram.c reads and writes the Boot####
 * and BootOrder variables through the efi room; esp.c finds the ESP and
 * the partition it is on; shim.c reads a --shim and its helpers and
 * plans the shim layout's files.
 */
#ifndef BM_INSTALL_INT_H
#define BM_INSTALL_INT_H

#include "install/install.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REC_MAX 32	 /* changes one record holds */
#define REC_PATH_MAX 256 /* a path on the ESP, relative to its root */
#define ORDER_MAX 4096	 /* BootOrder numbers handled */
#define PUT_MAX 8	 /* files one install writes or keeps aside */

/* One change made, in the order made; undone in the reverse order. */
enum rec_kind {
	REC_DIR,    /* made directory @path */
	REC_NEW,    /* wrote file @path, which did not exist */
	REC_BACKUP, /* kept the old @path as @path.bootmenu-old, then wrote */
	REC_BOOT,   /* made Boot@num */
	REC_ORDER,  /* put @num in BootOrder; @pos was its place (-1: none) */
	REC_CODE,   /* wrote the disk's boot code (struct record's bytes) */
	REC_FLAG,   /* MBR entry @num's boot indicator was @old */
	REC_ATTR,   /* GPT entry @num's attributes were @old */
};

#define BIOS_CODE_LEN 440 /* the MBR's boot code, before the signature */

struct rec_item {
	enum rec_kind kind;
	char path[REC_PATH_MAX];
	uint16_t num;
	int pos;
	uint64_t old;
};

struct record {
	struct rec_item it[REC_MAX];
	size_t n;
	/* BIOS: the disk (an absolute path), and for REC_CODE the boot code
	 * that was there and the one written */
	char disk[REC_PATH_MAX];
	uint8_t code_old[BIOS_CODE_LEN], code_ours[BIOS_CODE_LEN];
};

/* A file read whole from the running system (the image, the shim). */
struct inst_blob {
	char path[PATH_MAX];
	uint8_t *data; /* malloc'd; NULL: not read (absent) */
	size_t len;
};

/* One file an install writes: @from's bytes to @path (relative to the
 * ESP) in directory @dir. With @from NULL the file already at @path is
 * only kept aside (as @path.bootmenu-old) and nothing is written, for
 * the reason @why. */
struct inst_put {
	const char *dir;
	char path[REC_PATH_MAX];
	const struct inst_blob *from;
	const char *why;
};

/* The shim layout's files beside the shim: MokManager, fallback. */
enum { SHIM_MM, SHIM_FB, SHIM_HELPERS };

/* One run's state. */
struct inst {
	const struct install_opts *o;
	char *err;
	size_t errlen;
	FILE *out;
	int espfd; /* the ESP's root directory */
	char esp[PATH_MAX];
	bool on_part; /* @part names the ESP's partition */
	struct install_part part;
	bool nvram; /* variables are read and written */
	struct efi_vars vars;
	char vars_dir[PATH_MAX];
	struct inst_blob img; /* the image */
	bool sb;	      /* Secure Boot is on */
	/* the shim layout (o->shim): the shim and the helpers found beside
	 * it; what the Boot#### starts (INSTALL_FILE or INSTALL_SHIM), and
	 * its number once known (-1: none) */
	struct inst_blob shim, helper[SHIM_HELPERS];
	const char *loader;
	int boot_num;
	struct inst_put put[PUT_MAX]; /* the files, in the order written */
	size_t n_put;
	struct record old;  /* the record on the ESP, when there was one */
	struct record done; /* this run's changes */
	bool rec_ahead;	    /* the record was written before the end */
	/* BIOS mode: the ESP fields above are the --boot-dir instead */
	bool bios;
	const char *rec_path; /* INSTALL_RECORD or INSTALL_BIOS_RECORD */
	int diskfd;
	char disk[REC_PATH_MAX];
	unsigned sector; /* the disk's logical block size */
	bool gpt;
	uint32_t bpart; /* the boot partition's number */
	char extlinux[PATH_MAX];
	uint8_t code[BIOS_CODE_LEN]; /* mbr.bin or gptmbr.bin */
};

/* --- record.c */

/* Whether @r holds a change of @kind to @path (REC_DIR/NEW/BACKUP) or
 * @num (REC_BOOT/ORDER). */
bool rec_has(const struct record *r, enum rec_kind kind, const char *path,
	     uint16_t num);
/* Append a change to @r: 0, or -E2BIG. */
int rec_add(struct record *r, enum rec_kind kind, const char *path,
	    uint16_t num, int pos);
/* The index of @r's REC_CODE change, or -1. */
int rec_code(const struct record *r);
/* The record file's text of @a then @b into buf[0..cap): its length, or
 * -ENOSPC. */
int rec_format(const struct record *a, const struct record *b, char *buf,
	       size_t cap);
/* Parse the record text buf[0..len) into @r: 0, or -EINVAL with a
 * sentence naming the line. */
int rec_parse(const char *buf, size_t len, struct record *r, char *err,
	      size_t errlen);
/* How the changes the record holds but does not make itself are taken
 * back: EFI variables (REC_BOOT, REC_ORDER) and the disk's boot code
 * and flags (REC_CODE, REC_FLAG, REC_ATTR). The writers own these
 * steps; install.c hands them to rec_undo() as a table, so the record
 * calls nothing of theirs by name. */
struct rec_undo_steps {
	int (*var)(struct inst *in, const struct rec_item *it);
	int (*disk)(struct inst *in, const struct record *r,
		    const struct rec_item *it);
};
/* Take back the changes of @r, last first (directories last of all,
 * after @then_unlink, when given, is removed), printing each: files
 * here, the rest through @steps. 0, or the first failure's -errno with a
 * sentence (the rest is not tried). */
int rec_undo(struct inst *in, const struct record *r, const char *then_unlink,
	     const struct rec_undo_steps *steps);

/* --- install.c, for bios.c and shim.c */

/* Read the file @path (@what names it in a sentence) into @b: 0, or
 * -errno with a sentence (-EINVAL: not a file of a sensible size). */
int inst_read(struct inst *in, const char *path, const char *what,
	      struct inst_blob *b);
/* Add a file to in->put (@from NULL: keep the old one aside for @why). */
void inst_put(struct inst *in, const char *dir, const char *path,
	      const struct inst_blob *from, const char *why);

/* Make @dir (relative to the ESP) and each missing one above it, listed
 * and recorded. 0, or -errno with a sentence. */
int inst_dirs(struct inst *in, const char *dir);
/* Write the record (the earlier one and this run's changes) now, ahead
 * of a change it must already name when a power cut comes (bios.c's boot
 * code); a rollback then puts the earlier record back. 0, or -errno with
 * a sentence. */
int inst_record_ahead(struct inst *in);
/* Write buf[0..len) to @path, the old file kept aside unless an earlier
 * install wrote it; @from says what it is in the list. Recorded. */
int inst_file(struct inst *in, const char *path, const void *buf, size_t len,
	      const char *from);

/* --- shim.c */

/* Read o->shim and the helpers beside it and check them (nothing
 * changed): 0, or -errno with a sentence. Each is listed. */
int shim_check(struct inst *in);
/* The shim layout's files into in->put, in the order written. */
void shim_plan(struct inst *in);
/* The layout of the record's install is the other one than this run's:
 * 0, or -EEXIST with a sentence. */
int shim_same_layout(struct inst *in);
/* The line after an install with a shim: the image's key must be a
 * Machine Owner Key first (more strongly with --default). */
void shim_note(struct inst *in);
/* Under Secure Boot without --shim: a line naming a distribution's
 * signed shim when one is installed. */
void shim_hint(struct inst *in);

/* --- file.c: the only writes to the ESP */

/* Print "@verb: @path@more" as the list of changes has it. */
void inst_say(struct inst *in, const char *verb, const char *path,
	      const char *more);
/* Write buf[0..len) to @path (relative to the ESP) through a temporary
 * file, fsync and rename; with @keep, the old @path is renamed to @keep
 * just before. 0, or -errno with a sentence (nothing changed). */
int file_put(struct inst *in, const char *path, const char *keep,
	     const void *buf, size_t len);
/* Read the small file @path on the ESP into buf[0..cap - 1) and a NUL:
 * its length, or -errno (-EFBIG when it does not fit). */
ssize_t file_get(struct inst *in, const char *path, char *buf, size_t cap);
/* Whether @path exists on the ESP. */
bool file_exists(struct inst *in, const char *path);
/* mkdir, rename, unlink and rmdir on the ESP: 0 or -errno (unlink
 * clears the immutable flag extlinux puts on ldlinux.sys first). */
int file_mkdir(struct inst *in, const char *path);
int file_rename(struct inst *in, const char *from, const char *to);
int file_unlink(struct inst *in, const char *path);
int file_rmdir(struct inst *in, const char *path);
/* Whether @need bytes fit on the ESP, and it can be written: 0, or
 * -EROFS, -EACCES, -ENOSPC with a sentence. */
int file_room(struct inst *in, uint64_t need);

/* --- nvram.c */

/* The Boot#### "bootmenu" for in->loader on in->part: one already
 * pointing at it is reused; else the lowest free number is made (its
 * number into in->boot_num). Then BootOrder. Prints each variable,
 * writes unless --print, adds to in->done. */
int nvram_install(struct inst *in);
/* Undo one REC_BOOT or REC_ORDER change. */
int nvram_undo(struct inst *in, const struct rec_item *it);
/* The efivarfs directory, once the machine is known to run UEFI: 0, or
 * -EOPNOTSUPP with a sentence. */
int nvram_begin(struct inst *in);

/* --- esp.c */

/* The ESP: o->esp, or the mounted one (/efi, /boot/efi, /boot first);
 * into in->esp, and in->part/in->on_part when it is the root of a
 * mounted GPT ESP. 0, or -ENOENT with a sentence. */
int esp_find(struct inst *in);

/* --- bios.c */

/* The BIOS install's checks (nothing changed): the firmware, the disk,
 * its table, mbr.bin, extlinux, the boot partition. 0, or -errno with a
 * sentence. */
int bios_check(struct inst *in);
/* The BIOS install's changes after the image: extlinux.conf, extlinux,
 * the partition's flag, the boot code. Each printed, recorded. */
int bios_apply(struct inst *in);
/* Before an uninstall of @r: open its disk and check the boot code is
 * still ours. 0, or -EBUSY (another loader since) with a sentence. */
int bios_uninstall_check(struct inst *in, const struct record *r);
/* Undo one REC_CODE, REC_FLAG or REC_ATTR change of @r. */
int bios_undo(struct inst *in, const struct record *r,
	      const struct rec_item *it);

/* --- disk.c: the only reads and writes of a disk */

/* Open in->disk (read-write unless --print): a whole disk or a regular
 * file. 0, or -ENOTBLK (a partition, or not a disk) with a sentence. */
int disk_open(struct inst *in, bool write);
/* Read or write buf[0..len) at byte @off of the disk; a write is
 * fsync'd. 0 or -errno (-EIO for a short transfer). */
int disk_read(struct inst *in, uint64_t off, void *buf, size_t len);
int disk_write(struct inst *in, uint64_t off, const void *buf, size_t len);
/* Check the disk's table: 0x55AA, and for a protective MBR both GPT
 * headers and their entries (signature, CRCs). Sets in->gpt. 0, or
 * -EINVAL with a sentence. */
int disk_table(struct inst *in);
/* Partition @num's MBR boot indicator, or GPT attributes, into @val:
 * 0, or -ENOENT when no such partition is in the table. */
int disk_part_get(struct inst *in, uint32_t num, uint64_t *val);
/* Set them (in both GPT copies, CRCs fixed): 0 or -errno. */
int disk_part_set(struct inst *in, uint32_t num, uint64_t val);
/* How many entries the table has (4 for an MBR). */
uint32_t disk_part_count(struct inst *in);

#endif
