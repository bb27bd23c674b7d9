/* dhcp.c - udhcpc and udhcpc6 as children, with our scripts, and their
 * leases read back. */
#include "net/dhcp.h"
#include "net/fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Both scripts' end: the variables named (lease.h) written to
 * $BOOTMENU_LEASE, one "name=value" a line, leaving out a value with a
 * newline in it, then the link's MAC; renamed into place so bootmenu
 * never reads half a lease. */
#define WRITE_LEASE(names)                                                     \
	"\tf=\"$BOOTMENU_LEASE\"\n"                                            \
	"\t{\n"                                                                \
	"\tfor n in " names "; do\n"                                           \
	"\t\teval \"v=\\${$n}\"\n"                                             \
	"\t\tcase \"$v\" in *'\n'*|'') ;; *) printf '%s=%s\\n' \"$n\" \"$v\" " \
	";; esac\n"                                                            \
	"\tdone\n"                                                             \
	"\tprintf 'mac=%s\\n' \"$(cat /sys/class/net/$interface/address)\"\n"  \
	"\t} > \"$f.tmp\" && mv \"$f.tmp\" \"$f\" ;;\n"

/* What each script writes: lease.h's names. */
#define LEASE4_NAMES                                                           \
	"interface ip siaddr boot_file sname subnet mask router hostname "     \
	"serverid tftp bootfile pxeconffile pxepathprefix reboottime opt97 "   \
	"dns"
#define LEASE6_NAMES "interface ip6 dns bootfile_url"
#define SCRIPT_END "esac\nexit 0\n"

/* udhcpc's: on a lease, set the address and route (busybox ip), then
 * write the lease. Only IPv4 addresses are flushed: the link-local IPv6
 * address is what udhcpc6 and the kernel's SLAAC speak from. */
static const char script[] =
    "#!/bin/sh\n"
    "# bootmenu's udhcpc script (bootmenu/net/dhcp.c)\n"
    "case \"$1\" in\n"
    "deconfig)\n"
    "\tip -4 addr flush dev \"$interface\"\n"
    "\tip link set \"$interface\" up ;;\n"
    "bound|renew)\n"
    "\tip -4 addr flush dev \"$interface\"\n"
    "\tip addr add \"$ip/${mask:-24}\" dev \"$interface\"\n"
    "\t[ -n \"$router\" ] && ip route add default via \"${router%% *}\" "
    "dev \"$interface\" 2>/dev/null\n" WRITE_LEASE(LEASE4_NAMES) SCRIPT_END;

/* udhcpc6's, asking stateless (-l): the address is the kernel's own
 * (SLAAC), so nothing is set; the link's global address, else its
 * site-local one (QEMU's user network advertises fec0::/64), is read for
 * the lease ("addr/len", field 4 of `ip -o`). -l reports its answer as
 * "renew". */
static const char script6[] =
    "#!/bin/sh\n"
    "# bootmenu's udhcpc6 script (bootmenu/net/dhcp.c)\n"
    "case \"$1\" in\n"
    "bound|renew)\n"
    "\tset -- $(ip -6 -o addr show dev \"$interface\" scope global "
    "2>/dev/null) $(ip -6 -o addr show dev \"$interface\" scope site "
    "2>/dev/null)\n"
    "\tip6=$4\n" WRITE_LEASE(LEASE6_NAMES) SCRIPT_END;

static int write_script(const char *dir, const char *name, const char *text,
			size_t n)
{
	char path[512];
	int fd;
	ssize_t w;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (fd < 0)
		return -errno;
	w = write(fd, text, n);
	close(fd);
	return w == (ssize_t)n ? 0 : -EIO;
}

int net_dhcp_script(const char *dir)
{
	int rc = write_script(dir, "udhcpc.sh", script, sizeof(script) - 1);

	return rc < 0 ? rc
		      : write_script(dir, "udhcpc6.sh", script6,
				     sizeof(script6) - 1);
}

