/* search.c - what a network boot loader would read (search.h). */
#include "net/search.h"
#include "net/dns.h"
#include "net/remote.h"
#include "net/url.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say_state(const struct net_search *s, const char *name)
{
	if (s->looking)
		s->looking(s->ctx, name);
}

static void ip_text(const uint8_t ip[4], char *out, size_t len)
{
	snprintf(out, len, "%u.%u.%u.%u", ip[0], ip[1], ip[2], ip[3]);
}

/* Option 66 as an IPv4 address: an address as it is, a name looked up
 * when the lease names a DNS server. Returns 0, or -errno with *why. */
static int option66(const struct net_lease *l, uint8_t ip[4], const char **why)
{
	const char *name = l->tftp_server;
	char text[NET_DNS_TEXT];
	int rc;

	if (net_ipv4_parse(name, strlen(name), ip) == 0)
		return 0;
	if (!net_dns_is_name(name)) {
		*why = "neither an address nor a host name";
		return -EINVAL;
	}
	if (!(l->has & NET_LEASE_DNS)) {
		*why = "a name, and the lease names no DNS server to ask";
		return -ENOENT;
	}
	rc = net_dns_lookup(name, AF_INET, AF_UNSPEC, text, sizeof(text), why);
	return rc < 0 ? rc : net_ipv4_parse(text, strlen(text), ip);
}

/* The TFTP server: option 66, else the BOOTP next-server, else the DHCP
 * server itself. */
static void pick_server(struct net_search *s)
{
	const struct net_lease *l = &s->lease;
	const char *why = "";
	uint8_t ip[4];
	int rc = l->tftp_server[0] ? option66(l, ip, &why) : -ENOENT;

	if (rc == 0)
		ip_text(ip, s->server, sizeof(s->server));
	else if (l->has & NET_LEASE_SIADDR)
		ip_text(l->siaddr, s->server, sizeof(s->server));
	else if (l->has & NET_LEASE_SERVER_ID)
		ip_text(l->server_id, s->server, sizeof(s->server));
	else
		s->server[0] = '\0';
	if (l->tftp_server[0] && rc < 0)
		log_warn("%s: TFTP server \"%.64s\": %s: using %s", s->ifname,
			 l->tftp_server, why,
			 s->server[0] ? s->server : "none");
}

/* The lease as iPXE names it (${ip}, ${net0/mac}, ${filename}...). */
static void ipxe_vars(struct net_search *s, struct fs_net *n)
{
	static const char *const names[] = {
	    "ip",	"net0/ip",     "mac",	   "net0/mac",
	    "filename", "next-server", "hostname", NULL};
	const char *vals[] = {s->ip,   s->ip,	  s->mac,	    s->mac,
			      s->file, s->server, s->lease.hostname};
	size_t k = 0;

	for (size_t i = 0; names[i] && k < NET_SEARCH_VARS; i++)
		if (vals[i][0])
			s->vars[k++] = (struct ipxe_var){names[i], vals[i]};
	n->vars = s->vars;
	n->n_vars = k;
}

/* Which loader the boot file is; an unknown name is fetched to look for
 * "#!ipxe". */
static enum net_loader loader(struct net_search *s)
{
	enum net_loader ld = net_loader_classify(s->file, NULL, 0);
	char why[192], head[8] = "";
	int fd;

	if (ld != NET_LOADER_UNKNOWN || !s->file[0])
		return ld;
	/* fetched quietly first: a boot file that is not there is no error */
	if (net_remote_fetch(s->rt, s->file, why, sizeof(why)) < 0)
		return ld;
	if ((fd = fs_open(net_remote_fs(s->rt), s->file, false)) >= 0) {
		ssize_t n = read(fd, head, sizeof(head));

		close(fd);
		ld = net_loader_classify(s->file, head, n > 0 ? (size_t)n : 0);
	}
	return ld;
}

/* The names the loader would try, in order. */
static int names(struct net_search *s, enum net_loader ld,
		 struct net_names *out)
{
	const struct net_lease *l = &s->lease;
	struct net_client c = {.uuid = NULL};
	char prefix[NET_NAME_MAX];
	int rc;

	memcpy(c.mac, l->mac, 6);
	memcpy(c.ip, l->ip, 4);
	if ((l->has & NET_LEASE_V6) && (l->has & NET_LEASE_IP6))
		c.ip6 = l->ip6; /* GRUB names a config by it */
	/* pxelinux takes the UUID the PXE ROM sent; GRUB only the one the
	 * server sends back in its answer (option 97, as dnsmasq does) */
	if (ld == NET_LOADER_PXELINUX && s->smbios_uuid)
		c.uuid = s->smbios_uuid;
	if (ld == NET_LOADER_GRUB && (l->has & NET_LEASE_UUID))
		c.uuid = l->uuid;
	out->count = 0;
	switch (ld) {
	case NET_LOADER_PXELINUX:
		if (l->path_prefix[0])
			snprintf(prefix, sizeof(prefix), "%s", l->path_prefix);
		else if ((rc = net_pxelinux_prefix(s->file, prefix,
						   sizeof(prefix))) < 0)
			return rc;
		snprintf(s->prefix, sizeof(s->prefix), "/%s", prefix);
		return net_pxelinux_names(
		    prefix, l->config_file[0] ? l->config_file : NULL, &c, out);
	case NET_LOADER_GRUB:
		if ((rc = net_grub_prefix(s->file, prefix, sizeof(prefix))) < 0)
			return rc;
		snprintf(s->prefix, sizeof(s->prefix), "%s", prefix);
		return net_grub_names(prefix, &c, true, out);
	case NET_LOADER_IPXE:
		out->count = 1;
		snprintf(out->name[0], sizeof(out->name[0]), "%s", s->file);
		return 0;
	case NET_LOADER_UNKNOWN:
		break;
	}
	return 0;
}

