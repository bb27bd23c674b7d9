/* test_uki.c - Unified Kernel Images read from their PE sections. */
#include "test.h"
#include "cfg/uki.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "util/le.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs.h"

struct sect {
	const char *name, *data;
};

/* A PE image with the given sections, their data from 0x400 on. */
static size_t mk_uki(uint8_t *b, size_t cap, const struct sect *s, unsigned n)
{
	size_t tab = 0x40 + 24, data = 0x400;

	memset(b, 0, cap);
	put_le16(b, cap, 0, 0x5a4d);
	put_le32(b, cap, 0x3c, 0x40);
	put_le32(b, cap, 0x40, 0x00004550);
	put_le16(b, cap, 0x46, (uint16_t)n);
	for (unsigned i = 0; i < n; i++) {
		size_t h = tab + 40 * i, len = strlen(s[i].data);

		memcpy(b + h, s[i].name, strlen(s[i].name));
		put_le32(b, cap, h + 8, (uint32_t)len);
		put_le32(b, cap, h + 16, (uint32_t)((len + 511) & ~511u));
		put_le32(b, cap, h + 20, (uint32_t)data);
		memcpy(b + data, s[i].data, len);
		data += (len + 511) & ~511u;
	}
	return data;
}

static const struct sect full[] = {
    {".osrel",
     "NAME=\"Fedora Linux\"\nPRETTY_NAME=\"Fedora Linux 39 (Workstation)\"\n"
     "ID=fedora\nVERSION_ID=39\n"},
    {".cmdline", "root=UUID=abc ro quiet\n"},
    {".uname", "6.5.6-300.fc39.x86_64"},
    {".linux", "MZ kernel"},
    {".initrd", "initrd"},
};

TEST(sections_to_entry)
{
	struct tfs t;
	uint8_t b[8192];
	size_t len = mk_uki(b, sizeof(b), full, 5);
	struct entry *e = NULL;

	tfs_init(&t);
	CHECK_INT(
	    uki_parse_mem(&t.ctx, "/EFI/Linux/fedora+2-1.efi", b, len, &e), 0);
	CHECK(e != NULL);
	CHECK_INT(e->format, FMT_UKI);
	CHECK_STR(e->title, "Fedora Linux 39 (Workstation)");
	CHECK_STR(e->cmdline, "root=UUID=abc ro quiet");
	CHECK_STR(e->version, "6.5.6-300.fc39.x86_64");
	CHECK_STR(e->sort_key, "fedora");
	CHECK_STR(e->kernel.path, "/EFI/Linux/fedora+2-1.efi");
	CHECK_STR(e->id, "fedora.efi");
	CHECK_INT(e->tries_left, 2);
	CHECK_INT(e->tries_done, 1);
	CHECK_INT(e->n_initrds, 0);
	tfs_done(&t);
}

TEST(fallbacks_without_osrel_or_uname)
{
	struct tfs t;
	uint8_t b[8192];
	static const struct sect s[] = {
	    {".osrel",
	     "NAME='Arch "
	     "Linux'\nIMAGE_ID=arch\nID=archlinux\nVERSION_ID=rolling\n"},
	    {".linux", "k"},
	};
	size_t len = mk_uki(b, sizeof(b), s, 2);
	struct entry *e = NULL;

	tfs_init(&t);
	CHECK_INT(uki_parse_mem(&t.ctx, "/EFI/Linux/arch.efi", b, len, &e), 0);
	CHECK_STR(e->title, "Arch Linux");
	CHECK_STR(e->sort_key, "arch"); /* IMAGE_ID over ID */
	CHECK_STR(e->version, "rolling");
	CHECK_STR(e->cmdline, "");
	len = mk_uki(b, sizeof(b), s + 1, 1);
	CHECK_INT(uki_parse_mem(&t.ctx, "/EFI/Linux/bare.efi", b, len, &e), 0);
	CHECK_STR(e->title, "bare.efi");
	tfs_done(&t);
}

TEST(not_a_uki)
{
	struct tfs t;
	uint8_t b[8192];
	size_t len = mk_uki(b, sizeof(b), full, 3); /* no .linux */
	struct entry *e = NULL;

	tfs_init(&t);
	CHECK_INT(uki_parse_mem(&t.ctx, "/x.efi", b, len, &e), -ENOEXEC);
	CHECK_INT(uki_parse_mem(&t.ctx, "/x.efi", "hello", 5, &e), -ENOEXEC);
	len = mk_uki(b, sizeof(b), full, 5);
	/* the file ends inside the .cmdline data */
	CHECK(uki_parse_mem(&t.ctx, "/x.efi", b, 0x410, &e) < 0);
	CHECK(e == NULL);
	tfs_done(&t);
}

TEST(collect_from_efi_linux)
{
	struct tfs t;
	uint8_t b[8192];
	size_t len = mk_uki(b, sizeof(b), full, 5);
	char path[512];
	FILE *f;

	tfs_init(&t);
	tfs_write(&t, "/EFI/Linux/notes.txt", "x");
	tfs_write(&t, "/EFI/Linux/junk.efi", "not a PE file");
	snprintf(path, sizeof(path), "%s/EFI/Linux/fedora.EFI", t.dir);
	f = fopen(path, "w");
	fwrite(b, 1, len, f);
	fclose(f);
	bls_parse_fs(&t.ctx); /* UKIs sort with the Type 1 entries */
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->title, "Fedora Linux 39 (Workstation)");
	CHECK(nth(&t, 0)->is_default);
	CHECK_INT(n_warn(&t), 1); /* junk.efi */
	tfs_done(&t);
}

TEST_MAIN("test_uki", sections_to_entry, fallbacks_without_osrel_or_uname,
	  not_a_uki, collect_from_efi_linux)
