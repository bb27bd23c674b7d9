/* test_net_cfg.c - a network root's config (cfg/net_cfg.c): only the
 * config the network source found is read, by its loader's parser, with
 * pxelinux's working directory at the path prefix; no config gives the
 * reason as a warning. A scratch directory plays the server. */
#include "test.h"
#include "cfg/cfg.h"
#include "cfg/ipxe.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>

#include "tfs.h"

/* A server tree that also holds files a disk search would find. */
static void server(struct tfs *t, struct fs_net *n)
{
	tfs_init(t);
	tfs_write(t, "/boot/syslinux/extlinux.conf",
		  "DEFAULT disk\nLABEL disk\n  KERNEL /vmlinuz-disk\n");
	tfs_write(t, "/boot/grub/grub.cfg",
		  "menuentry disk { linux /vmlinuz-disk }\n");
	tfs_write(t, "/pxe/pxelinux.cfg/default",
		  "DEFAULT dflt\nLABEL dflt\n  KERNEL vmlinuz-d\n");
	tfs_write(t, "/pxe/pxelinux.cfg/01-52-54-00-12-34-56",
		  "DEFAULT mac\nTIMEOUT 30\nLABEL other\n  KERNEL other\n"
		  "LABEL mac\n  KERNEL vmlinuz-m\n  APPEND initrd=initrd.m "
		  "console=ttyS0\n");
	tfs_write(t, "/grub/grub.cfg-01-52-54-00-12-34-56",
		  "set default=1\nmenuentry a { linux /k-a }\n"
		  "menuentry b { linux /k-b x=1\n initrd /i-b }\n");
	tfs_write(t, "/boot.ipxe",
		  "#!ipxe\nkernel http://${next-server}/k "
		  "ip=${ip}\nboot\n");
	memset(n, 0, sizeof(*n));
	t->fs.net = n;
}

TEST(pxelinux_config_at_its_prefix_and_nothing_else)
{
	struct tfs t;
	struct fs_net n;
	struct entry *e;

	server(&t, &n);
	n.loader = FS_NET_PXELINUX;
	n.config = "/pxe/pxelinux.cfg/01-52-54-00-12-34-56";
	n.prefix = "/pxe/";
	cfg_scan_fs(&t.ctx);
	CHECK_INT((int)t.out.count, 2);
	e = nth(&t, 1);
	CHECK_STR(e->title, "mac");
	CHECK_STR(e->kernel.path, "/pxe/vmlinuz-m");
	CHECK_INT((int)e->n_initrds, 1);
	CHECK_STR(e->initrds[0].path, "/pxe/initrd.m");
	CHECK_STR(e->cmdline,
		  "BOOT_IMAGE=vmlinuz-m initrd=initrd.m console=ttyS0");
	CHECK(e->is_default);
	CHECK(!nth(&t, 0)->is_default);
	for (size_t i = 0; i < t.out.count; i++)
		CHECK(strstr(nth(&t, (int)i)->kernel.path, "disk") == NULL);
	tfs_done(&t);
}

TEST(lpxelinux_addresses_kept_as_written)
{
	struct tfs t;
	struct fs_net n;
	struct entry *e;

	server(&t, &n);
	tfs_write(&t, "/pxelinux.cfg/default",
		  "LABEL h\n  KERNEL http://10.0.2.100/k/vmlinuz\n"
		  "  APPEND initrd=tftp://10.0.2.2/i.gz,http://h/j.gz x=1\n");
	n.loader = FS_NET_PXELINUX;
	n.config = "/pxelinux.cfg/default";
	cfg_scan_fs(&t.ctx);
	CHECK_INT((int)t.out.count, 1);
	e = nth(&t, 0);
	CHECK_STR(e->kernel.path, "http://10.0.2.100/k/vmlinuz");
	CHECK_INT((int)e->n_initrds, 2);
	CHECK_STR(e->initrds[0].path, "tftp://10.0.2.2/i.gz");
	CHECK_STR(e->initrds[1].path, "http://h/j.gz");
	CHECK_STR(e->disabled, NULL);
	tfs_done(&t);
}

TEST(grub_config_runs_as_grub_cfg)
{
	struct tfs t;
	struct fs_net n;

	server(&t, &n);
	n.loader = FS_NET_GRUB;
	n.config = "/grub/grub.cfg-01-52-54-00-12-34-56";
	n.prefix = "/grub";
	cfg_scan_fs(&t.ctx);
	CHECK_INT((int)t.out.count, 2);
	CHECK_STR(nth(&t, 1)->kernel.path, "/k-b");
	CHECK(nth(&t, 1)->is_default);
	tfs_done(&t);
}

TEST(ipxe_script_gets_the_lease_variables)
{
	static const struct ipxe_var vars[] = {{"ip", "10.0.2.15"},
					       {"next-server", "10.0.2.2"}};
	struct tfs t;
	struct fs_net n;

	server(&t, &n);
	n.loader = FS_NET_IPXE;
	n.config = "/boot.ipxe";
	n.vars = vars;
	n.n_vars = 2;
	cfg_scan_fs(&t.ctx);
	CHECK_INT((int)t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "http://10.0.2.2/k");
	CHECK_STR(nth(&t, 0)->cmdline, "ip=10.0.2.15");
	CHECK_STR(nth(&t, 0)->disabled, NULL);
	tfs_done(&t);
}

TEST(no_config_is_a_warning_with_the_reason)
{
	struct tfs t;
	struct fs_net n;

	server(&t, &n);
	n.loader = FS_NET_PXELINUX;
	n.why = "eth0: the server 10.0.2.2 has none of the 12 configs";
	cfg_scan_fs(&t.ctx);
	CHECK_INT((int)t.out.count, 0);
	CHECK_INT((int)n_warn(&t), 1);
	CHECK_STR(t.out.warnings->msg, n.why);
	tfs_done(&t);
}

TEST_MAIN("test_net_cfg", pxelinux_config_at_its_prefix_and_nothing_else,
	  lpxelinux_addresses_kept_as_written, grub_config_runs_as_grub_cfg,
	  ipxe_script_gets_the_lease_variables,
	  no_config_is_a_warning_with_the_reason)
