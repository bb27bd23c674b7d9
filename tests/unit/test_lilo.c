/* test_lilo.c - one test per lilo.conf option. */
#include "test.h"
#include "cfg/lilo.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs.h"

static void parse(struct tfs *t, const char *text)
{
	tfs_init(t);
	tfs_write(t, "/boot/vmlinuz", "k");
	tfs_write(t, "/boot/initrd.img", "i");
	tfs_write(t, "/etc/lilo.conf", text);
	lilo_parse_fs(&t->ctx);
}

TEST(image_label_and_first_is_default)
{
	struct tfs t;

	parse(&t, "image=/boot/vmlinuz\n  label=linux\nimage=/boot/old\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->title, "linux");
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/vmlinuz");
	CHECK_STR(nth(&t, 0)->kernel.dev, NULL);
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=linux");
	CHECK_STR(nth(&t, 0)->source, "/etc/lilo.conf");
	CHECK_INT(nth(&t, 0)->line, 1);
	CHECK(nth(&t, 0)->is_default);
	CHECK_STR(nth(&t, 1)->title,
		  "old"); /* label defaults to the file name */
	CHECK(!nth(&t, 1)->is_default);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(default_by_label_or_alias)
{
	struct tfs t;

	parse(&t, "default=Second\nimage=/boot/vmlinuz label=first\n"
		  "image=/boot/vmlinuz label=second\n");
	CHECK(nth(&t, 1)->is_default); /* lilo ignores case */
	CHECK(!nth(&t, 0)->is_default);
	tfs_done(&t);
	parse(&t, "default=x\nimage=/boot/vmlinuz label=a\nimage=/boot/vmlinuz "
		  "label=b alias=x\n");
	CHECK(nth(&t, 1)->is_default);
	tfs_done(&t);
	parse(&t, "default=nope\nimage=/boot/vmlinuz label=a\n");
	CHECK(nth(&t, 0)->is_default);
	CHECK_INT(n_warn(&t), 1);
	tfs_done(&t);
}

TEST(command_line_order)
{
	struct tfs t;

	/* bsect.c: ro/rw, root=, ramdisk=, then append, then addappend */
	parse(&t,
	      "append=\"quiet splash\"\nroot=/dev/sda2\nread-only\nvga=791\n"
	      "image=/boot/vmlinuz\n label=a\n addappend=\"single\"\n"
	      "image=/boot/vmlinuz\n label=b\n append=\"own\"\n read-write\n"
	      " root=UUID=1234-abcd\n ramdisk=0\n");
	CHECK_STR(nth(&t, 0)->cmdline,
		  "BOOT_IMAGE=a ro root=/dev/sda2 vga=791 quiet splash single");
	CHECK_STR(
	    nth(&t, 1)->cmdline,
	    "BOOT_IMAGE=b ro rw root=UUID=1234-abcd ramdisk=0 vga=791 own");
	tfs_done(&t);
}

TEST(literal_replaces_everything)
{
	struct tfs t;

	parse(&t, "root=/dev/sda1\nread-only\nappend=\"quiet\"\n"
		  "image=/boot/vmlinuz label=l literal=\"init=/bin/sh\"\n");
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=l init=/bin/sh");
	tfs_done(&t);
}

TEST(initrd_global_and_per_image)
{
	struct tfs t;

	parse(&t, "initrd=/boot/initrd.img\nimage=/boot/vmlinuz label=a\n"
		  "image=/boot/vmlinuz label=b initrd=/boot/other.img\n");
	CHECK_INT(nth(&t, 0)->n_initrds, 1);
	CHECK_STR(nth(&t, 0)->initrds[0].path, "/boot/initrd.img");
	CHECK_STR(nth(&t, 1)->initrds[0].path, "/boot/other.img");
	tfs_done(&t);
}

TEST(files_not_here_go_to_root_device)
{
	struct tfs t;

	parse(&t, "image=/vmlinuz-6.1 label=a root=LABEL=rootfs "
		  "initrd=/boot/initrd.img\n");
	CHECK_STR(nth(&t, 0)->kernel.dev, "LABEL=rootfs");
	CHECK_STR(nth(&t, 0)->kernel.path, "/vmlinuz-6.1");
	CHECK_STR(nth(&t, 0)->initrds[0].dev, NULL); /* that one is here */
	tfs_done(&t);
}

TEST(other_is_disabled)
{
	struct tfs t;

	parse(&t, "other=/dev/sda1\n label=Windows\n table=/dev/sda\n "
		  "boot-as=0x80\n");
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->title, "Windows");
	CHECK(nth(&t, 0)->disabled &&
	      strstr(nth(&t, 0)->disabled, "other=/dev/sda1"));
	CHECK_STR(nth(&t, 0)->kernel.path, NULL);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(password_restricted_mandatory)
{
	struct tfs t;

	parse(&t, "password=secret\nrestricted\n"
		  "image=/boot/vmlinuz label=a\n"
		  "image=/boot/vmlinuz label=b mandatory\n"
		  "image=/boot/vmlinuz label=c bypass\n");
	CHECK(nth(&t, 0)->password && nth(&t, 0)->restricted &&
	      !nth(&t, 0)->mandatory);
	CHECK(nth(&t, 1)->password && nth(&t, 1)->mandatory &&
	      !nth(&t, 1)->restricted);
	CHECK(!nth(&t, 2)->password && !nth(&t, 2)->restricted);
	tfs_done(&t);
	parse(&t, "image=/boot/vmlinuz label=a password=\"\" restricted\n"
		  "image=/boot/vmlinuz label=b\n");
	CHECK(nth(&t, 0)->password && nth(&t, 0)->restricted);
	CHECK(!nth(&t, 1)->password);
	tfs_done(&t);
}

TEST(timeout_needs_prompt)
{
	struct tfs t;

	parse(&t, "prompt\ntimeout=150\nimage=/boot/vmlinuz\n");
	CHECK_INT(t.out.timeout_ds, 150);
	tfs_done(&t);
	parse(&t, "timeout=150\nimage=/boot/vmlinuz\n");
	CHECK_INT(t.out.timeout_ds, 0); /* no prompt: boots at once */
	tfs_done(&t);
	parse(&t, "prompt\nimage=/boot/vmlinuz\n");
	CHECK_INT(t.out.timeout_ds, -1); /* waits */
	tfs_done(&t);
}

TEST(optional_image_skipped_when_missing)
{
	struct tfs t;

	parse(&t, "image=/boot/gone label=g optional\nimage=/boot/vmlinuz "
		  "label=h optional\n");
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->title, "h");
	CHECK(nth(&t, 0)->is_default);
	tfs_done(&t);
}

TEST(syntax_quotes_comments_continuation_unknown)
{
	struct tfs t;

	parse(&t,
	      "# comment\nboot = /dev/sda   # inline\nmenu-title=\"A \\\"q\\\" "
	      "b\"\n"
	      "frobnicate = 3\nimage = /boot/vmlinuz\n  label = \"two words\"\n"
	      "  append = \"a \\\n b\"\n");
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->title, "two words");
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=two words a  b");
	CHECK_INT(n_warn(&t), 1);
	CHECK_INT(t.out.warnings->line, 4);
	tfs_done(&t);
}

TEST(read_write_and_root_current)
{
	struct tfs t;

	parse(&t, "image=/boot/vmlinuz label=a read-write root=current\n");
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=a rw");
	CHECK_INT(n_warn(&t), 1);
	tfs_done(&t);
}

TEST(too_many_sections)
{
	struct tfs t;
	char *text = malloc(64 * (LILO_SECTIONS_MAX + 10)), *p = text;

	for (int i = 0; i < LILO_SECTIONS_MAX + 10; i++)
		p += sprintf(p, "image=/boot/vmlinuz label=l%d\n", i);
	parse(&t, text);
	CHECK_INT(t.out.count, LILO_SECTIONS_MAX);
	CHECK_INT(n_warn(&t), 1);
	tfs_done(&t);
	free(text);
}

TEST_MAIN("test_lilo", image_label_and_first_is_default,
	  default_by_label_or_alias, command_line_order,
	  literal_replaces_everything, initrd_global_and_per_image,
	  files_not_here_go_to_root_device, other_is_disabled,
	  password_restricted_mandatory, timeout_needs_prompt,
	  optional_image_skipped_when_missing,
	  syntax_quotes_comments_continuation_unknown,
	  read_write_and_root_current, too_many_sections)
