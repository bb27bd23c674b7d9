/* names.h - which config files a network boot loader would look for.
 *
 * Given what DHCP said (the boot file, options 209 and 210) and who the
 * client is (UUID, MAC, IPv4), these give the names, in order, that
 * pxelinux or GRUB would try on the server, so that bootmenu reads the
 * same config they would. The first one the server has wins.
 *
 * pxelinux (syslinux 6.04, core/fs/pxe/pxe.c pxe_open_config()):
 *   1. option 209, if given
 *   2. pxelinux.cfg/<UUID> (lower case, dashes), if the UUID is valid
 *      (core/sysappend.c: its version nibble is neither 0 nor 15)
 *   3. pxelinux.cfg/01-<mac> (ARP type 01, lower case, dashes)
 *   4. pxelinux.cfg/<IPv4 in 8 upper-case hex digits>, then one digit
 *      shorter each time, down to 1 digit (8 names)
 *   5. pxelinux.cfg/default
 * each after the path prefix: option 210 as given, else the boot file's
 * name up to its last character that is not a letter, digit, '.' or '-'
 * (get_prefix()).
 *
 * GRUB (2.06, grub-core/net/net.c grub_net_search_config_file(), called
 * from grub-core/normal/main.c only when $prefix is on tftp):
 *   1. <prefix>/grub.cfg-<UUID> (option 97 as the server sent it back,
 *      lower case, dashes; no validity check), if given
 *   2. <prefix>/grub.cfg-01-<mac> (lower case, dashes)
 *   3. <prefix>/grub.cfg-<IPv4 in 8 upper-case hex digits>, then one
 *      digit shorter each time, down to 1 digit (8 names); on an IPv6
 *      link instead <prefix>/grub.cfg-<IPv6 address>, one name, in
 *      grub_net_addr_to_str()'s text: all eight groups in lower-case hex
 *      without leading zeros and without "::", each ':' made '-'
 *      ("grub.cfg-2001-db8-0-0-0-0-0-15")
 *   4. <prefix>/grub.cfg
 * Over http, GRUB reads <prefix>/grub.cfg alone.
 *
 * A client with no IPv4 address (ip 0.0.0.0: an IPv6-only network, its
 * lease from DHCPv6) gets no IPv4 names: pxelinux has no IPv6 at all, so
 * it tries the UUID, MAC and default names; GRUB its IPv6 name too.
 *
 * Everything here is pure: strings in, strings into the caller's arrays.
 */
#ifndef BM_NET_NAMES_H
#define BM_NET_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_NAMES_MAX 16 /* pxelinux's list is the longest: 12 */
#define NET_NAME_MAX 512 /* one name, NUL included */
#define NET_UUID_TEXT 37 /* 36 characters and a NUL */

struct net_names {
	size_t count;
	char name[NET_NAMES_MAX][NET_NAME_MAX];
};

/* Who the client is. */
struct net_client {
	const uint8_t *uuid; /* 16 bytes (DHCP option 97, SMBIOS), or NULL */
	uint8_t mac[6];
	uint8_t ip[4];	    /* 0.0.0.0: none (an IPv6-only client) */
	const uint8_t *ip6; /* 16 bytes: the IPv6 address, or NULL */
};

enum net_loader {
	NET_LOADER_UNKNOWN,
	NET_LOADER_PXELINUX,
	NET_LOADER_GRUB,
	NET_LOADER_IPXE, /* an iPXE script: bootmenu reads it itself */
};

/* The 16 bytes @uuid as "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower case,
 * the bytes in the order given (as pxelinux and GRUB print them). */
void net_uuid_format(const uint8_t uuid[16], char out[NET_UUID_TEXT]);

/* The UUID text s[0..len) ("0d7a3f12-4b5c-4e6d-8f90-a1b2c3d4e5f6",
 * either case, a trailing newline allowed: /sys/class/dmi/id/product_uuid)
 * into out[0..16) in the order written. Linux prints SMBIOS's UUID as
 * dmidecode does (the first three fields byte-swapped from SMBIOS 2.6
 * on), and iPXE sends the same bytes as DHCP option 97, so pxelinux's
 * name for this machine is this text. Returns 0, -EINVAL (not a UUID),
 * or -ENOENT (all zeros or all ones: the firmware set none). */
int net_uuid_parse(const char *s, size_t len, uint8_t out[16]);

/* pxelinux's path prefix for the boot file @boot_file (used when DHCP
 * gave no option 210) into out[0..size): "boot/pxelinux.0" gives "boot/",
 * "pxelinux.0" gives "". Returns 0, or -ENAMETOOLONG. */
int net_pxelinux_prefix(const char *boot_file, char *out, size_t size);

/* pxelinux's names into *out, each @prefix (net_pxelinux_prefix() or
 * option 210, used as text: it should end in '/') followed by the name.
 * @config_file is option 209 or NULL; one that is an address ("://") or
 * rooted at the server ("::") is listed as it is. Returns 0, or
 * -ENAMETOOLONG when a name does not fit NET_NAME_MAX. */
int net_pxelinux_names(const char *prefix, const char *config_file,
		       const struct net_client *c, struct net_names *out);

/* GRUB's $prefix for the boot file @boot_file into out[0..size), as the
 * images are made: grub-mknetdir puts core.efi or core.0 in
 * "<dir>/<platform>/" with prefix "/<dir>", so a boot file in a platform
 * directory ("x86_64-efi", "i386-pc"...) gives its parent; any other gives
 * "<its directory>/grub", as Debian's grubnet*.efi (prefix "/grub") and
 * its installer image ("/debian-installer/<arch>/grub", beside the
 * installer's boot file) have. The prefix always begins with '/':
 * "boot/grub/x86_64-efi/core.efi" gives "/boot/grub", "grubnetx64.efi"
 * gives "/grub". Returns 0, or -ENAMETOOLONG. */
int net_grub_prefix(const char *boot_file, char *out, size_t size);

/* GRUB's names into *out, each "<@prefix>/grub.cfg..."; @tftp false
 * (prefix on http) lists grub.cfg alone. Returns 0, or -ENAMETOOLONG. */
int net_grub_names(const char *prefix, const struct net_client *c, bool tftp,
		   struct net_names *out);

/* Which loader the boot file is, from its name @boot_file (any
 * directories before it are ignored, case too) and its first bytes
 * head[0..len) (NULL, 0 when not fetched): "#!ipxe" at the start makes an
 * iPXE script whatever the name; else pxelinux.0, lpxelinux.0 and any
 * "*.0" with "pxelinux" in it are pxelinux; grub*.efi (grubnet*.efi too),
 * core.0, core.efi, core.pxe and any "*.pxe" with "grub" in it are GRUB,
 * and so are shim*.efi and bootnet*.efi (Debian's shim, which starts the
 * grubx64.efi beside it); anything else is NET_LOADER_UNKNOWN. */
enum net_loader net_loader_classify(const char *boot_file, const void *head,
				    size_t len);

#endif
