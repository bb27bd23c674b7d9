/* test_net.c - addresses, the udhcpc and udhcpc6 leases, DNS servers, the
 * config names pxelinux and GRUB look for, and which loader a boot file
 * is. */
#include "test.h"
#include "net/dns.h"
#include "net/lease.h"
#include "net/names.h"
#include "net/search.h"
#include "net/url.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

static int parse(const char *text, struct net_url *u, const char **why)
{
	*why = NULL;
	return net_url_parse(text, strlen(text), u, why);
}

/* Resolve @ref against @base and give the result as text. */
static const char *resolved(const char *base, const char *ref)
{
	static char buf[NET_URL_TEXT_MAX];
	struct net_url b, r;
	const char *why;

	if (parse(base, &b, &why) < 0 ||
	    net_url_resolve(&b, ref, strlen(ref), &r, &why) < 0 ||
	    net_url_format(&r, buf, sizeof(buf)) < 0)
		return "(error)";
	return buf;
}

TEST(url_tftp_name_and_path)
{
	struct net_url u;
	const char *why;

	CHECK_INT(parse("tftp://boot.example/pxelinux.cfg/default", &u, &why),
		  0);
	CHECK_INT(u.scheme, NET_SCHEME_TFTP);
	CHECK_INT(u.host_kind, NET_HOST_NAME);
	CHECK_STR(u.host, "boot.example");
	CHECK_INT(u.port, 69);
	CHECK_STR(u.path, "/pxelinux.cfg/default");
	CHECK_INT(u.has_query, 0);
}

TEST(url_http_ipv4_port_query)
{
	struct net_url u;
	const char *why;
	char buf[256];

	CHECK_INT(
	    parse("HTTP://10.0.2.2:8080/boot/a%20b.cfg?mac=52#top", &u, &why),
	    0);
	CHECK_INT(u.scheme, NET_SCHEME_HTTP);
	CHECK_INT(u.host_kind, NET_HOST_IPV4);
	CHECK_INT(u.ip[0], 10);
	CHECK_INT(u.ip[3], 2);
	CHECK_INT(u.port, 8080);
	CHECK_STR(u.path, "/boot/a b.cfg");
	CHECK_STR(u.query, "mac=52");
	CHECK_INT(net_url_format(&u, buf, sizeof(buf)), 42);
	CHECK_STR(buf, "http://10.0.2.2:8080/boot/a%20b.cfg?mac=52");
}

