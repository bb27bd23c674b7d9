/* test_crypttab.c - a volume's line in a target's crypttab
 * (vol/crypttab.h): the forms of its source, comments, blank lines, tabs,
 * missing fields, over-long lines and fields; and the options that go on
 * to Debian's cryptroot through cryptopts=. */
#include "test.h"
#include "vol/crypttab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define UUID "0d9f6a2c-95a1-4bd2-8f0e-3c1b7a6e5d40"

/* What Debian's installer writes for an encrypted root (with LVM). */
static const char debian[] = "vda2_crypt UUID=" UUID " none luks,discard\n";

TEST(debian_installer_line)
{
	struct crypttab_line l;

	CHECK_INT(crypttab_find(debian, strlen(debian), UUID, &l), 0);
	CHECK_STR(l.name, "vda2_crypt");
	CHECK_STR(l.source, "UUID=" UUID);
	CHECK_STR(l.key, "none");
	CHECK_STR(l.opts, "luks,discard");
	CHECK_INT(l.lineno, 1);
	/* the UUID compared without regard to case */
	CHECK_INT(crypttab_find(debian, strlen(debian),
				"0D9F6A2C-95A1-4BD2-8F0E-3C1B7A6E5D40", &l),
		  0);
	CHECK_INT(crypttab_find(debian, strlen(debian), "0d9f6a2c", &l),
		  -ENOENT);
}

TEST(comments_tabs_and_forms)
{
	static const char text[] =
	    "# <target name>\t<source device>\t<key file>\t<options>\n"
	    "\n"
	    "   \t\n"
	    "#root UUID=" UUID " none luks\n"
	    "swap\t/dev/vda3\t/dev/urandom\tswap,cipher=aes-xts-plain64\n"
	    "home UUID=11111111-2222-3333-4444-555555555555\n"
	    "\troot\t/dev/disk/by-uuid/" UUID "\r\n";
	struct crypttab_line l;

	CHECK_INT(crypttab_find(text, strlen(text), UUID, &l), 0);
	CHECK_STR(l.name, "root");
	CHECK_STR(l.source, "/dev/disk/by-uuid/" UUID);
	CHECK_STR(l.key, ""); /* absent: none */
	CHECK_STR(l.opts, "");
	CHECK_INT(l.lineno, 7);
	CHECK_INT(crypttab_find(text, strlen(text),
				"11111111-2222-3333-4444-555555555555", &l),
		  0);
	CHECK_STR(l.name, "home");
	CHECK_STR(l.key, "");
	/* a line without its source names nothing */
	CHECK_INT(crypttab_find("lonely\n", 7, UUID, &l), -ENOENT);
	CHECK_INT(crypttab_find("", 0, UUID, &l), -ENOENT);
	/* five fields are not crypttab's */
	CHECK_INT(crypttab_find("a UUID=" UUID " none luks extra\n",
				strlen("a UUID=" UUID " none luks extra\n"),
				UUID, &l),
		  -ENOENT);
	/* the text ends without a newline; a NUL in a line spoils it */
	CHECK_INT(
	    crypttab_find("c UUID=" UUID, strlen("c UUID=" UUID), UUID, &l), 0);
	CHECK_STR(l.name, "c");
	CHECK_INT(
	    crypttab_find("c\0UUID=" UUID, strlen("c UUID=" UUID), UUID, &l),
	    -ENOENT);
}

TEST(over_long_skipped)
{
	size_t n = CRYPTTAB_LINE_MAX + 200;
	char *text = malloc(n + 200);
	struct crypttab_line l;
	size_t k;

	/* a line past CRYPTTAB_LINE_MAX, then a good one */
	memset(text, 'x', CRYPTTAB_LINE_MAX + 10);
	memcpy(text, "big UUID=" UUID " none ",
	       strlen("big UUID=" UUID " none "));
	k = CRYPTTAB_LINE_MAX + 10;
	k += (size_t)sprintf(text + k, "\nok UUID=" UUID "\n");
	CHECK_INT(crypttab_find(text, k, UUID, &l), 0);
	CHECK_STR(l.name, "ok");
	CHECK_INT(l.lineno, 2);
	/* a name too long for a dm name */
	memset(text, 'n', CRYPTTAB_NAME_MAX);
	k = CRYPTTAB_NAME_MAX;
	k += (size_t)sprintf(text + k, " UUID=" UUID "\n");
	CHECK_INT(crypttab_find(text, k, UUID, &l), -ENOENT);
	free(text);
}

TEST(options_passed_on)
{
	char out[256];

	CHECK_INT(crypttab_pass_opts("luks,discard", out, sizeof(out)), 7);
	CHECK_STR(out, "discard");
	CHECK_INT(crypttab_pass_opts("luks,initramfs,keyscript=decrypt_"
				     "keyctl,tries=0,keyfile-offset=4,"
				     "keyfile-size=32,key-slot=1,header=/x",
				     out, sizeof(out)),
		  strlen("initramfs,key-slot=1,header=/x"));
	CHECK_STR(out, "initramfs,key-slot=1,header=/x");
	/* characters a command line would split or a shell would read */
	CHECK_INT(crypttab_pass_opts("discard,cipher=a b,x$y,,same-cpu-crypt",
				     out, sizeof(out)),
		  strlen("discard,same-cpu-crypt"));
	CHECK_STR(out, "discard,same-cpu-crypt");
	/* "tries" alone, and a name that only begins like a dropped one */
	CHECK_INT(crypttab_pass_opts("tries,triesx=1,luksx", out, sizeof(out)),
		  strlen("triesx=1,luksx"));
	CHECK_STR(out, "triesx=1,luksx");
	/* what does not fit is left out, the rest kept */
	CHECK_INT(crypttab_pass_opts("discard,readonly", out, 10), 7);
	CHECK_STR(out, "discard");
	CHECK_INT(crypttab_pass_opts("", out, sizeof(out)), 0);
	CHECK_STR(out, "");
}

TEST_MAIN("test_crypttab", debian_installer_line, comments_tabs_and_forms,
	  over_long_skipped, options_passed_on)
