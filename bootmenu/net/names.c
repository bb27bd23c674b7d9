/* names.c - the config names pxelinux and GRUB look for on the server. */
#include "net/names.h"
#include "util/hex.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void net_uuid_format(const uint8_t uuid[16], char out[NET_UUID_TEXT])
{
	char *p = out;

	for (int i = 0; i < 16; i++) {
		p += sprintf(p, "%02x", uuid[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*p++ = '-';
	}
	*p = '\0';
}

int net_uuid_parse(const char *s, size_t len, uint8_t out[16])
{
	uint8_t u[16];
	size_t k = 0;
	bool zero = true, ones = true;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	if (len != NET_UUID_TEXT - 1)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 2) {
		int b;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i++] != '-')
				return -EINVAL;
		}
		if ((b = hex_byte(s + i)) < 0)
			return -EINVAL;
		u[k] = (uint8_t)b;
		zero &= b == 0;
		ones &= b == 0xff;
		k++;
	}
	if (zero || ones)
		return -ENOENT;
	memcpy(out, u, 16);
	return 0;
}

/* Append one printf-made name to *out. */
static int add(struct net_names *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int add(struct net_names *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (out->count >= NET_NAMES_MAX)
		return -ENOSPC;
	va_start(ap, fmt);
	n = vsnprintf(out->name[out->count], NET_NAME_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= NET_NAME_MAX)
		return -ENAMETOOLONG;
	out->count++;
	return 0;
}

/* @base followed by the IPv4 address in 8 upper-case hex digits, then
 * shorter by one digit each time down to one: 8 names. None for 0.0.0.0,
 * a client with no IPv4 address (a DHCPv6 lease): GRUB names it by its
 * IPv6 address then (add_ip6_name()), pxelinux not at all. */
static int add_ip_names(struct net_names *out, const char *base,
			const uint8_t ip[4])
{
	char hex[9];
	int rc = 0;

	if (!(ip[0] | ip[1] | ip[2] | ip[3]))
		return 0;

	snprintf(hex, sizeof(hex), "%02X%02X%02X%02X", ip[0], ip[1], ip[2],
		 ip[3]);
	for (int digits = 8; digits >= 1 && rc == 0; digits--)
		rc = add(out, "%s%.*s", base, digits, hex);
	return rc;
}

/* GRUB's name for an IPv6 client: @base followed by the address as
 * grub_net_addr_to_str() writes it (eight groups, "%x" each, no "::"),
 * each ':' a '-'. */
static int add_ip6_name(struct net_names *out, const char *base,
			const uint8_t a[16])
{
	char text[8 * 5];
	size_t n = 0;

	for (int i = 0; i < 8; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%x",
				      i ? "-" : "",
				      a[2 * i] << 8 | a[2 * i + 1]);
	return add(out, "%s%s", base, text);
}

/* "01-aa-bb-cc-dd-ee-ff": ARP hardware type 1 (Ethernet) and the MAC. */
static void mac_name(const uint8_t m[6], char out[21])
{
	snprintf(out, 21, "01-%02x-%02x-%02x-%02x-%02x-%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}

static bool is_prefix_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '.' || c == '-';
}

int net_pxelinux_prefix(const char *boot_file, char *out, size_t size)
{
	size_t n = strlen(boot_file);

	/* syslinux get_prefix(): up to the last character a file name part
	 * cannot hold, so "/", "\" and "::" all count as the delimiter */
	while (n > 0 && is_prefix_char(boot_file[n - 1]))
		n--;
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(out, boot_file, n);
	out[n] = '\0';
	return 0;
}

/* syslinux core/sysappend.c is_valid_uuid(): not version 0 or 15. */
static bool pxelinux_uuid_valid(const uint8_t *u)
{
	return u[6] >= 0x10 && u[6] < 0xf0;
}

static bool is_absolute(const char *name)
{
	return strstr(name, "://") || strstr(name, "::");
}

int net_pxelinux_names(const char *prefix, const char *config_file,
		       const struct net_client *c, struct net_names *out)
{
	char base[NET_NAME_MAX], id[NET_UUID_TEXT];
	int rc = 0;

	out->count = 0;
	if (config_file && config_file[0])
		rc = is_absolute(config_file)
			 ? add(out, "%s", config_file)
			 : add(out, "%s%s", prefix, config_file);
	if (rc == 0 && (size_t)snprintf(base, sizeof(base), "%spxelinux.cfg/",
					prefix) >= sizeof(base))
		rc = -ENAMETOOLONG;
	if (rc == 0 && c->uuid && pxelinux_uuid_valid(c->uuid)) {
		net_uuid_format(c->uuid, id);
		rc = add(out, "%s%s", base, id);
	}
	if (rc == 0) {
		mac_name(c->mac, id);
		rc = add(out, "%s%s", base, id);
	}
	if (rc == 0)
		rc = add_ip_names(out, base, c->ip);
	if (rc == 0)
		rc = add(out, "%sdefault", base);
	return rc;
}

static bool is_platform_dir(const char *s, size_t n)
{
	static const char *const suffixes[] = {"-efi", "-pc", "-ieee1275",
					       "-uboot", "-coreboot"};

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && memcmp(s + n - k, suffixes[i], k) == 0)
			return true;
	}
	return false;
}

