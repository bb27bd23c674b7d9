/* test_cpio.c - the newc writer: byte layout by hand, and GNU cpio
 * extracting what it wrote (the kernel's initramfs unpacker reads the
 * same format). */
#include "format/cpio.h"
#include "test.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The 13 hex fields after the magic of the header at @p. */
static unsigned field(const char *p, int i)
{
	char f[9];

	memcpy(f, p + 6 + 8 * i, 8);
	f[8] = '\0';
	return (unsigned)strtoul(f, NULL, 16);
}

TEST(layout)
{
	struct cpio c = {0};
	const char data[] = "hello";

	cpio_add_dir(&c, "a", 0755);
	cpio_add_file(&c, "a/b", data, 5, 0400);
	CHECK_INT(cpio_finish(&c), 0);
	/* dir: 110 + "a\0" = 112, no data */
	CHECK(!memcmp(c.buf, "070701", 6));
	CHECK_INT(field(c.buf, 0), 1);		    /* inode */
	CHECK_INT(field(c.buf, 1), S_IFDIR | 0755); /* mode */
	CHECK_INT(field(c.buf, 11), 2);		    /* namesize */
	CHECK_STR(c.buf + 110, "a");
	/* file at 112: 110 + "a/b\0" = 114, padded to 116; data 5 -> 8 */
	CHECK(!memcmp(c.buf + 112, "070701", 6));
	CHECK_INT(field(c.buf + 112, 0), 2);
	CHECK_INT(field(c.buf + 112, 1), S_IFREG | 0400);
	CHECK_INT(field(c.buf + 112, 6), 5); /* filesize */
	CHECK_STR(c.buf + 112 + 110, "a/b");
	CHECK(!memcmp(c.buf + 228, "hello\0\0\0", 8));
	/* the trailer at 236, its name padded: 110 + 11 -> 124 */
	CHECK(!memcmp(c.buf + 236, "070701", 6));
	CHECK_STR(c.buf + 236 + 110, "TRAILER!!!");
	CHECK_INT(c.len, 236 + 124);
	CHECK_INT(c.len % 4, 0);
	cpio_free(&c);
	CHECK(c.buf == NULL);
}

TEST(gnu_cpio_extracts)
{
	char dir[] = "/tmp/test_cpio.XXXXXX", cmd[300], *got;
	struct cpio c = {0};
	unsigned char big[5000];
	size_t len;
	FILE *f;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 7);
	cpio_add_dir(&c, ".extra", 0755);
	cpio_add_dir(&c, ".extra/bootmenu", 0755);
	cpio_add_file(&c, ".extra/bootmenu/log.bin", big, sizeof(big), 0400);
	CHECK_INT(cpio_finish(&c), 0);
	if (access("/usr/bin/cpio", X_OK)) {
		test_skip("GNU cpio is not installed");
		cpio_free(&c);
		return;
	}
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "cd %s && cpio -id --quiet", dir);
	f = popen(cmd, "w");
	CHECK(f != NULL);
	CHECK_INT(fwrite(c.buf, 1, c.len, f), c.len);
	CHECK_INT(pclose(f), 0);
	snprintf(cmd, sizeof(cmd), "%s/.extra/bootmenu/log.bin", dir);
	got = test_slurp(cmd, &len);
	CHECK(got != NULL);
	CHECK_INT(len, sizeof(big));
	CHECK(got && !memcmp(got, big, sizeof(big)));
	free(got);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_INT(system(cmd), 0);
	cpio_free(&c);
}

TEST(too_long_a_name)
{
	struct cpio c = {0};
	char name[5000];

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	cpio_add_file(&c, name, "", 0, 0400);
	cpio_add_dir(&c, "later", 0755); /* the first failure is kept */
	CHECK_INT(cpio_finish(&c), -EINVAL);
	cpio_free(&c);
}

TEST_MAIN("test_cpio", layout, gnu_cpio_extracts, too_long_a_name)
