/* dhcp.h - one DHCPv4 or DHCPv6 lease for one link, from busybox's
 * udhcpc and udhcpc6.
 *
 * Why udhcpc and not our own client: it is in the initramfs already,
 * has run on countless networks (relays, ARP checks of the offered
 * address, option overload), and hands its lease to a script as
 * environment variables, which net/lease.c reads as text. What is ours:
 * the script (written to /run at start), the options asked for and
 * announced, the bounded retries, and reading the result.
 *
 * Asked for (-O): 66 tftp, 67 bootfile, 209 pxeconffile, 210
 * pxepathprefix, 211 reboottime (1, 3, 12, 54 come by default).
 * Announced: option 60 "PXEClient:Arch:0000N:UNDI:003016", option 97 (the
 * machine's UUID, when SMBIOS has one) and option 93
 * (client architecture, RFC 4578): 0 for x86 BIOS, 7 for x86-64 UEFI,
 * whichever bootmenu was started by, so that a server set up for PXE
 * answers as it would answer the firmware.
 *
 * DHCPv6: udhcpc6 asks stateless (an Information-Request, RFC 3736, all
 * QEMU's user network answers), for options 59 (the boot file URL, RFC
 * 5970) and 23 (DNS servers); the address is the one the kernel made
 * itself from the router's advertisements (SLAAC).
 */
#ifndef BM_NET_DHCP_H
#define BM_NET_DHCP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/lease.h"

/* DISCOVERs per attempt, seconds between them: udhcpc's -t and -T. */
#define NET_DHCP_TRIES 4
#define NET_DHCP_WAIT_S 2
/* udhcpc6's Information-Requests per attempt (NET_DHCP_WAIT_S apart) */
#define NET_DHCP6_TRIES 3

/* Write the scripts udhcpc and udhcpc6 run into @dir (once per boot).
 * 0 or -errno. */
int net_dhcp_script(const char *dir);

/* Run udhcpc on @ifname once (NET_DHCP_TRIES discovers), the script in
 * @dir writing the lease to @lease_path; parse it into *l. @uefi chooses
 * the architecture announced; @uuid (16 bytes, or NULL) is sent as
 * option 97 (RFC 4578: type 0, then the UUID), as a PXE ROM sends it. Returns
 * 0, -ETIMEDOUT (no offer), -ECANCELED, or -errno, with a sentence in
 * why[0..len). */
int net_dhcp_run(const char *dir, const char *ifname, const char *lease_path,
		 bool uefi, const uint8_t *uuid, struct net_lease *l,
		 _Atomic pid_t *child, const _Atomic int *cancel, char *why,
		 size_t len);

/* Run udhcpc6 on @ifname once (NET_DHCP6_TRIES Information-Requests),
 * its script in @dir writing the lease to @lease_path; parse it into *l
 * (net_lease6_parse()). Returns as net_dhcp_run() does (-ETIMEDOUT: no
 * DHCPv6 answer). */
int net_dhcp6_run(const char *dir, const char *ifname, const char *lease_path,
		  struct net_lease *l, _Atomic pid_t *child,
		  const _Atomic int *cancel, char *why, size_t len);

#endif