int net_grub_prefix(const char *boot_file, char *out, size_t size)
{
	const char *lead = boot_file[0] == '/' ? "" : "/";
	const char *slash = strrchr(boot_file, '/');
	size_t dir = slash ? (size_t)(slash - boot_file) : 0;
	const char *prev = dir ? memrchr(boot_file, '/', dir) : NULL;
	size_t start = prev ? (size_t)(prev - boot_file) + 1 : 0;
	int n;

	if (dir > start && is_platform_dir(boot_file + start, dir - start))
		n = snprintf(out, size, "%s%.*s", lead,
			     (int)(prev ? prev - boot_file : 0), boot_file);
	else
		n = snprintf(out, size, "%s%.*s%sgrub", lead, (int)dir,
			     boot_file, dir ? "/" : "");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int net_grub_names(const char *prefix, const struct net_client *c, bool tftp,
		   struct net_names *out)
{
	char base[NET_NAME_MAX], id[NET_UUID_TEXT];
	int rc = 0;

	out->count = 0;
	if ((size_t)snprintf(base, sizeof(base), "%s/grub.cfg-", prefix) >=
	    sizeof(base))
		return -ENAMETOOLONG;
	if (tftp && c->uuid) {
		net_uuid_format(c->uuid, id);
		rc = add(out, "%s%s", base, id);
	}
	if (rc == 0 && tftp) {
		mac_name(c->mac, id);
		rc = add(out, "%s%s", base, id);
	}
	if (rc == 0 && tftp)
		rc = add_ip_names(out, base, c->ip);
	if (rc == 0 && tftp && c->ip6)
		rc = add_ip6_name(out, base, c->ip6);
	if (rc == 0)
		rc = add(out, "%s/grub.cfg", prefix);
	return rc;
}

static bool ends_with(const char *s, size_t n, const char *tail)
{
	size_t k = strlen(tail);

	return n >= k && memcmp(s + n - k, tail, k) == 0;
}

static bool is_ipxe_script(const unsigned char *h, size_t len)
{
	/* iPXE's script image type: "#!ipxe" then a space or line end */
	return len >= 6 && memcmp(h, "#!ipxe", 6) == 0 &&
	       (len == 6 || h[6] == ' ' || h[6] == '\t' || h[6] == '\n' ||
		h[6] == '\r');
}

static enum net_loader classify_name(const char *s, size_t n)
{
	bool pxe = ends_with(s, n, ".pxe"), efi = ends_with(s, n, ".efi");

	if (ends_with(s, n, ".0") && strstr(s, "pxelinux"))
		return NET_LOADER_PXELINUX;
	if (strcmp(s, "core.0") == 0 || strcmp(s, "core.efi") == 0 ||
	    strcmp(s, "core.pxe") == 0 || (pxe && strstr(s, "grub")))
		return NET_LOADER_GRUB;
	if (efi && (strncmp(s, "grub", 4) == 0 || strncmp(s, "shim", 4) == 0 ||
		    strncmp(s, "bootnet", 7) == 0))
		return NET_LOADER_GRUB;
	return NET_LOADER_UNKNOWN;
}

enum net_loader net_loader_classify(const char *boot_file, const void *head,
				    size_t len)
{
	const char *slash = strrchr(boot_file, '/');
	const char *base = slash ? slash + 1 : boot_file;
	char low[256];
	size_t n = 0;

	if (head && is_ipxe_script(head, len))
		return NET_LOADER_IPXE;
	for (; base[n] && n < sizeof(low) - 1; n++)
		low[n] = (char)(base[n] >= 'A' && base[n] <= 'Z'
				    ? base[n] + ('a' - 'A')
				    : base[n]);
	low[n] = '\0';
	return base[n] ? NET_LOADER_UNKNOWN : classify_name(low, n);
}
