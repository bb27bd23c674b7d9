/* test_dm_crypt.c - the dm-crypt request of an unlocked LUKS volume, byte
 * by byte (pure: the ioctls themselves run in QEMU, tests/e2e), the list
 * of cipher specs bootmenu's kernel has, and the sentence when this
 * kernel has no device-mapper at all. */
#include "test.h"
#include "vol/dm.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <unistd.h>

#define KEY64 "82667fd6144f739fd5f5b9884a73e6291e13a0a48a039b8752a7d48abb76c628"
#define LINE "0 2048 crypt aes-xts-plain64 " KEY64 " 0 254:3 4096"

/* One crypt target after the header: read-only, the kernel asked to wipe
 * its copies (DM_SECURE_DATA_FLAG), the parameters after "crypt " as
 * they are, NUL-terminated and padded to 8 bytes. */
TEST(crypt_request_layout)
{
	static _Alignas(8) unsigned char buf[1024];
	const struct dm_ioctl *io = (const void *)buf;
	const struct dm_target_spec *t;
	long used;

	memset(buf, 0xaa, sizeof(buf));
	used = vol_dm_crypt_table(buf, sizeof(buf),
				  "bootmenu-luks-3430634b-7063", LINE);
	CHECK(used > 0);
	CHECK_INT((int)io->version[0], DM_VERSION_MAJOR);
	CHECK_INT((int)io->data_size, (int)used);
	CHECK_INT((int)io->data_start, 312); /* sizeof(struct dm_ioctl) */
	CHECK_INT((int)io->target_count, 1);
	CHECK_INT((int)io->flags, DM_READONLY_FLAG | DM_SECURE_DATA_FLAG);
	CHECK_STR(io->name, "bootmenu-luks-3430634b-7063");
	t = (const void *)(buf + io->data_start);
	CHECK(t->sector_start == 0 && t->length == 2048);
	CHECK_STR(t->target_type, "crypt");
	CHECK_STR((const char *)(t + 1),
		  "aes-xts-plain64 " KEY64 " 0 254:3 4096");
	CHECK_INT((int)(io->data_start + t->next), (int)used);
	CHECK_INT((int)used % 8, 0);
	/* 312 + 40 (the spec) + 93 + NUL, padded to 8 */
	CHECK_INT((int)used, 448);
	CHECK_INT(buf[used - 1], 0);
	/* the optional arguments stay with the parameters */
	used = vol_dm_crypt_table(buf, sizeof(buf), "x",
				  "0 8 crypt aes-xts-plain64 " KEY64
				  " 0 8:3 32768 1 sector_size:4096");
	CHECK(used > 0);
	t = (const void *)(buf + io->data_start);
	CHECK(t->length == 8);
	CHECK_STR((const char *)(t + 1),
		  "aes-xts-plain64 " KEY64 " 0 8:3 32768 1 sector_size:4096");
}

TEST(crypt_request_refusals)
{
	static _Alignas(8) unsigned char buf[1024];
	char name[200];

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), "a",
					  "0 2048 linear 8:3 0"),
		  -EINVAL);
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), "a",
					  "8 2048 crypt aes-ecb k 0 8:3 0"),
		  -EINVAL); /* one target from sector 0 only */
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), "a", "0 0 crypt x"),
		  -EINVAL);
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), "a", "0 8 crypt "),
		  -EINVAL);
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), "a", "x 8 crypt y"),
		  -EINVAL);
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), "a",
					  "0 8 crypt y\n0 8 crypt z"),
		  -EINVAL);
	CHECK_INT((int)vol_dm_crypt_table(buf, sizeof(buf), name, LINE),
		  -ENAMETOOLONG);
	CHECK_INT((int)vol_dm_crypt_table(buf, 320, "a", LINE), -ENOSPC);
	CHECK_INT((int)vol_dm_crypt_table(buf, 16, "a", LINE), -ENOSPC);
}

TEST(crypt_specs_of_the_kernel)
{
	char err[512] = "";

	CHECK_INT(vol_dm_crypt_check("aes", "xts-plain64", err, sizeof(err)),
		  0);
	CHECK_INT(
	    vol_dm_crypt_check("aes", "cbc-essiv:sha256", err, sizeof(err)), 0);
	CHECK_INT(vol_dm_crypt_check("aes", "ecb", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_INT(
	    vol_dm_crypt_check("serpent", "xts-plain64", err, sizeof(err)),
	    -ENOTSUP);
	CHECK_STR(err, "cipher serpent-xts-plain64 is not in bootmenu's "
		       "kernel (it has aes-xts-plain64, aes-xts-plain, "
		       "aes-cbc-essiv:sha256, aes-cbc-plain64, aes-cbc-plain, "
		       "aes-ecb)");
	CHECK_INT(
	    vol_dm_crypt_check("aes", "cbc-essiv:sha512", err, sizeof(err)),
	    -ENOTSUP);
}

/* Here (a build machine) there is no device-mapper: the real mapping
 * says so, and leaves nothing behind. */
TEST(crypt_map_without_device_mapper)
{
	char dev[64] = "", err[256] = "";
	int fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		test_skip("this kernel has device-mapper: the mapping is "
			  "tested in QEMU (tests/e2e)");
		return;
	}
	CHECK(vol_map_crypt("luks-3430634b", LINE, dev, sizeof(dev), err,
			    sizeof(err)) < 0);
	CHECK_STR(err, "cannot map luks-3430634b through dm-crypt: this "
		       "kernel has no device-mapper");
	CHECK_STR(dev, "");
	CHECK_INT(vol_map_crypt("luks-x", "0 8 linear 8:3 0", dev, sizeof(dev),
				err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "cannot make a dm-crypt table for luks-x: Invalid "
		       "argument");
}

TEST_MAIN("test_dm_crypt", crypt_request_layout, crypt_request_refusals,
	  crypt_specs_of_the_kernel, crypt_map_without_device_mapper)
