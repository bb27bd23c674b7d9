/* test_mb_rsdp.c - the firmware's ACPI RSDP for a multiboot2 kernel's ACPI
 * tags (issue #35): found through EFI's systab address or the running
 * kernel's boot_params, read from a stand-in for /dev/mem (a sparse file
 * holding RSDPs where SeaBIOS and OVMF put theirs) and checked. */
#include "kexec/machine.h"
#include "kexec/plan.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define BIOS_AT 0xf5a50ull     /* SeaBIOS's place, in the BIOS area */
#define EFI_AT 0x7fbfa014ull   /* OVMF's, in ACPI reclaim memory */
#define EDGE_AT 0x100000000ull /* an RSDP that ends the file */

static char mem[64];

static void sum_fix(uint8_t *b, size_t at, size_t n)
{
	uint8_t s = 0;

	b[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + b[i]);
	b[at] = (uint8_t)-s;
}

/* An RSDP of @rev (0: 20 bytes; 2: 36) naming tables at 0x7ffe0000. */
static void rsdp(uint8_t *b, int rev)
{
	memset(b, 0, 36);
	memcpy(b, "RSD PTR ", 8);
	memcpy(b + 9, "BOCHS ", 6);
	b[15] = (uint8_t)rev;
	b[16] = 0x00, b[18] = 0xfe, b[19] = 0x7f; /* RSDT */
	sum_fix(b, 8, 20);
	if (rev < 2)
		return;
	b[20] = 36;
	b[24] = 0x00, b[26] = 0xfe, b[27] = 0x7f; /* XSDT */
	sum_fix(b, 32, 36);
}

static void put(int fd, uint64_t at, const uint8_t *b, size_t n)
{
	CHECK_INT((long)pwrite(fd, b, n, (off_t)at), (long)n);
}

static void make_mem(void)
{
	uint8_t v0[36], v2[36];
	int fd;

	snprintf(mem, sizeof(mem), "/tmp/bm-devmem.XXXXXX");
	fd = mkstemp(mem);
	CHECK(fd >= 0);
	rsdp(v0, 0);
	rsdp(v2, 2);
	put(fd, BIOS_AT, v0, 20);
	put(fd, EFI_AT, v2, 36);
	put(fd, EDGE_AT, v2, 36); /* nothing after it: a short read */
	close(fd);
}

static int at(uint64_t efi, uint64_t params, uint8_t *out)
{
	struct kexec_machine m = {.acpi_rsdp = efi};

	if (params) {
		m.have_params = true;
		for (int i = 0; i < 8; i++)
			m.params[BP_ACPI_RSDP + i] = (uint8_t)(params >> 8 * i);
	}
	return kexec_machine_rsdp(&m, mem, out);
}

TEST(rsdp_found_and_checked)
{
	uint8_t out[KEXEC_RSDP_MAX], want[36];

	make_mem();
	/* SeaBIOS: the kernel's decompressor found it, revision 0 */
	CHECK_INT(at(0, BIOS_AT, out), 20);
	rsdp(want, 0);
	CHECK(!memcmp(out, want, 20));
	/* OVMF: EFI's ACPI20= wins over boot_params */
	CHECK_INT(at(EFI_AT, BIOS_AT, out), 36);
	rsdp(want, 2);
	CHECK(!memcmp(out, want, 36));
	CHECK_INT(at(EDGE_AT, 0, out), 36);
	/* no address, nothing there, no file */
	CHECK_INT(at(0, 0, out), -ENOENT);
	CHECK_INT(at(0x1000, 0, out), -EINVAL); /* zeros: no signature */
	CHECK_INT(at(EDGE_AT + 30, 0, out), -EIO);
	unlink(mem);
	CHECK_INT(at(BIOS_AT, 0, out), -EIO);
}

/* A byte changed in either checksummed part, or a length that lies:
 * refused, never handed to the kernel. */
TEST(rsdp_damaged_refused)
{
	static const struct {
		size_t off;
		uint8_t val;
	} bad[] = {{0, 'X'}, {12, 0x55}, {28, 0x01}, {20, 20}, {20, 200}};
	uint8_t b[36], out[KEXEC_RSDP_MAX];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd;

		snprintf(mem, sizeof(mem), "/tmp/bm-devmem.XXXXXX");
		fd = mkstemp(mem);
		CHECK(fd >= 0);
		rsdp(b, 2);
		b[bad[i].off] = bad[i].val;
		put(fd, EFI_AT, b, 36);
		close(fd);
		CHECK_INT(at(EFI_AT, 0, out), -EINVAL);
		unlink(mem);
	}
}

TEST_MAIN("test_mb_rsdp", rsdp_found_and_checked, rsdp_damaged_refused)
