/* machine.h - what the plan needs to know about the running machine.
 *
 * The firmware memory map, the crashkernel= reservation, the running
 * kernel's boot_params (the base of the new zero page) and, when booted
 * by EFI, the runtime map and table addresses a kexec'd kernel needs to
 * keep EFI runtime services. Every source is a path, so tests and
 * --dry-run feed fixtures. kexec_machine_free() frees what
 * kexec_machine_read() allocated.
 */
#ifndef BM_KEXEC_MACHINE_H
#define BM_KEXEC_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kexec/memmap.h"

#define KEXEC_BOOT_PARAMS_PATH "/sys/kernel/boot_params/data"
#define KEXEC_EFI_DIR "/sys/firmware/efi"
#define KEXEC_MEMINFO_PATH "/proc/meminfo"
#define KEXEC_BOOT_PARAMS_SIZE 4096
/* Most EFI runtime map entries kept (firmware has a few dozen). */
#define KEXEC_EFI_MAP_MAX 512

/* One EFI runtime region as /sys/firmware/efi/runtime-map/N shows it. */
struct kexec_efi_desc {
	uint32_t type;
	uint64_t phys, virt, pages, attr;
};

struct kexec_machine {
	struct kexec_memmap mm;	   /* the firmware's map: e820 and RAM */
	struct kexec_memmap crash; /* "Crash kernel" ranges; n may be 0 */
	uint8_t params[KEXEC_BOOT_PARAMS_SIZE]; /* zeros when unreadable */
	bool have_params;
	bool efi; /* EFI-booted with a readable runtime map */
	uint64_t efi_fw_vendor, efi_tables, efi_smbios;
	uint64_t acpi_rsdp; /* ACPI20= (or ACPI=) of the systab, or 0 */
	uint64_t mem_total; /* bytes the kernel manages (MemTotal), 0:
			     * unknown */
	struct kexec_efi_desc *efi_map; /* malloc'd, runtime-map order */
	size_t n_efi_map;
};

/* Where to read from; a NULL field means the running machine's file. */
struct kexec_machine_paths {
	const char *memmap;	 /* directory (sysfs layout) or iomem file */
	const char *iomem;	 /* for "Crash kernel"; NULL with @memmap
				  * set means none (a fixture is not this host) */
	const char *boot_params; /* a 4096-byte boot_params image */
	const char *efi_dir;	 /* /sys/firmware/efi layout */
	const char *meminfo;	 /* for MemTotal; NULL with @memmap set means
				  * unknown, as for @iomem */
	const char *devmem;	 /* physical memory: KEXEC_DEVMEM_PATH */
};

#define KEXEC_DEVMEM_PATH "/dev/mem"
#define KEXEC_RSDP_MAX 64 /* bytes of an RSDP copied: ACPI 6.5 has 36 */

/* The firmware's ACPI RSDP, for a multiboot2 kernel's ACPI tags: found at
 * m->acpi_rsdp (EFI's ACPI20=/ACPI= entry) or else where the running
 * kernel's decompressor found it (boot_params.acpi_rsdp_addr), read
 * from @devmem (NULL: KEXEC_DEVMEM_PATH; the kernel's STRICT_DEVMEM lets
 * firmware tables be read, lockdown nothing) into out[0..KEXEC_RSDP_MAX)
 * and checked as ACPI 6.5 5.2.5.3 says: signature "RSD PTR ", the
 * checksum of its first 20 bytes, and from revision 2 its length (36 ..
 * KEXEC_RSDP_MAX) and extended checksum. Returns its length (20 for
 * revision 0), -ENOENT (no address known), -EIO (unreadable), -EINVAL
 * (not a valid RSDP). */
int kexec_machine_rsdp(const struct kexec_machine *m, const char *devmem,
		       uint8_t *out);

/* Read everything; only the memory map is required. Returns 0, or -errno
 * with a sentence in @err. Missing boot_params leave zeros; no EFI (or no
 * runtime map) leaves m->efi false. @p may be NULL. */
int kexec_machine_read(struct kexec_machine *m,
		       const struct kexec_machine_paths *p, char *err,
		       size_t errlen);
void kexec_machine_free(struct kexec_machine *m);

/* Free RAM left to the reading process itself when files are read in. */
#define KEXEC_RAM_MARGIN (16ull << 20)

/* Whether @need bytes of files can be read into memory here: past the
 * free RAM the OOM killer would end the reader half-way. Reads
 * MemAvailable from @meminfo (NULL: this machine's) into @avail. Returns
 * 0 when they fit with KEXEC_RAM_MARGIN to spare, or when MemAvailable
 * is unknown (then @avail is 0), else -ENOMEM. */
int kexec_machine_room(const char *meminfo, unsigned long long need,
		       unsigned long long *avail);

#endif
