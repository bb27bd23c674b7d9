/* multiboot.c - the multiboot2 and multiboot headers, and where a
 * multiboot kernel's bytes go. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kexec/multiboot.h"
#include "util/le.h"
#include "util/say.h"

#define FOUR_G (1ull << 32)

/* multiboot2 spec 3.1.5: the boot information types bootmenu can give;
 * EFI64 (12) and the RSDP (14, 15) only where the machine has them, so
 * a kernel requiring them is checked again when the plan is built. */
static bool mb2_info_known(uint32_t type)
{
	switch (type) {
	case MB2_TAG_END:
	case MB2_TAG_CMDLINE:
	case MB2_TAG_LOADER:
	case MB2_TAG_MODULE:
	case MB2_TAG_MEMINFO:
	case MB2_TAG_MMAP:
	case MB2_TAG_FRAMEBUFFER:
	case MB2_TAG_EFI64:
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
	case MB2_TAG_LOAD_BASE:
		return true;
	}
	return false;
}

static int mb2_info_req(const void *buf, size_t len, size_t at, uint32_t size,
			bool optional, struct kexec_mb_header *h, char *err,
			size_t errlen)
{
	for (uint32_t k = 8; k + 4 <= size; k += 4) {
		uint32_t t = 0;

		get_le32(buf, len, at + k, &t);
		if (t < 32)
			h->ask |= 1u << t;
		if (optional)
			continue;
		if (!mb2_info_known(t))
			return say(err, errlen, -ENOEXEC,
				   "the multiboot2 kernel requires boot "
				   "information of type %u, which bootmenu "
				   "does not give",
				   t);
		h->want |= 1u << t;
	}
	return 0;
}

static int mb2_refuse(uint16_t type, char *err, size_t errlen)
{
	const char *what =
	    type == MB2_HT_EFI_BS ? "EFI boot services, which "
				    "are gone after a kexec"
	    : type == MB2_HT_ENTRY_EFI32 || type == MB2_HT_ENTRY_EFI64
		? "an EFI entry, which needs EFI boot services"
		: NULL;

	if (what)
		return say(err, errlen, -ENOEXEC,
			   "the multiboot2 kernel requires %s", what);
	return say(err, errlen, -ENOEXEC,
		   "the multiboot2 kernel requires header tag %u, which "
		   "bootmenu does not know",
		   type);
}

/* One header tag at @at (multiboot2 spec 3.1.3: u16 type, u16 flags with
 * bit 0 "optional", u32 size). */
static int mb2_tag(const void *buf, size_t len, size_t at, uint16_t type,
		   uint16_t flags, uint32_t size, struct kexec_mb_header *h,
		   char *err, size_t errlen)
{
	bool optional = flags & 1;

	switch (type) {
	case MB2_HT_INFO_REQ:
		return mb2_info_req(buf, len, at, size, optional, h, err,
				    errlen);
	case MB2_HT_ADDRESS:
		if (size < 24)
			break;
		h->have_addr = true;
		get_le32(buf, len, at + 8, &h->header_addr);
		get_le32(buf, len, at + 12, &h->load_addr);
		get_le32(buf, len, at + 16, &h->load_end_addr);
		get_le32(buf, len, at + 20, &h->bss_end_addr);
		return 0;
	case MB2_HT_ENTRY:
		if (size < 12)
			break;
		h->have_entry = true;
		get_le32(buf, len, at + 8, &h->entry_addr);
		return 0;
	case MB2_HT_MODALIGN:
		h->mod_align = true;
		return 0;
	case MB2_HT_FRAMEBUFFER: /* the mode stays: the plan decides */
		h->want_fb |= !optional;
		return 0;
	case MB2_HT_ENTRY_EFI32:
	case MB2_HT_ENTRY_EFI64:
		h->efi_entry = true;
		return optional ? 0 : mb2_refuse(type, err, errlen);
	case MB2_HT_CONSOLE:	 /* the console stays as it is (text) */
	case MB2_HT_RELOCATABLE: /* loaded where linked: the spec allows */
		return 0;
	default:
		return optional ? 0 : mb2_refuse(type, err, errlen);
	}
	return say(err, errlen, -ENOEXEC,
		   "the multiboot2 header's tag %u is too short (%u bytes)",
		   type, size);
}

