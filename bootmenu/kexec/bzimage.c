/* bzimage.c - read and check a bzImage's setup header (boot.rst). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kexec/bzimage.h"
#include "util/le.h"

static int bz_fields(const void *buf, size_t len, struct kexec_bzimage *bz)
{
	int rc = 0;

	rc |= get_le16(buf, len, BZ_VERSION, &bz->version);
	rc |= get_le8(buf, len, BZ_LOADFLAGS, &bz->loadflags);
	rc |= get_le16(buf, len, BZ_XLOADFLAGS, &bz->xloadflags);
	rc |= get_le8(buf, len, BZ_RELOCATABLE, &bz->relocatable);
	rc |= get_le32(buf, len, BZ_KERNEL_ALIGNMENT, &bz->kernel_alignment);
	rc |= get_le32(buf, len, BZ_INIT_SIZE, &bz->init_size);
	rc |= get_le32(buf, len, BZ_CMDLINE_SIZE, &bz->cmdline_size);
	rc |= get_le32(buf, len, BZ_INITRD_ADDR_MAX, &bz->initrd_addr_max);
	rc |= get_le64(buf, len, BZ_PREF_ADDRESS, &bz->pref_address);
	return rc ? -ENOEXEC : 0;
}

int kexec_bzimage_parse(const void *buf, size_t len, struct kexec_bzimage *bz,
			char *err, size_t errlen)
{
	uint16_t flag = 0;
	uint8_t sects = 0, jump = 0;
	uint32_t syssize = 0;
	size_t setup;

	memset(bz, 0, sizeof(*bz));
	get_le16(buf, len, BZ_BOOT_FLAG, &flag);
	if (flag != 0xaa55 || len < BZ_HEADER + 4 ||
	    memcmp((const char *)buf + BZ_HEADER, "HdrS", 4) != 0) {
		snprintf(err, errlen,
			 "not a bzImage (no boot sector "
			 "signature or \"HdrS\" setup header)");
		return -ENOEXEC;
	}
	get_le16(buf, len, BZ_VERSION, &bz->version);
	if (bz->version < BZ_MIN_VERSION) {
		snprintf(err, errlen,
			 "boot protocol %u.%02u is too old: "
			 "2.12 or later is needed for a 64-bit kexec",
			 bz->version >> 8, bz->version & 0xff);
		return -ENOEXEC;
	}
	get_le8(buf, len, BZ_SETUP_SECTS, &sects);
	get_le8(buf, len, BZ_JUMP + 1, &jump);
	/* boot.rst: setup_sects 0 means 4; the boot sector adds one */
	setup = ((size_t)(sects ? sects : 4) + 1) * 512;
	bz->hdr_end = BZ_HEADER + (size_t)jump;
	if (bz->hdr_end > BZ_HDR_LIMIT)
		bz->hdr_end = BZ_HDR_LIMIT;
	if (setup >= len || bz_fields(buf, len, bz) < 0 ||
	    bz->hdr_end < BZ_INIT_SIZE + 4) {
		snprintf(err, errlen,
			 "the bzImage is truncated (%zu bytes, "
			 "its setup code alone is %zu)",
			 len, setup);
		return -ENOEXEC;
	}
	/* boot.rst: syssize (0x1f4, 2.04+) is the protected-mode code in
	 * 16-byte paragraphs; a shorter file would be jumped into half-read */
	get_le32(buf, len, BZ_SYSSIZE, &syssize);
	if ((uint64_t)syssize * 16 > len - setup) {
		snprintf(err, errlen,
			 "the bzImage is truncated (%zu bytes, "
			 "its header says %llu)",
			 len,
			 (unsigned long long)setup + (uint64_t)syssize * 16);
		return -ENOEXEC;
	}
	if (!(bz->xloadflags & XLF_KERNEL_64)) {
		snprintf(err, errlen,
			 "a 32-bit-only kernel: it has no "
			 "64-bit entry point (XLF_KERNEL_64)");
		return -ENOEXEC;
	}
	bz->pm_off = setup;
	bz->pm_size = len - setup;
	if (bz->kernel_alignment < 4096 ||
	    (bz->kernel_alignment & (bz->kernel_alignment - 1)))
		bz->kernel_alignment = 0x200000;
	return 0;
}
