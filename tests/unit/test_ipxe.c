/* test_ipxe.c - the iPXE script subset, one behaviour per test. */
#include "test.h"
#include "cfg/ipxe.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>

#include "tfs.h"

static int run(struct tfs *t, const char *text, const struct ipxe_var *v,
	       size_t n)
{
	tfs_init(t);
	return ipxe_parse_buf(&t->ctx, "/boot/boot.ipxe", v, n, text,
			      strlen(text));
}

/* The @i-th warning's message (NULL past the end). */
static const char *warn_msg(struct tfs *t, int i)
{
	struct warning *w = t->out.warnings;

	while (w && i--)
		w = w->next;
	return w ? w->msg : NULL;
}

/* The first warning whose message holds @text, or NULL. */
static const struct warning *warn_like(struct tfs *t, const char *text)
{
	const struct warning *w = t->out.warnings;

	while (w && !strstr(w->msg, text))
		w = w->next;
	return w;
}

static int warn_line(struct tfs *t, int i)
{
	struct warning *w = t->out.warnings;

	while (w && i--)
		w = w->next;
	return w ? w->line : -1;
}

TEST(kernel_initrd_boot)
{
	struct tfs t;
	struct entry *e;

	CHECK_INT(run(&t,
		      "#!ipxe\n# a comment\n"
		      "kernel vmlinuz root=/dev/sda1 quiet\n"
		      "initrd initrd.img\ninitrd --name extra /x/extra.cpio\n"
		      "boot\n",
		      NULL, 0),
		  1);
	e = nth(&t, 0);
	CHECK_STR(e->kernel.path, "/boot/vmlinuz");
	CHECK_STR(e->kernel.dev, NULL);
	CHECK_INT(e->n_initrds, 2);
	CHECK_STR(e->initrds[0].path, "/boot/initrd.img");
	CHECK_STR(e->initrds[1].path, "/x/extra.cpio");
	CHECK_STR(e->cmdline, "root=/dev/sda1 quiet");
	CHECK_STR(e->title, "vmlinuz");
	CHECK_STR(e->source, "/boot/boot.ipxe");
	CHECK_INT(e->line, 6);
	CHECK_INT(e->format, FMT_IPXE);
	CHECK(e->is_default);
	CHECK(!e->disabled);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(chain_with_options_is_one_entry)
{
	struct tfs t;
	struct entry *e;

	CHECK_INT(run(&t,
		      "#!ipxe\ninitrd -n rd --autofree rd.gz\n"
		      "chain --replace -a --name=k http://srv/k/vmlinuz a=1 "
		      "b\n",
		      NULL, 0),
		  1);
	e = nth(&t, 0);
	CHECK_STR(e->kernel.path, "http://srv/k/vmlinuz"); /* verbatim */
	CHECK_STR(e->title, "k");
	CHECK_STR(e->cmdline, "a=1 b");
	CHECK_INT(e->n_initrds, 1);
	CHECK_STR(e->initrds[0].path, "/boot/rd.gz");
	CHECK(e->disabled && strstr(e->disabled, "http://srv/k/vmlinuz") &&
	      strstr(e->disabled, "network"));
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(imgargs_replaces_arguments)
{
	struct tfs t;

	run(&t,
	    "#!ipxe\nkernel tftp://10.0.0.1/vmlinuz old args\n"
	    "imgargs vmlinuz new  args\nboot vmlinuz\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->cmdline, "new args");
	CHECK_STR(nth(&t, 0)->kernel.path, "tftp://10.0.0.1/vmlinuz");
	tfs_done(&t);
	run(&t, "#!ipxe\nkernel vmlinuz a\nimgargs nope b\nboot\n", NULL, 0);
	/* the failed imgargs ends the script, as in iPXE */
	CHECK_INT(t.out.count, 0);
	CHECK_INT(n_warn(&t), 1);
	CHECK(strstr(warn_msg(&t, 0), "no image named 'nope'"));
	CHECK_INT(warn_line(&t, 0), 3);
	tfs_done(&t);
}

TEST(variables_from_the_table_and_set)
{
	static const struct ipxe_var v[] = {
	    {"next-server", "10.0.0.1"},
	    {"net0/mac", "52:54:00:12:34:56"},
	    {"hostname", "box"},
	};
	struct tfs t;

	run(&t,
	    "#!ipxe\nset base http://${next-server}/os\n"
	    "set i 0\n"
	    "kernel ${base}/vmlinuz host=${hostname} mac=${mac} "
	    "m0=${net${i}/mac}\nboot\n",
	    v, 3);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "http://10.0.0.1/os/vmlinuz");
	CHECK_STR(nth(&t, 0)->cmdline, "host=box mac=52:54:00:12:34:56 "
				       "m0=52:54:00:12:34:56");
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(type_suffix_is_a_type_not_a_default)
{
	static const struct ipxe_var v[] = {
	    {"net0/mac", "52:54:00:ab:cd:ef"},
	    {"user", "a b/c"},
	};
	struct tfs t;

	run(&t,
	    "#!ipxe\nkernel k h=${net0/mac:hexhyp} r=${mac:hexraw} "
	    "s=${net0/mac:string} u=${user:uristring} d=${nope:fallback}\n"
	    "boot\n",
	    v, 2);
	CHECK_STR(nth(&t, 0)->cmdline, "h=52-54-00-ab-cd-ef r=525400abcdef "
				       "s=52:54:00:ab:cd:ef u=a%20b%2Fc d=");
	CHECK_INT(n_warn(&t), 1); /* "fallback" is no type */
	CHECK(strstr(warn_msg(&t, 0), "no such type"));
	tfs_done(&t);
}

TEST(unset_variable_warns_with_line)
{
	struct tfs t;

	run(&t, "#!ipxe\n\nkernel k a=${missing}b\nboot\n", NULL, 0);
	CHECK_STR(nth(&t, 0)->cmdline, "a=b");
	CHECK_INT(n_warn(&t), 1);
	CHECK(strstr(warn_msg(&t, 0), "${missing} is not set"));
	CHECK_INT(warn_line(&t, 0), 3);
	CHECK_STR(t.out.warnings->file, "/boot/boot.ipxe");
	tfs_done(&t);
	/* isset is how a script asks: no warning there */
	run(&t, "#!ipxe\nisset ${x} || kernel k\nboot\n", NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(unknown_command_warns_and_goes_on)
{
	struct tfs t;

	run(&t,
	    "#!ipxe\ndhcp\necho hi\nkernel k\ninitrd i\nifopen net0\n"
	    "sanboot iscsi:10.0.0.1::::iqn.x\nboot\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_INT(n_warn(&t), 1);
	CHECK_STR(warn_msg(&t, 0), "ipxe: `sanboot` is not supported; skipped");
	CHECK_INT(warn_line(&t, 0), 7);
	tfs_done(&t);
}

TEST(missing_header_refused)
{
	struct tfs t;

	CHECK_INT(run(&t, "kernel k\nboot\n", NULL, 0), -ENOEXEC);
	CHECK_INT(t.out.count, 0);
	CHECK_INT(n_warn(&t), 1);
	CHECK(strstr(warn_msg(&t, 0), "not an iPXE script"));
	tfs_done(&t);
	CHECK_INT(run(&t, "#!ipxekernel\n", NULL, 0), -ENOEXEC);
	tfs_done(&t);
	CHECK_INT(run(&t, "#!gpxe\r\nkernel k\r\nboot\r\n", NULL, 0), 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/k");
	tfs_done(&t);
}

TEST(two_boots_two_entries)
{
	struct tfs t;

	run(&t,
	    "#!ipxe\nkernel a x=1\ninitrd ia\nboot || goto failed\n"
	    "kernel b x=2\ninitrd ib\nboot\n:failed\nexit\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/a");
	CHECK_STR(nth(&t, 1)->kernel.path, "/boot/b");
	CHECK_INT(nth(&t, 1)->n_initrds, 1); /* not a's initrd */
	CHECK_STR(nth(&t, 1)->initrds[0].path, "/boot/ib");
	CHECK_STR(nth(&t, 1)->cmdline, "x=2");
	CHECK(nth(&t, 0)->is_default && !nth(&t, 1)->is_default);
	CHECK(strcmp(nth(&t, 0)->id, nth(&t, 1)->id) != 0);
	tfs_done(&t);
}

TEST(menu_items_become_entries)
{
	struct tfs t;

	run(&t,
	    "#!ipxe\n:start\nmenu Boot menu\nitem --gap -- Systems\n"
	    "item deb Debian 12\nitem --default fed Fedora\nitem sub More\n"
	    "item shell Shell\n"
	    "choose --timeout 5000 target && goto ${target}\n"
	    ":deb\nkernel deb/linux\ninitrd deb/initrd.gz\nboot || goto start\n"
	    ":fed\nkernel fed/vmlinuz\nboot || goto start\n"
	    ":sub\nmenu More\nitem old Old kernel\nchoose t && goto ${t}\n"
	    ":old\nkernel old/vmlinuz\nboot\n"
	    ":shell\nshell\ngoto start\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 3);
	CHECK_STR(nth(&t, 0)->title, "Debian 12");
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/deb/linux");
	CHECK_STR(nth(&t, 0)->initrds[0].path, "/boot/deb/initrd.gz");
	CHECK_STR(nth(&t, 0)->group, NULL);
	CHECK_STR(nth(&t, 1)->title, "Fedora");
	CHECK(nth(&t, 1)->is_default && !nth(&t, 0)->is_default);
	CHECK_STR(nth(&t, 2)->title, "Old kernel");
	CHECK_STR(nth(&t, 2)->group, "More");
	CHECK_STR(nth(&t, 2)->id, "boot.ipxe:23:sub/old");
	CHECK_INT(t.out.timeout_ds, 50);
	CHECK_INT(n_warn(&t), 0); /* the shell item loops back quietly */
	tfs_done(&t);
}

TEST(goto_loop_is_capped)
{
	struct tfs t;

	run(&t, "#!ipxe\n:a\ngoto b\n:b\ngoto a\n", NULL, 0);
	CHECK_INT(t.out.count, 0);
	CHECK_INT(n_warn(&t), 1);
	CHECK(strstr(warn_msg(&t, 0), "gotos"));
	tfs_done(&t);
	/* a label later in the file, and back */
	run(&t,
	    "#!ipxe\ngoto second\n:first\nkernel one\nboot\nexit\n"
	    ":second\nkernel two\nboot\ngoto first\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/two");
	CHECK_STR(nth(&t, 1)->kernel.path, "/boot/one");
	tfs_done(&t);
}

TEST(goto_takes_the_first_of_twin_labels)
{
	char script[4096];
	int n = snprintf(script, sizeof(script), "#!ipxe\ngoto m\n");
	struct tfs t;

	/* labels on both sides of "m" in name and in place; iPXE searches
	 * from the top, so the first ":m" wins over the later one */
	for (char c = 'z'; c > 'a'; c--)
		n += snprintf(script + n, sizeof(script) - n,
			      ":%c\nkernel %c\nboot\nexit\n", c, c);
	snprintf(script + n, sizeof(script) - n,
		 ":m\nkernel twin\nboot\nexit\n:a\nkernel a\nboot\n");
	run(&t, script, NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/m");
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
	run(&t, "#!ipxe\ngoto a\n:b\nkernel b\nboot\n:a\nkernel a\nboot\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/a");
	tfs_done(&t);
}

TEST(expansion_is_budgeted)
{
	char script[4096];
	int n = snprintf(script, sizeof(script),
			 "#!ipxe\nkernel first\nboot\nset w ");
	struct tfs t;

	/* each pass writes four words cut at the line's 4 KiB, ~0.2 MiB of
	 * expansion: the budget ends the loop long before its 1,024 gotos
	 * (the fuzzer's script cost 54 s and 280 MB before) */
	memset(script + n, 'w', 3000);
	n += 3000;
	for (int i = 0; i < 4; i++)
		n += snprintf(
		    script + n, sizeof(script) - n, "%s",
		    i ? " ${w}${w}${w}${w}${w}${w}${w}${w}"
		      : "\n:l\nset x ${w}${w}${w}${w}${w}${w}${w}${w}");
	snprintf(script + n, sizeof(script) - n,
		 "\ngoto l\nkernel never\nboot\n");
	run(&t, script, NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/first");
	CHECK(!warn_like(&t, "gotos"));
	CHECK(warn_like(&t, "expanded to more than 16 MiB"));
	tfs_done(&t);
}

TEST(conditions_and_failures)
{
	static const struct ipxe_var v[] = {{"platform", "efi"}};
	struct tfs t;

	run(&t,
	    "#!ipxe\niseq ${platform} efi && set k vmlinuz.efi || set k bz\n"
	    "kernel ${k}\nboot\n"
	    "goto nowhere\nkernel never\nboot\n",
	    v, 1);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/vmlinuz.efi");
	CHECK_INT(n_warn(&t), 1);
	CHECK(strstr(warn_msg(&t, 0), "no label ':nowhere'"));
	tfs_done(&t);
	/* prompt times out; the trailing || keeps the script going */
	run(&t,
	    "#!ipxe\nprompt --timeout 2000 Press a key && shell ||\n"
	    "kernel k\\\n  quiet\nboot\n",
	    NULL, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->cmdline, "quiet");
	tfs_done(&t);
}

TEST(fs_root_reads_autoexec)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/autoexec.ipxe", "#!ipxe\nkernel /vmlinuz\nboot\n");
	tfs_write(&t, "/boot.ipxe", "#!ipxe\nkernel /other\nboot\n");
	ipxe_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/vmlinuz");
	CHECK_STR(nth(&t, 0)->source, "/autoexec.ipxe");
	tfs_done(&t);
	tfs_init(&t);
	CHECK_INT(ipxe_parse(&t.ctx, "/none.ipxe", NULL, 0), -ENOENT);
	ipxe_parse_fs(&t.ctx); /* nothing there: nothing said */
	CHECK_INT(t.out.count + n_warn(&t), 0);
	tfs_done(&t);
}

TEST(nbp_and_scripts_are_disabled)
{
	struct tfs t;

	run(&t, "#!ipxe\nchain pxelinux.0\nchain menu.ipxe\n", NULL, 0);
	CHECK_INT(t.out.count, 2);
	CHECK(nth(&t, 0)->disabled && strstr(nth(&t, 0)->disabled, "PXE"));
	CHECK(nth(&t, 1)->disabled &&
	      strstr(nth(&t, 1)->disabled, "iPXE script"));
	tfs_done(&t);
}

TEST(is_url)
{
	CHECK(ipxe_is_url("http://a/b"));
	CHECK(ipxe_is_url("tftp://10.0.0.1/x"));
	CHECK(ipxe_is_url("https://a"));
	CHECK(!ipxe_is_url("/boot/vmlinuz"));
	CHECK(!ipxe_is_url("vmlinuz"));
	CHECK(!ipxe_is_url("a:b"));
	CHECK(!ipxe_is_url("://x"));
}

TEST_MAIN("test_ipxe", kernel_initrd_boot, chain_with_options_is_one_entry,
	  imgargs_replaces_arguments, variables_from_the_table_and_set,
	  type_suffix_is_a_type_not_a_default, unset_variable_warns_with_line,
	  unknown_command_warns_and_goes_on, missing_header_refused,
	  two_boots_two_entries, menu_items_become_entries, goto_loop_is_capped,
	  goto_takes_the_first_of_twin_labels, expansion_is_budgeted,
	  conditions_and_failures, fs_root_reads_autoexec,
	  nbp_and_scripts_are_disabled, is_url)
