/* lease.c - the name=value leases our udhcpc and udhcpc6 scripts write. */
#include "net/lease.h"
#include "net/url.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "util/hex.h"

enum lease_kind {
	LK_IFNAME,
	LK_IP,	    /* one dotted address */
	LK_IP_LIST, /* space-separated addresses: the first one counts */
	LK_PREFIX,  /* "mask": a prefix length, 0..32 */
	LK_MAC,
	LK_STR,	 /* any printable text (file names, server names) */
	LK_HOST, /* letters, digits, '-', '.' */
	LK_U32,
	LK_UUID97,   /* "optNNN" hex: type 0 and 16 bytes (RFC 4578) */
	LK_IP6,	     /* one IPv6 address, a "/len" after it allowed */
	LK_IP6_LIST, /* space-separated IPv6 addresses: the first counts */
	LK_URL,	     /* a tftp:// or http:// address (net/url.h) */
};

/* Which lease a name belongs to: udhcpc's, udhcpc6's or both. */
enum lease_family {
	LF_V4 = 0, /* the default: most names are udhcpc's alone */
	LF_V6 = 1,
	LF_BOTH = 2,
};

/* The lease being read, and the two BOOTP fields that options 66 and 67
 * win over (RFC 2132 9.4, 9.5: sname and file are used only without
 * them). */
struct lease_state {
	struct net_lease l;
	char file_field[NET_LEASE_STR_MAX];
	char sname_field[NET_LEASE_STR_MAX];
	bool have_ip, have_interface;
	const char *bad_required; /* a bad ip or interface: no lease */
};

struct lease_key {
	const char *name;
	enum lease_kind kind;
	size_t off, size; /* into struct lease_state */
	unsigned flag;	  /* NET_LEASE_* it sets, or 0 */
	const char *bad;  /* the sentence when its value is bad */
	enum lease_family fam;
};

#define AT(field) offsetof(struct lease_state, field)
#define SZ(field) sizeof(((struct lease_state *)0)->field)
#define F(field) AT(field), SZ(field)

/* busybox 1.35 udhcpc's names: networking/udhcp/common.c
 * (dhcp_option_strings[]) and dhcpc.c (fill_envp()). */
static const struct lease_key lease_keys[] = {
    {"interface", LK_IFNAME, F(l.interface), 0,
     "the lease names no valid network interface", LF_BOTH},
    {"ip", LK_IP, F(l.ip), 0, "the lease's IPv4 address is not valid", LF_V4},
    {"mac", LK_MAC, F(l.mac), NET_LEASE_MAC,
     "the network card's MAC address in the lease is not valid", LF_BOTH},
    {"subnet", LK_IP, F(l.subnet), NET_LEASE_SUBNET,
     "the DHCP server's subnet mask (option 1) is not valid", LF_V4},
    {"mask", LK_PREFIX, F(l.subnet), NET_LEASE_SUBNET,
     "the DHCP server's subnet mask (option 1) is not valid", LF_V4},
    {"router", LK_IP_LIST, F(l.router), NET_LEASE_ROUTER,
     "the DHCP server's router (option 3) is not valid", LF_V4},
    {"hostname", LK_HOST, F(l.hostname), 0,
     "the DHCP server's host name (option 12) is not valid", LF_V4},
    {"serverid", LK_IP, F(l.server_id), NET_LEASE_SERVER_ID,
     "the DHCP server's identifier (option 54) is not valid", LF_V4},
    {"siaddr", LK_IP, F(l.siaddr), NET_LEASE_SIADDR,
     "the DHCP server's next-server address is not valid", LF_V4},
    {"tftp", LK_STR, F(l.tftp_server), 0,
     "the DHCP server's TFTP server name (option 66) is not valid", LF_V4},
    {"sname", LK_STR, F(sname_field), 0,
     "the DHCP server's server name field is not valid", LF_V4},
    {"bootfile", LK_STR, F(l.boot_file), 0,
     "the DHCP server's boot file name (option 67) is not valid", LF_V4},
    {"boot_file", LK_STR, F(file_field), 0,
     "the DHCP server's boot file field is not valid", LF_V4},
    {"pxeconffile", LK_STR, F(l.config_file), 0,
     "the DHCP server's config file name (option 209) is not valid", LF_V4},
    {"pxepathprefix", LK_STR, F(l.path_prefix), 0,
     "the DHCP server's path prefix (option 210) is not valid", LF_V4},
    {"reboottime", LK_U32, F(l.reboot_time), NET_LEASE_REBOOT_TIME,
     "the DHCP server's reboot time (option 211) is not valid", LF_V4},
    {"dns", LK_IP_LIST, F(l.dns), NET_LEASE_DNS,
     "the DHCP server's DNS server (option 6) is not valid", LF_V4},
    {"opt97", LK_UUID97, F(l.uuid), NET_LEASE_UUID,
     "the client UUID the DHCP server sent back (option 97) is not valid",
     LF_V4},
    /* udhcpc6's (d6_dhcpc.c); ip6 is our script's */
    {"ip6", LK_IP6, F(l.ip6), NET_LEASE_IP6,
     "the link's IPv6 address in the lease is not valid", LF_V6},
    {"dns", LK_IP6_LIST, F(l.dns6), NET_LEASE_DNS6,
     "the DHCPv6 server's DNS server (option 23) is not valid", LF_V6},
    {"bootfile_url", LK_URL, F(l.boot_url), 0,
     "the DHCPv6 server's boot file URL (option 59) is not a tftp:// or "
     "http:// address",
     LF_V6},
};

