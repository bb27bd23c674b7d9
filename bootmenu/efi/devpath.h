/* devpath.h - EFI device paths (UEFI 2.10 section 10.3): decoded, shown,
 * built.
 *
 * A device path is a packed list of nodes, each a 4-byte header (type,
 * subtype, UINT16 length of the whole node) and its data. The nodes
 * firmware uses for disks are decoded: Hard Drive (Media 4/1: partition
 * number, start and size in logical blocks, signature), File path (Media
 * 4/4: a UTF-16 path with backslashes) and End (0x7f/0xff the whole path,
 * 0x7f/0x01 one instance). Every other node is kept as it is (type,
 * subtype, bytes). A FilePathList may hold several device paths one after
 * another, each closed by an End node; the first says where the loader is.
 *
 * Nothing here reads a file or firmware: bytes in, a struct in an arena
 * out, and back.
 */
#ifndef BM_EFI_DEVPATH_H
#define BM_EFI_DEVPATH_H

#include "efi/guid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct arena;

#define EFI_DP_HDR 4 /* type, subtype, UINT16 length */
#define EFI_DP_MEDIA 0x04
#define EFI_DP_MEDIA_HD 0x01
#define EFI_DP_MEDIA_FILE 0x04
#define EFI_DP_END 0x7f
#define EFI_DP_END_INSTANCE 0x01
#define EFI_DP_END_ENTIRE 0xff
#define EFI_DP_HD_LEN 42 /* the whole HD node, header included */

/* HD's PartitionFormat and SignatureType (10.3.5.1). */
#define EFI_HD_FORMAT_MBR 0x01
#define EFI_HD_FORMAT_GPT 0x02
#define EFI_HD_SIG_NONE 0x00
#define EFI_HD_SIG_MBR 0x01 /* a 32-bit disk signature in sig[0..4) */
#define EFI_HD_SIG_GUID 0x02

#define EFI_DP_NODES_MAX 256 /* nodes of one decoded list */
#define EFI_DP_PATH_MAX 1024 /* a File path as UTF-8, NUL included */

enum efi_dp_kind {
	EFI_DP_OPAQUE, /* any node not below, or one of them malformed */
	EFI_DP_HD,
	EFI_DP_FILE,
	EFI_DP_END_PATH,	/* 0x7f/0xff: closes one device path */
	EFI_DP_END_OF_INSTANCE, /* 0x7f/0x01 */
};

struct efi_hd {
	uint32_t part;	  /* partition number, 1 for the first */
	uint64_t start;	  /* first logical block */
	uint64_t size;	  /* in logical blocks */
	uint8_t sig[16];  /* GPT: the partition's GUID; MBR: sig[0..4) */
	uint8_t format;	  /* EFI_HD_FORMAT_* */
	uint8_t sig_type; /* EFI_HD_SIG_* */
};

struct efi_dp_node {
	enum efi_dp_kind kind;
	uint8_t type, subtype;
	const uint8_t *data; /* the bytes after the header, in the arena */
	size_t len;	     /* of @data */
	struct efi_hd hd;    /* EFI_DP_HD */
	const char *file;    /* EFI_DP_FILE: UTF-8, as written ('\') */
};

struct efi_devpath {
	struct efi_dp_node *nodes; /* in the arena */
	size_t n;
};

/* Decode the device path list buf[0..len): every node, in order, until
 * the end of the buffer, which must fall right after an End (0x7f/0xff)
 * node. A node's bytes are copied into @a, so @buf may go away. A node
 * shorter than its 4-byte header, or reaching past @len, fails the whole
 * list; an HD or File node of the wrong size or with a bad UTF-16 path is
 * kept as EFI_DP_OPAQUE. Returns 0 and fills @out (owned by @a), or
 * -EINVAL (a bad node length, empty, not closed by an End node), -E2BIG
 * (more than EFI_DP_NODES_MAX nodes). */
int efi_dp_decode(struct arena *a, const uint8_t *buf, size_t len,
		  struct efi_devpath *out);

/* @dp as text into out[0..len), the UEFI text forms (section 10.6) for the
 * nodes decoded, e.g. "HD(1,GPT,<PARTUUID>,0x800,0x100000)/File(\EFI\x.efi)";
 * an MBR signature prints as 0x%08x; other nodes as "Path(T,S,HEX)" (type
 * and subtype in decimal, the data in hex); ',' closes an instance, '|'
 * separates the device paths of a list. Always NUL-terminated. Returns 0,
 * or -ENOSPC when the text was cut to fit. */
int efi_dp_format(const struct efi_devpath *dp, char *out, size_t len);

/* Where the first device path of @dp points: its first HD node, and the
 * File nodes right after it joined into one path (a '\' put between two
 * when neither has one) into file[0..len) ("" when there are none).
 * Returns the HD node (inside @dp), or NULL when the first device path
 * has none or the path does not fit in @len. */
const struct efi_hd *efi_dp_target(const struct efi_devpath *dp, char *file,
				   size_t len);

/* --- Building a device path for a new load option. Each put function
 * appends one node at buf[*off], moving *off past it; @buf may be NULL to
 * measure (then only *off moves). 0, or -ENOSPC (nothing written),
 * -EINVAL. */

/* An HD node from @hd. */
int efi_dp_put_hd(uint8_t *buf, size_t cap, size_t *off,
		  const struct efi_hd *hd);
/* A File node for @path (UTF-8): '/' written as '\', a leading '\' added
 * when missing. -EINVAL for an empty path or one that is not UTF-8,
 * -ENAMETOOLONG past EFI_DP_PATH_MAX. */
int efi_dp_put_file(uint8_t *buf, size_t cap, size_t *off, const char *path);
/* An End node of @subtype (EFI_DP_END_ENTIRE or EFI_DP_END_INSTANCE). */
int efi_dp_put_end(uint8_t *buf, size_t cap, size_t *off, uint8_t subtype);
/* HD(@hd)/File(@path)/End, the device path efibootmgr writes for a loader
 * on a partition, into buf[0..cap) (NULL to measure). Returns its length,
 * or a put function's -errno. */
ssize_t efi_dp_encode_hd_file(const struct efi_hd *hd, const char *path,
			      uint8_t *buf, size_t cap);

/* @hd for a GPT partition: number @part, @start and @size in logical
 * blocks, its PARTUUID text @partuuid as the signature. 0, or -EINVAL
 * when @partuuid is not a GUID. */
int efi_hd_gpt(struct efi_hd *hd, uint32_t part, uint64_t start, uint64_t size,
	       const char *partuuid);

#endif