TEST(url_ipv6_and_defaults)
{
	struct net_url u;
	const char *why;
	char buf[128];

	CHECK_INT(parse("http://[fe80::1]/x", &u, &why), 0);
	CHECK_INT(u.host_kind, NET_HOST_IPV6);
	CHECK_STR(u.host, "fe80::1");
	CHECK_INT(u.port, 80);
	CHECK(net_url_format(&u, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "http://[fe80::1]/x");
	CHECK_INT(parse("tftp://[2001:db8::2]:6969", &u, &why), 0);
	CHECK_INT(u.port, 6969);
	CHECK_STR(u.path, "/");
	CHECK_INT(parse("http://[fe80::1/x", &u, &why), -EINVAL);
	CHECK_INT(parse("http://[fe80::g]/x", &u, &why), -EINVAL);
	CHECK_INT(parse("http://[fe80::1%eth0]/x", &u, &why), -EINVAL);
	/* a '?' is part of a tftp file name; http's is the query */
	CHECK_INT(parse("tftp://h/a?b", &u, &why), 0);
	CHECK_STR(u.path, "/a?b");
	CHECK(net_url_format(&u, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "tftp://h/a%3Fb");
}

TEST(url_refusals_say_why)
{
	struct net_url u;
	const char *why;

	CHECK_INT(parse("https://h/x", &u, &why), -EPROTONOSUPPORT);
	CHECK_STR(why, "https is not supported yet");
	CHECK_INT(parse("ftp://h/x", &u, &why), -EPROTONOSUPPORT);
	CHECK_STR(why, "only tftp:// and http:// addresses are supported");
	CHECK_INT(parse("/boot/x", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h/a\tb", &u, &why), -EINVAL);
	CHECK_STR(why, "the address has a control character in it");
	CHECK_INT(parse("http://h/a%0ab", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h/a%00b", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h/a%zz", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h/a%4", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h:0/", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h:65536/", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h:80x/", &u, &why), -EINVAL);
	CHECK_INT(parse("http://user@h/", &u, &why), -EINVAL);
	CHECK_INT(parse("http:///x", &u, &why), -EINVAL);
	CHECK_INT(parse("http://10.0.2.256/", &u, &why), -EINVAL);
	CHECK_INT(parse("http://010.0.2.1/", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h_st!/", &u, &why), -EINVAL);
	CHECK_INT(parse("http://h:/x", &u, &why), 0);
	CHECK_INT(u.port, 80);
}

TEST(url_over_long_parts)
{
	static char text[NET_URL_TEXT_MAX + 16];
	struct net_url u;
	const char *why;

	memset(text, 'a', sizeof(text));
	memcpy(text, "http://", 7);
	text[7 + NET_URL_HOST_MAX] = '\0';
	CHECK_INT(parse(text, &u, &why), -ENAMETOOLONG);
	CHECK_STR(why, "the server name in the address is too long");
	text[7 + NET_URL_HOST_MAX - 1] = '\0';
	CHECK_INT(parse(text, &u, &why), 0);
	memset(text, 'a', sizeof(text));
	memcpy(text, "http://h/", 9);
	text[9 + NET_URL_PATH_MAX] = '\0';
	CHECK_INT(parse(text, &u, &why), -ENAMETOOLONG);
	CHECK_STR(why, "the path in the address is too long");
	text[9 + NET_URL_PATH_MAX - 2] = '\0';
	CHECK_INT(parse(text, &u, &why), 0);
	memset(text, 'a', sizeof(text));
	memcpy(text, "http://h/", 9);
	text[sizeof(text) - 1] = '\0';
	CHECK_INT(parse(text, &u, &why), -ENAMETOOLONG);
	CHECK_STR(why, "the address is too long");
}

TEST(url_resolve_rfc3986)
{
	const char *b = "http://a/b/c/d;p?q";

	/* RFC 3986 5.4.1 and 5.4.2, those that apply to http paths */
	CHECK_STR(resolved(b, "g"), "http://a/b/c/g");
	CHECK_STR(resolved(b, "./g"), "http://a/b/c/g");
	CHECK_STR(resolved(b, "g/"), "http://a/b/c/g/");
	CHECK_STR(resolved(b, "/g"), "http://a/g");
	CHECK_STR(resolved(b, "//g"), "http://g/");
	CHECK_STR(resolved(b, "?y"), "http://a/b/c/d;p?y");
	CHECK_STR(resolved(b, "g?y"), "http://a/b/c/g?y");
	CHECK_STR(resolved(b, "#s"), "http://a/b/c/d;p?q");
	CHECK_STR(resolved(b, ""), "http://a/b/c/d;p?q");
	CHECK_STR(resolved(b, "."), "http://a/b/c/");
	CHECK_STR(resolved(b, ".."), "http://a/b/");
	CHECK_STR(resolved(b, "../g"), "http://a/b/g");
	CHECK_STR(resolved(b, "../.."), "http://a/");
	CHECK_STR(resolved(b, "../../../g"), "http://a/g");
	CHECK_STR(resolved(b, "../../../../g"), "http://a/g");
	CHECK_STR(resolved(b, "/./g"), "http://a/g");
	CHECK_STR(resolved(b, "/../g"), "http://a/g");
	CHECK_STR(resolved(b, "g."), "http://a/b/c/g.");
	CHECK_STR(resolved(b, "..g"), "http://a/b/c/..g");
	CHECK_STR(resolved(b, "./g/."), "http://a/b/c/g/");
	CHECK_STR(resolved(b, "g/../h"), "http://a/b/c/h");
	CHECK_STR(resolved(b, "tftp://s:70/x"), "tftp://s:70/x");
	CHECK_STR(resolved(b, "https://s/x"), "(error)");
}

TEST(url_resolve_boot_dir)
{
	const char *b = "tftp://10.0.2.2/boot/pxelinux.0";

	CHECK_STR(resolved(b, "pxelinux.cfg/default"),
		  "tftp://10.0.2.2/boot/pxelinux.cfg/default");
	CHECK_STR(resolved(b, "../../../../etc/passwd"),
		  "tftp://10.0.2.2/etc/passwd");
	CHECK_STR(resolved(b, "%2e%2e/x"), "tftp://10.0.2.2/x");
	CHECK_STR(resolved(b, "a%20b"), "tftp://10.0.2.2/boot/a%20b");
	CHECK_STR(resolved(b, "a\x01"), "(error)");
	CHECK_STR(resolved("http://s:8000/d/", "k?x=1"),
		  "http://s:8000/d/k?x=1");
}

/* What busybox 1.35 udhcpc puts in the script's environment for QEMU's
 * user network with a boot file, and the mac line our script adds. */
static const char slirp_lease[] = "interface=eth0\n"
				  "mac=52:54:00:12:34:56\n"
				  "ip=10.0.2.15\n"
				  "siaddr=10.0.2.2\n"
				  "boot_file=pxelinux.0\n"
				  "subnet=255.255.255.0\n"
				  "mask=24\n"
				  "router=10.0.2.2\n"
				  "dns=10.0.2.3\n"
				  "lease=86400\n"
				  "serverid=10.0.2.2\n"
				  "opt252=7769706164\n";

TEST(lease_qemu_user_network)
{
	struct net_lease l;
	const char *why = NULL;

	CHECK_INT(net_lease_parse(slirp_lease, strlen(slirp_lease), &l, &why),
		  0);
	CHECK_STR(l.interface, "eth0");
	CHECK_INT(l.mac[0], 0x52);
	CHECK_INT(l.mac[5], 0x56);
	CHECK_INT(l.ip[3], 15);
	CHECK_INT(l.subnet[2], 255);
	CHECK_INT(l.subnet[3], 0);
	CHECK_INT(l.router[3], 2);
	CHECK_INT(l.server_id[3], 2);
	CHECK_INT(l.siaddr[3], 2);
	CHECK_INT(l.has, NET_LEASE_MAC | NET_LEASE_SUBNET | NET_LEASE_ROUTER |
			     NET_LEASE_SERVER_ID | NET_LEASE_SIADDR |
			     NET_LEASE_DNS);
	CHECK_INT(l.dns[3], 3);
	CHECK_STR(l.boot_file, "pxelinux.0");
	CHECK_STR(l.tftp_server, "");
	CHECK_STR(l.config_file, "");
	CHECK(l.dropped == NULL);
}

TEST(lease_pxe_options)
{
	static const char text[] = "interface=enp1s0\r\n"
				   "ip=192.168.1.10\n"
				   "boot_file=ignored.0\n"
				   "bootfile=boot/lpxelinux.0\n"
				   "sname=fromfield\n"
				   "tftp=tftp.example\n"
				   "pxeconffile=http://192.168.1.1/menu.cfg\n"
				   "pxepathprefix=http://192.168.1.1/\n"
				   "reboottime=600\n"
				   "hostname=client-7\n"
				   "router=192.168.1.1 192.168.1.254\n"
				   "mask=20\n"
				   "no equals sign here\n"
				   "unknown=ignored\n";
	struct net_lease l;
	const char *why = NULL;

	CHECK_INT(net_lease_parse(text, strlen(text), &l, &why), 0);
	CHECK_STR(l.interface, "enp1s0");
	CHECK_STR(l.boot_file, "boot/lpxelinux.0");
	CHECK_STR(l.tftp_server, "tftp.example");
	CHECK_STR(l.config_file, "http://192.168.1.1/menu.cfg");
	CHECK_STR(l.path_prefix, "http://192.168.1.1/");
	CHECK_INT(l.reboot_time, 600);
	CHECK_STR(l.hostname, "client-7");
	CHECK_INT(l.router[3], 1);
	CHECK_INT(l.subnet[1], 255);
	CHECK_INT(l.subnet[2], 240);
	CHECK_INT(l.subnet[3], 0);
	CHECK_INT(l.has & NET_LEASE_MAC, 0);
	CHECK(l.has & NET_LEASE_REBOOT_TIME);
}

/* A boot file name with a terminal's escape sequence in it (a hostile
 * DHCP server, tests/e2e/netpeer.py's garbage lease): left out, and the
 * reason kept apart from the first dropped field's (the host name's). */
TEST(lease_boot_file_with_control_characters)
{
	static const char text[] = "interface=eth0\nip=10.0.3.15\n"
				   "hostname=$(reboot)\n"
				   "bootfile=pxe\x1b]0;PWNED\x07linux.0\n";
	struct net_lease l;
	const char *why = NULL;

	CHECK_INT(net_lease_parse(text, strlen(text), &l, &why), 0);
	CHECK_STR(l.boot_file, "");
	CHECK_STR(l.dropped,
		  "the DHCP server's host name (option 12) is not valid");
	CHECK_STR(l.dropped_boot,
		  "the DHCP server's boot file name (option 67) is not valid");
}

TEST(lease_bad_values)
{
	static const char bad_host[] = "interface=eth0\nip=10.0.0.2\n"
				       "hostname=bad name\nreboottime=x\n";
	struct net_lease l;
	const char *why = NULL;

	CHECK_INT(net_lease_parse(bad_host, strlen(bad_host), &l, &why), 0);
	CHECK_STR(l.hostname, "");
	CHECK_STR(l.dropped,
		  "the DHCP server's host name (option 12) is not valid");
	CHECK_INT(l.has & NET_LEASE_REBOOT_TIME, 0);
	CHECK(l.dropped_boot == NULL);

	CHECK_INT(net_lease_parse("interface=eth0\n", 15, &l, &why), -EINVAL);
	CHECK_STR(why, "the DHCP server gave no IPv4 address");
	CHECK_INT(net_lease_parse("interface=eth0\nip=\n", 19, &l, &why),
		  -EINVAL);
	CHECK_INT(net_lease_parse("ip=10.0.0.2\n", 12, &l, &why), -EINVAL);
	CHECK_STR(why, "the DHCP lease names no network interface");
	CHECK_INT(
	    net_lease_parse("interface=eth0\nip=10.0.0.300\n", 29, &l, &why),
	    -EINVAL);
	CHECK_STR(why, "the lease's IPv4 address is not valid");
	CHECK_INT(
	    net_lease_parse("interface=../x\nip=10.0.0.3\n", 27, &l, &why),
	    -EINVAL);
	CHECK_INT(net_lease_parse("interface=e\0\nip=10.0.0.3\n", 25, &l, &why),
		  -EINVAL);
	CHECK_STR(why, "the DHCP lease file is not text");
}

static const struct net_client qemu_client = {
    NULL, {0x52, 0x54, 0x00, 0x12, 0x34, 0x56}, {10, 0, 2, 15}, NULL};

TEST(pxelinux_names_qemu)
{
	static const char *const want[] = {
	    "pxelinux.cfg/01-52-54-00-12-34-56",
	    "pxelinux.cfg/0A00020F",
	    "pxelinux.cfg/0A00020",
	    "pxelinux.cfg/0A0002",
	    "pxelinux.cfg/0A000",
	    "pxelinux.cfg/0A00",
	    "pxelinux.cfg/0A0",
	    "pxelinux.cfg/0A",
	    "pxelinux.cfg/0",
	    "pxelinux.cfg/default",
	};
	static struct net_names n;
	char prefix[64];

	CHECK_INT(net_pxelinux_prefix("pxelinux.0", prefix, sizeof(prefix)), 0);
	CHECK_STR(prefix, "");
	CHECK_INT(net_pxelinux_names(prefix, NULL, &qemu_client, &n), 0);
	CHECK_INT(n.count, 10);
	for (size_t i = 0; i < 10 && i < n.count; i++)
		CHECK_STR(n.name[i], want[i]);
}

TEST(pxelinux_names_uuid_and_209)
{
	static const uint8_t uuid[16] = {0x9c, 0xfe, 0x24, 0x5e, 0xd0, 0xc8,
					 0x4d, 0x45, 0xa7, 0x9f, 0x54, 0xea,
					 0x5f, 0xbd, 0x3d, 0x97};
	static const uint8_t no_version[16] = {0};
	struct net_client c = qemu_client;
	static struct net_names n;
	char prefix[64];

	CHECK_INT(
	    net_pxelinux_prefix("boot/x86/lpxelinux.0", prefix, sizeof(prefix)),
	    0);
	CHECK_STR(prefix, "boot/x86/");
	c.uuid = uuid;
	CHECK_INT(net_pxelinux_names(prefix, "menu/my.cfg", &c, &n), 0);
	CHECK_INT(n.count, 12);
	CHECK_STR(n.name[0], "boot/x86/menu/my.cfg");
	CHECK_STR(n.name[1],
		  "boot/x86/pxelinux.cfg/9cfe245e-d0c8-4d45-a79f-54ea5fbd3d97");
	CHECK_STR(n.name[2], "boot/x86/pxelinux.cfg/01-52-54-00-12-34-56");
	CHECK_STR(n.name[11], "boot/x86/pxelinux.cfg/default");
	c.uuid = no_version;
	CHECK_INT(net_pxelinux_names("", "http://s/m.cfg", &c, &n), 0);
	CHECK_INT(n.count, 11);
	CHECK_STR(n.name[0], "http://s/m.cfg");
	CHECK_STR(n.name[1], "pxelinux.cfg/01-52-54-00-12-34-56");
	/* syslinux's prefix ends at any character a name part cannot have */
	CHECK_INT(net_pxelinux_prefix("srv::boot_pxelinux.0", prefix, 64), 0);
	CHECK_STR(prefix, "srv::boot_");
}

TEST(grub_names_tftp_and_http)
{
	static const uint8_t uuid[16] = {0x77, 0x26, 0xa6, 0x78, 0x7f, 0xc0,
					 0x48, 0x53, 0xa4, 0xf6, 0xc8, 0x5a,
					 0xc3, 0x6a, 0x12, 0x0a};
	struct net_client c = qemu_client;
	static struct net_names n;

	c.uuid = uuid;
	CHECK_INT(net_grub_names("/boot/grub", &c, true, &n), 0);
	CHECK_INT(n.count, 11);
	CHECK_STR(n.name[0],
		  "/boot/grub/grub.cfg-7726a678-7fc0-4853-a4f6-c85ac36a120a");
	CHECK_STR(n.name[1], "/boot/grub/grub.cfg-01-52-54-00-12-34-56");
	CHECK_STR(n.name[2], "/boot/grub/grub.cfg-0A00020F");
	CHECK_STR(n.name[3], "/boot/grub/grub.cfg-0A00020");
	CHECK_STR(n.name[9], "/boot/grub/grub.cfg-0");
	CHECK_STR(n.name[10], "/boot/grub/grub.cfg");
	CHECK_INT(net_grub_names("/grub", &qemu_client, true, &n), 0);
	CHECK_INT(n.count, 10);
	CHECK_STR(n.name[0], "/grub/grub.cfg-01-52-54-00-12-34-56");
	CHECK_INT(net_grub_names("/grub", &c, false, &n), 0);
	CHECK_INT(n.count, 1);
	CHECK_STR(n.name[0], "/grub/grub.cfg");
}

TEST(grub_prefix_from_boot_file)
{
	char p[64];

	CHECK_INT(net_grub_prefix("boot/grub/x86_64-efi/core.efi", p, 64), 0);
	CHECK_STR(p, "/boot/grub");
	CHECK_INT(net_grub_prefix("/boot/grub/i386-pc/core.0", p, 64), 0);
	CHECK_STR(p, "/boot/grub");
	CHECK_INT(net_grub_prefix("grubnetx64.efi", p, 64), 0);
	CHECK_STR(p, "/grub");
	CHECK_INT(
	    net_grub_prefix("debian-installer/amd64/bootnetx64.efi", p, 64), 0);
	CHECK_STR(p, "/debian-installer/amd64/grub");
	CHECK_INT(net_grub_prefix("a/b/c.efi", p, 6), -ENAMETOOLONG);
}

TEST(loader_classify)
{
	static const char script[] = "#!ipxe\nkernel http://s/vmlinuz\n";

	CHECK_INT(net_loader_classify("pxelinux.0", NULL, 0),
		  NET_LOADER_PXELINUX);
	CHECK_INT(net_loader_classify("boot/LPXELINUX.0", NULL, 0),
		  NET_LOADER_PXELINUX);
	CHECK_INT(net_loader_classify("gpxelinux.0", NULL, 0),
		  NET_LOADER_PXELINUX);
	CHECK_INT(net_loader_classify("pxelinux.efi", NULL, 0),
		  NET_LOADER_UNKNOWN);
	CHECK_INT(net_loader_classify("grubx64.efi", NULL, 0), NET_LOADER_GRUB);
	CHECK_INT(net_loader_classify("grubnetx64.efi", NULL, 0),
		  NET_LOADER_GRUB);
	CHECK_INT(net_loader_classify("x86_64-efi/core.efi", NULL, 0),
		  NET_LOADER_GRUB);
	CHECK_INT(net_loader_classify("core.0", NULL, 0), NET_LOADER_GRUB);
	CHECK_INT(net_loader_classify("grub2.pxe", NULL, 0), NET_LOADER_GRUB);
	CHECK_INT(net_loader_classify("bootnetx64.efi", NULL, 0),
		  NET_LOADER_GRUB);
	CHECK_INT(net_loader_classify("undionly.kpxe", NULL, 0),
		  NET_LOADER_UNKNOWN);
	CHECK_INT(net_loader_classify("boot.ipxe", script, strlen(script)),
		  NET_LOADER_IPXE);
	CHECK_INT(net_loader_classify("pxelinux.0", script, strlen(script)),
		  NET_LOADER_IPXE);
	CHECK_INT(net_loader_classify("boot.ipxe", "#!ipxe", 6),
		  NET_LOADER_IPXE);
	CHECK_INT(net_loader_classify("boot.ipxe", "#!ipxex\n", 8),
		  NET_LOADER_UNKNOWN);
	CHECK_INT(net_loader_classify("boot.ipxe", "#!ipx", 5),
		  NET_LOADER_UNKNOWN);
}

TEST(lease_option_97_sent_back)
{
	struct net_lease l;
	const char *why;
	const char *t = "interface=eth0\nip=10.0.2.15\n"
			"opt97=000d7a3f124b5c4e6d8f90a1b2c3d4e5f6\n";

	CHECK_INT(net_lease_parse(t, strlen(t), &l, &why), 0);
	CHECK(l.has & NET_LEASE_UUID);
	CHECK(l.uuid[0] == 0x0d && l.uuid[15] == 0xf6);
	t = "interface=eth0\nip=10.0.2.15\n"
	    "opt97=010d7a3f124b5c4e6d8f90a1b2c3d4e5f6\n";
	CHECK_INT(net_lease_parse(t, strlen(t), &l, &why), 0);
	CHECK(!(l.has & NET_LEASE_UUID));
	CHECK(l.dropped != NULL);
}

TEST(uuid_from_sysfs_text)
{
	static const uint8_t want[16] = {0x0d, 0x7a, 0x3f, 0x12, 0x4b, 0x5c,
					 0x4e, 0x6d, 0x8f, 0x90, 0xa1, 0xb2,
					 0xc3, 0xd4, 0xe5, 0xf6};
	uint8_t u[16] = {0};
	char text[NET_UUID_TEXT];
	const char *s = "0D7A3F12-4b5c-4e6d-8f90-a1b2c3d4e5f6\n";

	CHECK_INT(net_uuid_parse(s, strlen(s), u), 0);
	CHECK(memcmp(u, want, 16) == 0);
	net_uuid_format(u, text);
	CHECK_STR(text, "0d7a3f12-4b5c-4e6d-8f90-a1b2c3d4e5f6");
	s = "00000000-0000-0000-0000-000000000000\n";
	CHECK_INT(net_uuid_parse(s, strlen(s), u), -ENOENT);
	s = "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF";
	CHECK_INT(net_uuid_parse(s, strlen(s), u), -ENOENT);
	s = "0d7a3f12-4b5c-4e6d-8f90-a1b2c3d4e5f";
	CHECK_INT(net_uuid_parse(s, strlen(s), u), -EINVAL);
	s = "0d7a3f124b5c-4e6d-8f90-a1b2c3d4e5f6x";
	CHECK_INT(net_uuid_parse(s, strlen(s), u), -EINVAL);
	s = "0d7a3f12-4b5c-4e6d-8f90-a1b2c3d4e5g6";
	CHECK_INT(net_uuid_parse(s, strlen(s), u), -EINVAL);
	CHECK(memcmp(u, want, 16) == 0); /* untouched by a failure */
}

/* What our udhcpc6 script writes on QEMU's user network (ipv6=on): the
 * kernel's SLAAC address, libslirp's DNS server and boot file URL in
 * their long forms. The DHCPv4 names (ip, bootfile) are not the v6
 * lease's. */
static const char slirp_lease6[] =
    "interface=eth0\n"
    "ip6=fec0::5054:ff:fe12:3466/64\n"
    "dns=fec0:0000:0000:0000:0000:0000:0000:0003\n"
    "bootfile_url=tftp://[fec0:0000:0000:0000:0000:0000:0000:0002]/"
    "pxelinux.0\n"
    "ip=10.0.2.15\n"
    "bootfile=ignored.0\n"
    "mac=52:54:00:12:34:66\n";

TEST(lease6_qemu_user_network)
{
	static const uint8_t ip6[16] = {0xfe, 0xc0, 0,	  0,	0, 0,
					0,    0,    0x50, 0x54, 0, 0xff,
					0xfe, 0x12, 0x34, 0x66};
	struct net_lease l;
	const char *why = NULL;

	CHECK_INT(
	    net_lease6_parse(slirp_lease6, strlen(slirp_lease6), &l, &why), 0);
	CHECK_STR(l.interface, "eth0");
	CHECK_INT(l.has, NET_LEASE_MAC | NET_LEASE_IP6 | NET_LEASE_DNS6 |
			     NET_LEASE_V6);
	CHECK(memcmp(l.ip6, ip6, 16) == 0);
	CHECK_INT(l.dns6[0], 0xfe);
	CHECK_INT(l.dns6[15], 3);
	CHECK_INT(l.mac[5], 0x66);
	CHECK_STR(
	    l.boot_url,
	    "tftp://[fec0:0000:0000:0000:0000:0000:0000:0002]/pxelinux.0");
	CHECK_INT(l.ip[0] | l.ip[3], 0);
	CHECK_STR(l.boot_file, "");
	CHECK(l.dropped == NULL);
	/* and the v6 names are not the v4 lease's */
	CHECK_INT(net_lease_parse(slirp_lease6, strlen(slirp_lease6), &l, &why),
		  0);
	CHECK_STR(l.boot_url, "");
	CHECK_INT(l.has & (NET_LEASE_IP6 | NET_LEASE_DNS6 | NET_LEASE_V6), 0);
	CHECK_STR(l.boot_file, "ignored.0");
}

TEST(lease6_bad_values)
{
	static const char text[] = "interface=eth1\n"
				   "ip6=fec0::1/129\n"
				   "dns=fec0::3 fec0::4\n"
				   "bootfile_url=https://[fec0::2]/boot.ipxe\n";
	static const char no_len[] = "interface=eth1\nip6=2001:db8::7\n"
				     "dns=nonsense\nbootfile_url=\n";
	struct net_lease l;
	const char *why = NULL;

	CHECK_INT(net_lease6_parse(text, strlen(text), &l, &why), 0);
	CHECK_INT(l.has & NET_LEASE_IP6, 0);
	CHECK_STR(l.dropped, "the link's IPv6 address in the lease is not "
			     "valid");
	CHECK(l.has & NET_LEASE_DNS6); /* the first of the list */
	CHECK_INT(l.dns6[15], 3);
	CHECK_STR(l.boot_url, "");
	CHECK_STR(l.dropped_boot, "the DHCPv6 server's boot file URL (option "
				  "59) is not a tftp:// or http:// address");

	CHECK_INT(net_lease6_parse(no_len, strlen(no_len), &l, &why), 0);
	CHECK(l.has & NET_LEASE_IP6);
	CHECK_INT(l.ip6[15], 7);
	CHECK_INT(l.has & NET_LEASE_DNS6, 0);
	CHECK_STR(l.dropped, "the DHCPv6 server's DNS server (option 23) is "
			     "not valid");
	CHECK(l.dropped_boot == NULL); /* "name=": udhcpc had nothing */

	CHECK_INT(net_lease6_parse("ip6=fec0::1\n", 12, &l, &why), -EINVAL);
	CHECK_STR(why, "the DHCP lease names no network interface");
	CHECK_INT(
	    net_lease6_parse("interface=eth0\nip6=fec0::1/\n", 27, &l, &why),
	    0);
	CHECK_INT(l.has & NET_LEASE_IP6, 0);
	CHECK_INT(
	    net_lease6_parse("interface=eth0\nip6=::1%eth0\n", 27, &l, &why),
	    0);
	CHECK_INT(l.has & NET_LEASE_IP6, 0);
}

/* The server and boot file a DHCPv6 lease's URL gives. */
static void search6(const char *url, struct net_search *s)
{
	char text[512];
	const char *why = NULL;

	snprintf(text, sizeof(text),
		 "interface=eth0\nip6=fec0::5054:ff:fe12:3466/64\n"
		 "bootfile_url=%s\n",
		 url);
	memset(s, 0, sizeof(*s));
	s->ifname = "eth0";
	if (net_lease6_parse(text, strlen(text), &s->lease, &why) < 0)
		printf("  %s: %s\n", url, why);
	net_search_server(s);
}

TEST(search_server_from_boot_file_url)
{
	static const struct {
		const char *url, *server, *file;
	} cases[] = {
	    {"tftp://[fec0:0000:0000:0000:0000:0000:0000:0002]/pxelinux.0",
	     "[fec0::2]", "pxelinux.0"},
	    {"tftp://[2001:db8::1]/boot/grub/x86_64-efi/core.efi",
	     "[2001:db8::1]", "boot/grub/x86_64-efi/core.efi"},
	    /* http, or another port: the whole URL, fetched as an address */
	    {"http://[2001:db8::1]:8080/boot.ipxe", "[2001:db8::1]",
	     "http://[2001:db8::1]:8080/boot.ipxe"},
	    {"tftp://[2001:db8::1]:6969/pxelinux.0", "[2001:db8::1]",
	     "tftp://[2001:db8::1]:6969/pxelinux.0"},
	    {"tftp://192.0.2.5/pxelinux.0", "192.0.2.5", "pxelinux.0"},
	    /* a name, and the lease names no DNS server: no server for the
	     * configs (nothing is asked) */
	    {"tftp://boot.example/pxelinux.0", "",
	     "tftp://boot.example/pxelinux.0"},
	    {"ftp://[2001:db8::1]/pxelinux.0", "", ""},
	};
	static struct net_search s;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		search6(cases[i].url, &s);
		CHECK_STR(s.server, cases[i].server);
		CHECK_STR(s.file, cases[i].file);
		CHECK_STR(s.ip, "");
		CHECK_STR(s.ip6, "fec0::5054:ff:fe12:3466");
	}
}

/* No IPv4 address (an IPv6-only client): no IPv4 names, for either
 * loader. */
TEST(names_without_ipv4)
{
	struct net_client c = {
	    NULL, {0x52, 0x54, 0, 0x12, 0x34, 0x66}, {0}, NULL};
	static struct net_names n;

	CHECK_INT(net_pxelinux_names("", NULL, &c, &n), 0);
	CHECK_INT(n.count, 2);
	CHECK_STR(n.name[0], "pxelinux.cfg/01-52-54-00-12-34-66");
	CHECK_STR(n.name[1], "pxelinux.cfg/default");
	CHECK_INT(net_grub_names("/grub", &c, true, &n), 0);
	CHECK_INT(n.count, 2);
	CHECK_STR(n.name[0], "/grub/grub.cfg-01-52-54-00-12-34-66");
	CHECK_STR(n.name[1], "/grub/grub.cfg");
}

/* GRUB on an IPv6 link: after the MAC, its own text of the address (all
 * eight groups, no leading zeros, no "::", ':' made '-'), one name. */
TEST(grub_names_ipv6_address)
{
	static const uint8_t a[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0,    0, 0,
				      0,    0,	  0,	0,    0, 0x0f, 0, 0x15};
	static const uint8_t b[16] = {0xfe, 0xc0, 0,	0,    0, 0,
				      0,    0,	  0x50, 0x54, 0, 0xff,
				      0xfe, 0x12, 0x34, 0x66};
	struct net_client c = {NULL, {0x52, 0x54, 0, 0x12, 0x34, 0x66}, {0}, a};
	static struct net_names n;

	CHECK_INT(net_grub_names("/grub", &c, true, &n), 0);
	CHECK_INT(n.count, 3);
	CHECK_STR(n.name[0], "/grub/grub.cfg-01-52-54-00-12-34-66");
	CHECK_STR(n.name[1], "/grub/grub.cfg-2001-db8-0-0-0-0-f-15");
	CHECK_STR(n.name[2], "/grub/grub.cfg");
	c.ip6 = b;
	CHECK_INT(net_grub_names("/grub", &c, true, &n), 0);
	CHECK_STR(n.name[1], "/grub/grub.cfg-fec0-0-0-0-5054-ff-fe12-3466");
	/* over http GRUB reads grub.cfg alone; pxelinux has no IPv6 */
	CHECK_INT(net_grub_names("/grub", &c, false, &n), 0);
	CHECK_INT(n.count, 1);
	CHECK_INT(net_pxelinux_names("", NULL, &c, &n), 0);
	CHECK_INT(n.count, 2);
}

/* The leases' DNS servers: each once, at most three, 0.0.0.0 not one;
 * the resolv.conf says them in the order they came. */
TEST(dns_servers_into_resolv_conf)
{
	static const uint8_t a[4] = {10, 0, 2, 3}, zero[4] = {0};
	static const uint8_t b[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0x36, 0, 0,
				      0,    0,	  0,	0,    0, 0,    0, 2};
	static const uint8_t c[4] = {192, 0, 2, 53}, d[4] = {192, 0, 2, 54};
	struct net_dns dns = {0};
	char dir[64], path[96], *text;
	size_t n;

	CHECK_INT(net_dns_add(&dns, a, 4), 1);
	CHECK_INT(net_dns_add(&dns, a, 4), 0);
	CHECK_INT(net_dns_add(&dns, zero, 4), 0);
	CHECK_INT(net_dns_add(&dns, b, 16), 1);
	CHECK_INT(net_dns_add(&dns, c, 4), 1);
	CHECK_INT(net_dns_add(&dns, d, 4), 0); /* musl asks three */
	test_tmpdir(dir, sizeof(dir), "test_net_dns");
	snprintf(path, sizeof(path), "%s/resolv.conf", dir);
	CHECK_INT(net_dns_write(&dns, path), 0);
	text = test_slurp(path, &n);
	CHECK(text != NULL);
	if (text) {
		text[n] = '\0';
		CHECK_STR(text,
			  "# bootmenu: the DNS servers its DHCP leases named\n"
			  "nameserver 10.0.2.3\n"
			  "nameserver 2001:db8:36::2\n"
			  "nameserver 192.0.2.53\n"
			  "options timeout:3 attempts:2\n");
	}
	free(text);
	test_rmtree(dir);
	CHECK_INT(net_dns_write(&dns, "/nonexistent/dir/resolv.conf"), -ENOENT);
}

/* What is a name to look up; what is not is refused before any query.
 * "localhost" comes from /etc/hosts: no DNS server is asked. */
TEST(dns_names_and_lookup)
{
	char out[NET_DNS_TEXT];
	const char *why = NULL;

	CHECK(net_dns_is_name("boot.example.org"));
	CHECK(net_dns_is_name("pxe-1_a"));
	CHECK(!net_dns_is_name("192.0.2.1"));
	CHECK(!net_dns_is_name(""));
	CHECK(!net_dns_is_name("boot example"));
	CHECK(!net_dns_is_name("\xff\xfenot an address"));
	CHECK_INT(
	    net_dns_lookup("a b", AF_INET, AF_UNSPEC, out, sizeof(out), &why),
	    -EINVAL);
	CHECK_STR(why, "it is not a host name");
	CHECK_INT(net_dns_lookup("localhost", AF_INET, AF_UNSPEC, out,
				 sizeof(out), &why),
		  0);
	CHECK_STR(out, "127.0.0.1");
	CHECK_INT(net_dns_lookup("localhost", AF_INET, AF_UNSPEC, out, 4, &why),
		  -ENAMETOOLONG);
}

TEST_MAIN("test_net", url_tftp_name_and_path, url_http_ipv4_port_query,
	  url_ipv6_and_defaults, url_refusals_say_why, url_over_long_parts,
	  url_resolve_rfc3986, url_resolve_boot_dir, lease_qemu_user_network,
	  lease_pxe_options, lease_bad_values,
	  lease_boot_file_with_control_characters, pxelinux_names_qemu,
	  pxelinux_names_uuid_and_209, grub_names_tftp_and_http,
	  grub_prefix_from_boot_file, loader_classify, uuid_from_sysfs_text,
	  lease_option_97_sent_back, lease6_qemu_user_network,
	  lease6_bad_values, search_server_from_boot_file_url,
	  names_without_ipv4, grub_names_ipv6_address,
	  dns_servers_into_resolv_conf, dns_names_and_lookup)