int net_mac_parse(const char *v, size_t n, uint8_t mac[6])
{
	uint8_t m[6];

	if (n != 17)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		int b = hex_byte(v + 3 * i);

		if (b < 0 || (i < 5 && v[3 * i + 2] != ':'))
			return -EINVAL;
		m[i] = (uint8_t)b;
	}
	memcpy(mac, m, 6);
	return 0;
}

/* Option 97 as udhcpc exports an option it has no name for: hex, type 0
 * then the 16 bytes of the UUID. */
static int parse_uuid97(const char *v, size_t n, uint8_t uuid[16])
{
	uint8_t u[17];

	if (n != 34)
		return -EINVAL;
	for (size_t i = 0; i < 17; i++) {
		int b = hex_byte(v + 2 * i);

		if (b < 0)
			return -EINVAL;
		u[i] = (uint8_t)b;
	}
	if (u[0] != 0)
		return -EINVAL;
	memcpy(uuid, u + 1, 16);
	return 0;
}

static int parse_u32(const char *v, size_t n, uint32_t *out, uint32_t max)
{
	uint64_t x = 0;

	if (n == 0 || n > 10)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -EINVAL;
		x = x * 10 + (uint64_t)(v[i] - '0');
	}
	if (x > max)
		return -EINVAL;
	*out = (uint32_t)x;
	return 0;
}

static int parse_prefix(const char *v, size_t n, uint8_t mask[4])
{
	uint32_t len, bits;

	if (parse_u32(v, n, &len, 32) < 0)
		return -EINVAL;
	bits = len == 0 ? 0 : ~(uint32_t)0 << (32 - len);
	for (int i = 0; i < 4; i++)
		mask[i] = (uint8_t)(bits >> (24 - 8 * i));
	return 0;
}

/* One IPv6 address, up to a '/' and a prefix length of 0..128 (the
 * length is checked, not kept). */
static int parse_ip6(const char *v, size_t n, uint8_t ip[16])
{
	const char *slash = memchr(v, '/', n);
	size_t alen = slash ? (size_t)(slash - v) : n;
	char tmp[48];
	uint32_t plen;

	if (alen == 0 || alen >= sizeof(tmp))
		return -EINVAL;
	if (slash && parse_u32(slash + 1, n - alen - 1, &plen, 128) < 0)
		return -EINVAL;
	memcpy(tmp, v, alen);
	tmp[alen] = '\0';
	return inet_pton(AF_INET6, tmp, ip) == 1 ? 0 : -EINVAL;
}

/* Text of 1 to size-1 bytes, none a control character; @host: only what a
 * host name (RFC 1123) or a Linux interface name may hold. */
static int copy_text(const char *v, size_t n, char *out, size_t size,
		     enum lease_kind kind)
{
	if (n == 0 || n >= size)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		bool alnum = (c >= '0' && c <= '9') ||
			     ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');

		if (c < 0x20 || c == 0x7f)
			return -EINVAL;
		if (kind == LK_HOST && !alnum && c != '-' && c != '.')
			return -EINVAL;
		if (kind == LK_IFNAME && (c == '/' || c == ':' || c == ' '))
			return -EINVAL;
	}
	if (kind == LK_IFNAME && v[0] == '.' &&
	    (n == 1 || (n == 2 && v[1] == '.')))
		return -EINVAL;
	memcpy(out, v, n);
	out[n] = '\0';
	return 0;
}

/* A boot file URL: text as copy_text() takes it that net_url_parse()
 * takes too (tftp or http, a host, a path). */
static int parse_url(const char *v, size_t n, char *out, size_t size)
{
	struct net_url u;
	int rc = copy_text(v, n, out, size, LK_URL);

	if (rc == 0 && net_url_parse(v, n, &u, NULL) < 0) {
		out[0] = '\0';
		rc = -EINVAL;
	}
	return rc;
}

/* The length of @v's first space-separated word: a list's first entry. */
static size_t first_word(const char *v, size_t n)
{
	const char *sp = memchr(v, ' ', n);

	return sp ? (size_t)(sp - v) : n;
}

static int parse_value(const struct lease_key *k, const char *v, size_t n,
		       void *dst)
{
	switch (k->kind) {
	case LK_IP:
		return net_ipv4_parse(v, n, dst);
	case LK_IP_LIST:
		return net_ipv4_parse(v, first_word(v, n), dst);
	case LK_PREFIX:
		return parse_prefix(v, n, dst);
	case LK_MAC:
		return net_mac_parse(v, n, dst);
	case LK_U32:
		return parse_u32(v, n, dst, UINT32_MAX);
	case LK_UUID97:
		return parse_uuid97(v, n, dst);
	case LK_IP6:
		return parse_ip6(v, n, dst);
	case LK_IP6_LIST:
		return parse_ip6(v, first_word(v, n), dst);
	case LK_URL:
		return parse_url(v, n, dst, k->size);
	default:
		return copy_text(v, n, dst, k->size, k->kind);
	}
}

