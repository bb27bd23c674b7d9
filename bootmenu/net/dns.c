/* dns.c - the leases' DNS servers and name lookups (dns.h). */
#include "net/dns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int net_dns_add(struct net_dns *d, const uint8_t *addr, int len)
{
	static const uint8_t zero[16];

	if ((len != 4 && len != 16) || !memcmp(addr, zero, (size_t)len))
		return 0;
	for (int i = 0; i < NET_DNS_MAX; i++) {
		if (d->server[i].len == len &&
		    !memcmp(d->server[i].addr, addr, (size_t)len))
			return 0;
		if (!d->server[i].len) {
			memcpy(d->server[i].addr, addr, (size_t)len);
			d->server[i].len = len;
			return 1;
		}
	}
	return 0;
}

int net_dns_write(const struct net_dns *d, const char *path)
{
	char tmp[256], text[INET6_ADDRSTRLEN];
	FILE *f;
	int rc = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fputs("# bootmenu: the DNS servers its DHCP leases named\n", f);
	for (int i = 0; i < NET_DNS_MAX; i++)
		if (d->server[i].len &&
		    inet_ntop(d->server[i].len == 4 ? AF_INET : AF_INET6,
			      d->server[i].addr, text, sizeof(text)))
			fprintf(f, "nameserver %s\n", text);
	/* musl: the whole lookup within 3 s, each server asked twice */
	fputs("options timeout:3 attempts:2\n", f);
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0)
		remove(tmp);
	return rc;
}

static int fail(const char **why, const char *msg, int rc)
{
	if (why)
		*why = msg;
	return rc;
}

/* The first answer of @family in @res, as a URL's server into @out. */
static int pick(const struct addrinfo *res, int family, char *out, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	for (; res; res = res->ai_next) {
		const void *a;

		if (res->ai_family != family)
			continue;
		a = family == AF_INET
			? (const void *)&((struct sockaddr_in *)res->ai_addr)
			      ->sin_addr
			: (const void *)&((struct sockaddr_in6 *)res->ai_addr)
			      ->sin6_addr;
		if (!inet_ntop(family, a, text, sizeof(text)))
			continue;
		if ((size_t)snprintf(out, size,
				     family == AF_INET ? "%s" : "[%s]",
				     text) >= size)
			return -ENAMETOOLONG;
		return 0;
	}
	return -ENOENT;
}

int net_dns_is_name(const char *host)
{
	size_t n = strlen(host);
	int letter = 0;

	if (n == 0 || n > 253)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = host[i];
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

		if (!alpha && !(c >= '0' && c <= '9') && !strchr(".-_", c))
			return 0;
		letter |= alpha;
	}
	return letter;
}

int net_dns_lookup(const char *host, int first, int second, char *out,
		   size_t size, const char **why)
{
	struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *res = NULL;
	int rc;

	if (!net_dns_is_name(host))
		return fail(why, "it is not a host name", -EINVAL);
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc == EAI_NONAME || rc == EAI_NODATA)
		return fail(why, "no such name", -ENOENT);
	if (rc == EAI_AGAIN || rc == EAI_FAIL)
		return fail(why, "no DNS server answered", -EAGAIN);
	if (rc != 0)
		return fail(why, gai_strerror(rc), -EIO);
	rc = pick(res, first, out, size);
	if (rc == -ENOENT && second != AF_UNSPEC)
		rc = pick(res, second, out, size);
	freeaddrinfo(res);
	if (rc == -ENAMETOOLONG)
		return fail(why, "the address is too long", rc);
	return rc < 0 ? fail(why, "the name has no address we can reach", rc)
		      : 0;
}