void net_search_config(struct net_search *s)
{
	struct fs_net *n = net_remote_net(s->rt);
	enum net_loader ld;
	struct net_names *nm = calloc(1, sizeof(*nm));
	int rc = -ENOENT;

	n->loader = FS_NET_NONE;
	if (!nm) {
		snprintf(s->why, sizeof(s->why), "out of memory");
		goto out;
	}
	if (!s->file[0] && !s->lease.config_file[0]) {
		snprintf(s->why, sizeof(s->why), "%s",
			 s->lease.dropped_boot ? s->lease.dropped_boot
			 : (s->lease.has & NET_LEASE_V6)
			     ? "the DHCPv6 server named no boot file URL"
			     : "the DHCP server named no boot file");
		goto out;
	}
	ld = loader(s);
	if (ld == NET_LOADER_UNKNOWN && s->lease.config_file[0])
		ld = NET_LOADER_PXELINUX; /* option 209 is a pxelinux config */
	if (ld == NET_LOADER_UNKNOWN) {
		snprintf(s->why, sizeof(s->why),
			 "the boot file %s is not pxelinux, GRUB or an iPXE "
			 "script: nothing to read",
			 s->file);
		goto out;
	}
	n->loader = ld == NET_LOADER_PXELINUX ? FS_NET_PXELINUX
		    : ld == NET_LOADER_GRUB   ? FS_NET_GRUB
					      : FS_NET_IPXE;
	if ((rc = names(s, ld, nm)) < 0) {
		snprintf(s->why, sizeof(s->why), "a config name is too long");
		goto out;
	}
	for (size_t i = 0; i < nm->count && !*s->cancel; i++) {
		const char *name = nm->name[i];
		char why[192];

		if (!strncmp(name, "::", 2))
			name += 2; /* pxelinux: rooted at the server */
		say_state(s, name);
		rc = net_remote_fetch(s->rt, name, why, sizeof(why));
		log_info("%s: %s %s: %s", s->ifname, s->server, name,
			 rc ? why : "found");
		if (rc == 0) {
			snprintf(s->config, sizeof(s->config), "/%s", name);
			n->config = s->config;
			break;
		}
		if (rc != -ENOENT) {
			snprintf(s->why, sizeof(s->why), "tftp://%s/%s: %s",
				 s->server, name, why);
			break;
		}
	}
	if (!n->config && !s->why[0])
		snprintf(s->why, sizeof(s->why),
			 "the server %s has none of the %zu configs the "
			 "boot file %s would read (the last: %s)",
			 s->server, nm->count, s->file,
			 nm->count ? nm->name[nm->count - 1] : "-");
out:
	free(nm);
	n->prefix = s->prefix;
	n->why = s->why[0] ? s->why : NULL;
	if (n->loader == FS_NET_IPXE)
		ipxe_vars(s, n);
	if (n->why)
		log_warn("%s: %s", s->ifname, n->why);
}

/* The boot file URL's server is a name: looked up (IPv6 first: the
 * lease is DHCPv6's) when the lease names a DNS server. */
static void pick_url_name(struct net_search *s, const char *host)
{
	const char *why = "the lease names no DNS server to ask";

	if (!(s->lease.has & NET_LEASE_DNS6) ||
	    net_dns_lookup(host, AF_INET6, AF_INET, s->server,
			   sizeof(s->server), &why) < 0) {
		s->server[0] = '\0';
		log_warn("%s: the boot file URL's server \"%.64s\": %s: its "
			 "configs cannot be looked for",
			 s->ifname, host, why);
	}
}

/* A DHCPv6 lease: the server and the file from its boot file URL
 * (net_search_server()). The lease checked that it parses. */
static void pick_url(struct net_search *s)
{
	const struct net_lease *l = &s->lease;
	struct net_url u;
	char text[INET6_ADDRSTRLEN];
	uint8_t a[16];

	if (l->has & NET_LEASE_IP6)
		inet_ntop(AF_INET6, l->ip6, s->ip6, sizeof(s->ip6));
	if (!l->boot_url[0] ||
	    net_url_parse(l->boot_url, strlen(l->boot_url), &u, NULL) < 0)
		return;
	if (u.host_kind == NET_HOST_IPV6 &&
	    inet_pton(AF_INET6, u.host, a) == 1 &&
	    inet_ntop(AF_INET6, a, text, sizeof(text)))
		snprintf(s->server, sizeof(s->server), "[%s]", text);
	else if (u.host_kind == NET_HOST_IPV4)
		ip_text(u.ip, s->server, sizeof(s->server));
	else
		pick_url_name(s, u.host);
	if (u.scheme == NET_SCHEME_TFTP && u.port == NET_PORT_TFTP &&
	    s->server[0])
		/* shorter than the URL it came from: it fits */
		snprintf(s->file, sizeof(s->file), "%.*s",
			 (int)sizeof(s->file) - 1, u.path + 1);
	else
		snprintf(s->file, sizeof(s->file), "%s", l->boot_url);
}

void net_search_server(struct net_search *s)
{
	s->ip[0] = s->ip6[0] = s->server[0] = s->file[0] = '\0';
	if (s->lease.has & NET_LEASE_V6) {
		pick_url(s);
		return;
	}
	ip_text(s->lease.ip, s->ip, sizeof(s->ip));
	pick_server(s);
	snprintf(s->file, sizeof(s->file), "%s", s->lease.boot_file);
}