static int mb2_tags(const void *buf, size_t len, struct kexec_mb_header *h,
		    uint32_t hlen, char *err, size_t errlen)
{
	size_t at = h->off + 16, end = h->off + hlen;

	while (at < end && end - at >= 8) {
		uint16_t type = 0, flags = 0;
		uint32_t size = 0;
		int rc;

		get_le16(buf, len, at, &type);
		get_le16(buf, len, at + 2, &flags);
		get_le32(buf, len, at + 4, &size);
		if (type == MB2_HT_END)
			return 0;
		if (size < 8 || size > end - at)
			break;
		rc = mb2_tag(buf, len, at, type, flags, size, h, err, errlen);
		if (rc)
			return rc;
		at += ((size_t)size + 7) & ~(size_t)7; /* spec 3.1.3 */
	}
	return say(err, errlen, -ENOEXEC, "%s",
		   "the multiboot2 header's tags are malformed or have no "
		   "end tag");
}

/* multiboot2 spec 3.1.1: magic, architecture (0: i386), header_length,
 * checksum, 64-bit aligned in the first 32768 bytes. */
static int mb2_find(const void *buf, size_t len, struct kexec_mb_header *h,
		    char *err, size_t errlen)
{
	size_t lim = len < MB2_SEARCH ? len : MB2_SEARCH;

	for (size_t at = 0; at + 16 <= lim; at += 8) {
		uint32_t magic = 0, arch = 0, hlen = 0, sum = 0;

		get_le32(buf, len, at, &magic);
		if (magic != MB2_HEADER_MAGIC)
			continue;
		get_le32(buf, len, at + 4, &arch);
		get_le32(buf, len, at + 8, &hlen);
		get_le32(buf, len, at + 12, &sum);
		if (magic + arch + hlen + sum != 0)
			continue;
		if (arch != 0)
			return say(err, errlen, -ENOEXEC,
				   "the multiboot2 kernel is for architecture "
				   "%u, not i386",
				   arch);
		if (hlen < 24 || hlen > len - at)
			return say(err, errlen, -ENOEXEC,
				   "the multiboot2 header is truncated (%u "
				   "bytes)",
				   hlen);
		h->version = 2;
		h->off = at;
		return mb2_tags(buf, len, h, hlen, err, errlen);
	}
	return -ENOENT;
}

/* multiboot spec 3.1.1: magic, flags, checksum, 32-bit aligned in the
 * first 8192 bytes; flags 0-15 are requirements; bit 16 adds the address
 * fields. */
static int mb1_find(const void *buf, size_t len, struct kexec_mb_header *h,
		    char *err, size_t errlen)
{
	size_t lim = len < MB1_SEARCH ? len : MB1_SEARCH;
	uint32_t magic = 0, flags = 0, sum = 0;

	for (size_t at = 0; at + 12 <= lim; at += 4) {
		get_le32(buf, len, at, &magic);
		get_le32(buf, len, at + 4, &flags);
		get_le32(buf, len, at + 8, &sum);
		if (magic != MB1_HEADER_MAGIC || magic + flags + sum != 0)
			continue;
		h->version = 1;
		h->off = at;
		h->flags = flags;
		/* 0: page-aligned modules, 1: memory info, 2: video (the
		 * text console stays) */
		if (flags & 0xfff8u)
			return say(err, errlen, -ENOEXEC,
				   "the multiboot kernel requires features "
				   "bootmenu does not know (flags 0x%x)",
				   flags);
		if (!(flags & (1u << 16)))
			return 0;
		if (get_le32(buf, len, at + 12, &h->header_addr) ||
		    get_le32(buf, len, at + 16, &h->load_addr) ||
		    get_le32(buf, len, at + 20, &h->load_end_addr) ||
		    get_le32(buf, len, at + 24, &h->bss_end_addr) ||
		    get_le32(buf, len, at + 28, &h->entry_addr))
			return say(err, errlen, -ENOEXEC, "%s",
				   "the multiboot header is truncated");
		h->have_addr = h->have_entry = true;
		return 0;
	}
	return -ENOENT;
}

