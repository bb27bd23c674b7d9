/* machine.c - boot_params, the EFI runtime map and the memory maps of
 * the running machine (or of fixtures standing in for it). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kexec/machine.h"
#include "kexec/plan.h"
#include "util/le.h"
#include "util/file.h"

static int read_hex(int dfd, const char *path, uint64_t *v)
{
	char buf[64], *end;
	int rc = util_read_small(dfd, path, buf, sizeof(buf));

	if (rc)
		return rc;
	*v = strtoull(buf, &end, 16);
	return end == buf ? -EINVAL : 0;
}

static void read_params(struct kexec_machine *m, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return;
	while (got < sizeof(m->params) &&
	       (n = read(fd, m->params + got, sizeof(m->params) - got)) > 0)
		got += (size_t)n;
	close(fd);
	/* a short read is no boot_params: start from zeros */
	m->have_params = got == sizeof(m->params);
	if (!m->have_params)
		memset(m->params, 0, sizeof(m->params));
}

static int efi_entry(int dfd, unsigned idx, struct kexec_efi_desc *d)
{
	static const char *const names[] = {"type", "phys_addr", "virt_addr",
					    "num_pages", "attribute"};
	uint64_t v[5];
	char p[64];

	for (int i = 0; i < 5; i++) {
		int rc;

		snprintf(p, sizeof(p), "runtime-map/%u/%s", idx, names[i]);
		rc = read_hex(dfd, p, &v[i]);
		if (rc)
			return rc;
	}
	*d = (struct kexec_efi_desc){(uint32_t)v[0], v[1], v[2], v[3], v[4]};
	return 0;
}

/* "KEY=0x..." from the systab file; 0 when absent. */
static uint64_t systab_value(int dfd, const char *key)
{
	char buf[1024];
	size_t k = strlen(key);

	if (util_read_small(dfd, "systab", buf, sizeof(buf)))
		return 0;
	for (char *p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, k) == 0 && p[k] == '=')
			return strtoull(p + k + 1, NULL, 16);
	return 0;
}

static int read_efi(struct kexec_machine *m, const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char p[64];
	int rc;

	if (dfd < 0)
		return -errno;
	rc = read_hex(dfd, "fw_vendor", &m->efi_fw_vendor);
	if (!rc)
		rc = read_hex(dfd, "config_table", &m->efi_tables);
	m->efi_smbios = systab_value(dfd, "SMBIOS");
	m->acpi_rsdp = systab_value(dfd, "ACPI20");
	if (!m->acpi_rsdp)
		m->acpi_rsdp = systab_value(dfd, "ACPI");
	if (!rc &&
	    !(m->efi_map = calloc(KEXEC_EFI_MAP_MAX, sizeof(*m->efi_map))))
		rc = -ENOMEM;
	/* runtime-map/0, 1, ... until the first gap */
	for (unsigned i = 0; !rc && i < KEXEC_EFI_MAP_MAX; i++) {
		snprintf(p, sizeof(p), "runtime-map/%u", i);
		if (faccessat(dfd, p, F_OK, 0))
			break;
		rc = efi_entry(dfd, i, &m->efi_map[i]);
		if (!rc)
			m->n_efi_map++;
	}
	close(dfd);
	return !rc && m->n_efi_map == 0 ? -ENOENT : rc;
}

static uint8_t sum8(const uint8_t *b, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *b++);
	return s;
}

/* ACPI 6.5 5.2.5.3: the RSDP structure's fields, checked. */
static int rsdp_check(const uint8_t *b, size_t have)
{
	uint32_t len = 20;

	if (memcmp(b, "RSD PTR ", 8) || sum8(b, 20))
		return -EINVAL;
	if (b[15] < 2)
		return 20;
	get_le32(b, have, 20, &len);
	if (len < 36 || len > have || sum8(b, len))
		return -EINVAL;
	return (int)len;
}

int kexec_machine_rsdp(const struct kexec_machine *m, const char *devmem,
		       uint8_t *out)
{
	uint64_t at = m->acpi_rsdp;
	ssize_t n;
	int fd;

	if (!at && m->have_params)
		get_le64(m->params, sizeof(m->params), BP_ACPI_RSDP, &at);
	if (!at || at > INT64_MAX - KEXEC_RSDP_MAX)
		return -ENOENT;
	fd = open(devmem ? devmem : KEXEC_DEVMEM_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -EIO;
	/* the RSDP may end less than KEXEC_RSDP_MAX bytes before what may
	 * be read: take what comes, at least its first 20 */
	n = pread(fd, out, KEXEC_RSDP_MAX, (off_t)at);
	close(fd);
	if (n < 20)
		return -EIO;
	return rsdp_check(out, (size_t)n);
}

/* The "@key:  N kB" line of a meminfo file in bytes, or 0. */
static uint64_t read_meminfo(const char *path, const char *key)
{
	return util_meminfo_read_kib(path, key) * 1024;
}

int kexec_machine_room(const char *meminfo, unsigned long long need,
		       unsigned long long *avail)
{
	*avail = read_meminfo(meminfo ? meminfo : KEXEC_MEMINFO_PATH,
			      "MemAvailable:");
	return *avail && need + KEXEC_RAM_MARGIN > *avail ? -ENOMEM : 0;
}

int kexec_machine_read(struct kexec_machine *m,
		       const struct kexec_machine_paths *p, char *err,
		       size_t errlen)
{
	static const struct kexec_machine_paths none;
	int rc;

	memset(m, 0, sizeof(*m));
	if (!p)
		p = &none;
	rc = kexec_memmap_read(p->memmap, &m->mm, err, errlen);
	if (rc)
		return rc;
	if (p->iomem || !p->memmap)
		kexec_memmap_read_crash(p->iomem, &m->crash);
	if (p->meminfo || !p->memmap)
		m->mem_total = read_meminfo(
		    p->meminfo ? p->meminfo : KEXEC_MEMINFO_PATH, "MemTotal:");
	read_params(m,
		    p->boot_params ? p->boot_params : KEXEC_BOOT_PARAMS_PATH);
	if (read_efi(m, p->efi_dir ? p->efi_dir : KEXEC_EFI_DIR) == 0) {
		m->efi = true;
	} else {
		free(m->efi_map);
		m->efi_map = NULL;
		m->n_efi_map = 0;
	}
	return 0;
}

void kexec_machine_free(struct kexec_machine *m)
{
	kexec_memmap_free(&m->mm);
	kexec_memmap_free(&m->crash);
	free(m->efi_map);
	memset(m, 0, sizeof(*m));
}
