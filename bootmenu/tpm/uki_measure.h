/* uki_measure.h - what systemd-stub 252 would have measured, so that a
 * UKI booted through kexec leaves PCR 11 and 12 as if the stub had run.
 *
 * Read in systemd's 252 sources (the files named below) and checked
 * against Debian 12's build (systemd-boot-efi 252.39-1~deb12u2,
 * /usr/lib/systemd/boot/efi/linuxx64.efi.stub, which keeps its symbols,
 * disassembled); where the two could differ, the binary decides:
 *
 * - PCR 11 ("kernel-boot"). src/boot/efi/stub.c, efi_main(): for each
 *   section of unified_sections[] (src/fundamental/tpm-pcr.c) in that
 *   order, .linux .osrel .cmdline .initrd .splash .dtb .pcrsig .pcrpkey,
 *   skipping .pcrsig (tpm-pcr.h, unified_section_measure()) and any
 *   section whose size is 0, two events: the digest of the section's name
 *   with its NUL (".linux\0", strsize8()), then the digest of the section
 *   as loaded in memory, VirtualSize bytes (src/boot/efi/pe.c,
 *   locate_sections(); past SizeOfRawData the loader's zeroes). Both
 *   through tpm_log_event_ascii() (src/boot/efi/measure.c): type EV_IPL,
 *   event data the section's name in UTF-16LE with its NUL. .uname and
 *   .sbat are not measured by 252 (they joined the list in 253).
 * - PCR 12 ("kernel-config"). stub.c, use_load_options(): only when the
 *   loader passed load options whose first UTF-16 unit is above 0x1F
 *   (and, under Secure Boot, only when the UKI has no .cmdline); the
 *   options are copied up to their NUL, mangle_stub_cmdline() (inlined
 *   in efi_main() of the binary) turns each unit <= 0x1F into a space
 *   and drops trailing spaces, and
 *   measure.c, tpm_log_load_options() measures the result with its NUL
 *   (strsize16()) as EV_IPL, event data those same bytes. Nothing goes to
 *   PCR 12 when the UKI's own .cmdline is used: that is in PCR 11. (The
 *   PCR 8 copy of efi-tpm-pcr-compat is off in Debian's build.)
 *
 * `systemd-measure calculate --phase=` (src/boot/measure.c, v252) is the
 * PCR 11 rule from files: for each given file in the same order, extend
 * H(name + NUL), then H(file); an empty file is skipped. Without --phase=
 * it also extends the boot phase words ("enter-initrd"...), which the
 * booted system's systemd-pcrphase adds later, not the stub.
 *
 * Pure: bytes in, events out; nothing is read or extended here.
 */
#ifndef BM_TPM_UKI_MEASURE_H
#define BM_TPM_UKI_MEASURE_H

#include <stddef.h>

struct measure_list;

/* UAPI Linux TPM PCR Registry: "kernel-boot" and "kernel-config". */
#define UKI_MEASURE_PCR_SECTIONS 11
#define UKI_MEASURE_PCR_CMDLINE 12

/* The systemd-stub release whose measurements these are. */
#define UKI_MEASURE_STUB_VERSION 252

/* Most zeroes a section may have past its file data (VirtualSize beyond
 * SizeOfRawData) for us to hash them as the stub would: objcopy and
 * ukify make none, and the size is the file's word, not a cost we take
 * blindly. */
#define UKI_MEASURE_ZERO_TAIL_MAX (1u << 20)

/* The major version of the systemd-stub that UKI pe[0..len) was built
 * from, read from its .sdmagic section ("#### LoaderInfo: systemd-stub
 * 252.39-1~deb12u2 ####"). Returns it (> 0), -ENOEXEC when @pe is not a
 * PE image, -ENOENT when it has no .sdmagic (not a systemd-stub UKI),
 * -EBADMSG when .sdmagic does not say which version. */
int uki_stub_version(const void *pe, size_t len);

/* Appends to @l, in systemd-stub 252's order, the PCR 11 events that
 * stub would make for the UKI pe[0..len): two per measured section (its
 * name, then its contents; see above), digests for l->banks, event data
 * the UTF-16LE name. Returns 0, or nothing appended and:
 *   -ENOEXEC  not a PE image the stub would run (no "MZ"/"PE\0\0", a
 *             machine type not ours, no or too many sections, no optional
 *             header magic 0x10b or 0x20b), no .linux (the stub refuses to
 * boot), or a section the stub and bootmenu would read differently: a name that
 *             two table entries start with (the stub takes the last,
 *             format/pe.c the first), an entry merely starting with the
 *             name (".linuxX": the stub's memcmp() over strlen(name)
 *             takes it, pe.c does not), a VirtualSize of 0 over file data
 *             (the stub skips it, pe.c boots it);
 *   -ERANGE   a measured section's file data lies past the end of @pe;
 *   -EFBIG    more than UKI_MEASURE_ZERO_TAIL_MAX zeroes past its data;
 *   -EOPNOTSUPP  the UKI's stub (uki_stub_version()) is not 252: other
 *             releases measure other sections; -ENOENT/-EBADMSG as
 *             uki_stub_version() says;
 *   -EINVAL   a NULL @l or @pe.
 * @pe stays the caller's; the events' bytes are in l->a. */
int uki_measure_pcr11(struct measure_list *l, const void *pe, size_t len);

/* Appends the PCR 12 event systemd-stub 252 makes when it is handed
 * @cmdline as its load options by a loader that converted it from UTF-8
 * the way systemd-boot 252 does (src/boot/efi/efi-string.c,
 * xstrn8_to_16(): UCS-2; invalid or short sequences, surrogates and
 * characters above U+FFFF are dropped): digests over the mangled UTF-16LE
 * line with its NUL, event data the same bytes. Appends nothing and
 * returns 0 when the stub would not measure (the line is empty or starts
 * with a control character: those load options are ignored); the caller
 * decides whether load options were passed at all (not for a UKI booted
 * with its own .cmdline). Returns 0, -EINVAL for a NULL @cmdline,
 * -ENOMEM. */
int uki_measure_pcr12(struct measure_list *l, const char *cmdline);

#endif