int kexec_mb_header_parse(const void *buf, size_t len, int want,
			  struct kexec_mb_header *h, char *err, size_t errlen)
{
	int rc = -ENOENT;

	memset(h, 0, sizeof(*h));
	if (want != 1)
		rc = mb2_find(buf, len, h, err, errlen);
	if (rc != -ENOENT)
		return rc;
	memset(h, 0, sizeof(*h));
	if (want != 2)
		rc = mb1_find(buf, len, h, err, errlen);
	if (rc != -ENOENT)
		return rc;
	return say(err, errlen, -ENOENT, "%s",
		   want == 2   ? "the kernel has no multiboot2 header in its "
				 "first 32 KiB"
		   : want == 1 ? "the kernel has no multiboot header in its "
				 "first 8 KiB"
			       : "the kernel has no multiboot2 or multiboot "
				 "header");
}

/* multiboot2 spec 3.1.6 (multiboot 3.1.3): the header at file offset
 * h->off sits at header_addr; the file from load_addr's offset up to
 * load_end_addr (0: the file's end) is loaded, then zeros to
 * bss_end_addr (0: none). */
static int mb_image_addr(size_t len, const struct kexec_mb_header *h,
			 struct kexec_elf *el, char *err, size_t errlen)
{
	uint64_t back = (uint64_t)h->header_addr - h->load_addr, n, mem;
	size_t off;

	if (h->load_addr > h->header_addr || back > h->off)
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot header's load address is after the "
			   "header itself");
	off = h->off - (size_t)back;
	n = h->load_end_addr ? (uint64_t)h->load_end_addr - h->load_addr
			     : (uint64_t)(len - off);
	if (h->load_end_addr && h->load_end_addr <= h->load_addr)
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot header's load end is before its "
			   "load address");
	if (n > len - off)
		return say(err, errlen, -ENOEXEC,
			   "the multiboot kernel is truncated: its header "
			   "loads %llu bytes, the file has %zu",
			   (unsigned long long)n, len - off);
	mem = h->bss_end_addr > h->load_addr + n
		  ? (uint64_t)h->bss_end_addr - h->load_addr
		  : n;
	memset(el, 0, sizeof(*el));
	el->load[0] =
	    (struct kexec_elf_load){h->load_addr, mem, off, (size_t)n};
	el->n_load = 1;
	el->entry = h->entry_addr;
	return 0;
}

int kexec_mb_image(const void *buf, size_t len, const struct kexec_mb_header *h,
		   struct kexec_elf *el, char *err, size_t errlen)
{
	const uint8_t *p = buf;
	int rc;

	if (h->have_addr)
		rc = mb_image_addr(len, h, el, err, errlen);
	else if (len > 4 && kexec_elf_is(buf, len) && p[4] == 1)
		rc = kexec_elf32_parse(buf, len, el, err, errlen);
	else if (kexec_elf_is(buf, len))
		rc = kexec_elf_parse(buf, len, el, err, errlen);
	else
		rc = say(err, errlen, -ENOEXEC, "%s",
			 "the multiboot kernel is not an ELF file and its "
			 "header gives no load address");
	if (rc)
		return rc;
	if (h->have_entry && h->have_addr == false && h->version == 2)
		el->entry = h->entry_addr; /* spec 3.1.7 overrides ELF's */
	for (size_t i = 0; i < el->n_load; i++)
		if (el->load[i].paddr >= FOUR_G ||
		    el->load[i].memsz > FOUR_G - el->load[i].paddr)
			return say(err, errlen, -ENOEXEC,
				   "the multiboot kernel wants memory above "
				   "4 GiB (0x%llx)",
				   (unsigned long long)el->load[i].paddr);
	if (el->entry >= FOUR_G)
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot kernel's entry is above 4 GiB");
	return 0;
}