static int read_lease(const char *path, bool v6, struct net_lease *l, char *why,
		      size_t len)
{
	char buf[NET_LEASE_MAX + 1];
	const char *bad = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -EIO;
	rc = v6 ? net_lease6_parse(buf, (size_t)n, l, &bad)
		: net_lease_parse(buf, (size_t)n, l, &bad);
	if (rc < 0)
		snprintf(why, len, "the DHCP lease cannot be read: %s",
			 bad ? bad : strerror(-rc));
	else if (l->dropped)
		snprintf(why, len, "%s", l->dropped);
	return rc;
}

/* Run the client argv (udhcpc or udhcpc6, by @v6) to its end, its
 * script told @lease_path, and read the lease the script wrote there. */
static int run_client(char *const argv[], const char *lease_path, bool v6,
		      struct net_lease *l, _Atomic pid_t *child,
		      const _Atomic int *cancel, char *why, size_t len)
{
	char env_lease[600];
	char *envp[] = {env_lease, "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL};
	int rc;

	snprintf(env_lease, sizeof(env_lease), "BOOTMENU_LEASE=%s", lease_path);
	why[0] = '\0';
	unlink(lease_path);
	rc = net_run(argv, envp, NULL, child, cancel);
	if (rc == -ECANCELED)
		return rc;
	if (rc < 0) {
		snprintf(why, len, "cannot run %s: %s", argv[0], strerror(-rc));
		return rc;
	}
	rc = read_lease(lease_path, v6, l, why, len);
	if (rc == -ENOENT) {
		snprintf(why, len, "%s",
			 v6 ? "no DHCPv6 answer" : "no DHCP offer");
		return -ETIMEDOUT;
	}
	return rc;
}

int net_dhcp_run(const char *dir, const char *ifname, const char *lease_path,
		 bool uefi, const uint8_t *uuid, struct net_lease *l,
		 _Atomic pid_t *child, const _Atomic int *cancel, char *why,
		 size_t len)
{
	char script_path[512], tries[8], wait[8], vendor[64], arch[32],
	    guid[48] = "0x61:00";
	unsigned a = uefi ? 7 : 0;

	snprintf(script_path, sizeof(script_path), "%s/udhcpc.sh", dir);
	snprintf(tries, sizeof(tries), "%d", NET_DHCP_TRIES);
	snprintf(wait, sizeof(wait), "%d", NET_DHCP_WAIT_S);
	snprintf(vendor, sizeof(vendor), "PXEClient:Arch:%05u:UNDI:003016", a);
	snprintf(arch, sizeof(arch), "0x5d:%04x", a);
	char *argv[] = {
	    "udhcpc", "-f",	    "-q", "-n",		 "-i", (char *)ifname,
	    "-s",     script_path,  "-t", tries,	 "-T", wait,
	    "-V",     vendor,	    "-x", arch,		 "-O", "tftp",
	    "-O",     "bootfile",   "-O", "pxeconffile", "-O", "pxepathprefix",
	    "-O",     "reboottime", NULL, NULL,		 NULL};

	if (uuid) { /* option 97: type 0, then the 16 bytes */
		for (int i = 0; i < 16; i++)
			snprintf(guid + 7 + 2 * i, 3, "%02x", uuid[i]);
		argv[sizeof(argv) / sizeof(argv[0]) - 3] = "-x";
		argv[sizeof(argv) / sizeof(argv[0]) - 2] = guid;
	}

	return run_client(argv, lease_path, false, l, child, cancel, why, len);
}

int net_dhcp6_run(const char *dir, const char *ifname, const char *lease_path,
		  struct net_lease *l, _Atomic pid_t *child,
		  const _Atomic int *cancel, char *why, size_t len)
{
	char script_path[512], tries[8], wait[8];
	char *argv[] = {
	    "udhcpc6",	    "-f", "-q",		  "-n", "-l",  "-i",
	    (char *)ifname, "-s", script_path,	  "-t", tries, "-T",
	    wait,	    "-O", "bootfile_url", "-O", "dns", NULL};

	snprintf(script_path, sizeof(script_path), "%s/udhcpc6.sh", dir);
	snprintf(tries, sizeof(tries), "%d", NET_DHCP6_TRIES);
	snprintf(wait, sizeof(wait), "%d", NET_DHCP_WAIT_S);
	return run_client(argv, lease_path, true, l, child, cancel, why, len);
}