static const struct lease_key *find_key(const char *name, size_t n,
					enum lease_family fam)
{
	for (size_t i = 0; i < sizeof(lease_keys) / sizeof(lease_keys[0]); i++)
		if (strlen(lease_keys[i].name) == n &&
		    memcmp(lease_keys[i].name, name, n) == 0 &&
		    (lease_keys[i].fam == fam || lease_keys[i].fam == LF_BOTH))
			return &lease_keys[i];
	return NULL;
}

static bool is_required(const struct lease_key *k)
{
	return k->off == AT(l.ip) || k->off == AT(l.interface);
}

/* One line, its '\n' gone. The value is parsed into a copy, so a bad one
 * clears the field instead of leaving half of it. */
static void parse_line(struct lease_state *s, const char *line, size_t n,
		       enum lease_family fam)
{
	const char *eq = memchr(line, '=', n);
	const struct lease_key *k =
	    eq ? find_key(line, (size_t)(eq - line), fam) : NULL;
	unsigned char tmp[NET_LEASE_STR_MAX];
	size_t vlen;
	char *dst;
	int rc;

	if (!k)
		return;
	dst = (char *)s + k->off;
	vlen = n - (size_t)(eq - line) - 1;
	memset(tmp, 0, sizeof(tmp));
	/* udhcpc writes "name=" for an option it could not show */
	rc = vlen == 0 ? -ENOENT : parse_value(k, eq + 1, vlen, tmp);
	memcpy(dst, tmp, k->size);
	if (rc == 0)
		s->l.has |= k->flag;
	else
		s->l.has &= ~k->flag;
	if (k->off == AT(l.ip))
		s->have_ip = rc == 0;
	if (k->off == AT(l.interface))
		s->have_interface = rc == 0;
	if (rc == -EINVAL && is_required(k))
		s->bad_required = k->bad;
	else if (rc == -EINVAL && !s->l.dropped)
		s->l.dropped = k->bad;
	if (rc == -EINVAL &&
	    (k->off == AT(l.boot_file) || k->off == AT(file_field) ||
	     k->off == AT(l.boot_url)))
		s->l.dropped_boot = k->bad;
}

static int lease_fail(const char **why, const char *sentence, int rc)
{
	if (why)
		*why = sentence;
	return rc;
}

/* The BOOTP fields fill in only what options 66 and 67 did not. */
static void lease_finish(struct lease_state *s)
{
	if (!s->l.boot_file[0])
		memcpy(s->l.boot_file, s->file_field, sizeof(s->l.boot_file));
	if (!s->l.tftp_server[0])
		memcpy(s->l.tftp_server, s->sname_field,
		       sizeof(s->l.tftp_server));
}

/* Every line of buf[0..len) into *s, the names of @fam's lease read;
 * then what both leases require (an interface). */
static int parse_text(struct lease_state *s, const char *buf, size_t len,
		      enum lease_family fam, const char **why)
{
	size_t at = 0;

	if (len > NET_LEASE_MAX)
		return lease_fail(why, "the DHCP lease file is too long",
				  -E2BIG);
	if (memchr(buf, '\0', len))
		return lease_fail(why, "the DHCP lease file is not text",
				  -EINVAL);
	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;

		if (n > 0 && buf[at + n - 1] == '\r')
			parse_line(s, buf + at, n - 1, fam);
		else
			parse_line(s, buf + at, n, fam);
		at += n + 1;
	}
	if (s->bad_required)
		return lease_fail(why, s->bad_required, -EINVAL);
	if (!s->have_interface)
		return lease_fail(
		    why, "the DHCP lease names no network interface", -EINVAL);
	return 0;
}

/* The lease of @fam: DHCPv4's must have an address; DHCPv6's is marked
 * as one. */
static int lease_parse(const char *buf, size_t len, struct net_lease *l,
		       const char **why, enum lease_family fam)
{
	static struct lease_state zero;
	struct lease_state s = zero;
	int rc = parse_text(&s, buf, len, fam, why);

	if (rc < 0)
		return rc;
	if (fam == LF_V6)
		s.l.has |= NET_LEASE_V6;
	else if (!s.have_ip || memcmp(s.l.ip, "\0\0\0\0", 4) == 0)
		return lease_fail(why, "the DHCP server gave no IPv4 address",
				  -EINVAL);
	lease_finish(&s); /* a v6 lease has neither BOOTP field */
	*l = s.l;
	return 0;
}

int net_lease_parse(const char *buf, size_t len, struct net_lease *l,
		    const char **why)
{
	return lease_parse(buf, len, l, why, LF_V4);
}

int net_lease6_parse(const char *buf, size_t len, struct net_lease *l,
		     const char **why)
{
	return lease_parse(buf, len, l, why, LF_V6);
}
