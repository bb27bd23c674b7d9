/* tftp.c - the tsize question (RFC 2347, 2349), asked and answered. */
#include "net/tftp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

enum { OP_RRQ = 1, OP_DATA = 3, OP_ERROR = 5, OP_OACK = 6 };

#define TFTP_PACKET_MAX 1468 /* what we read of an answer */

int net_tftp_rrq(const char *path, uint8_t *buf, size_t len)
{
	static const char tail[] = "octet\0tsize\0000"; /* and its NUL */
	size_t n = strlen(path);

	if (!n || 2 + n + 1 + sizeof(tail) > len || n > 512)
		return -ENAMETOOLONG;
	buf[0] = 0;
	buf[1] = OP_RRQ;
	memcpy(buf + 2, path, n + 1);
	memcpy(buf + 3 + n, tail, sizeof(tail));
	return (int)(3 + n + sizeof(tail));
}

/* The NUL-terminated string at p[*i..n), or NULL when it does not end. */
static const char *take(const uint8_t *p, size_t n, size_t *i)
{
	const uint8_t *end = memchr(p + *i, 0, n - *i);
	const char *s = (const char *)p + *i;

	if (*i >= n || !end)
		return NULL;
	*i = (size_t)(end - p) + 1;
	return s;
}

int net_tftp_answer(const uint8_t *p, size_t n, unsigned long long *tsize,
		    const char **why)
{
	unsigned op, code;
	size_t i = 4;

	*why = "not a TFTP answer";
	if (n < 4)
		return -EINVAL;
	op = (unsigned)p[0] << 8 | p[1];
	if (op == OP_DATA)
		return 0;
	if (op == OP_ERROR) {
		const char *msg = take(p, n, &i);

		code = (unsigned)p[2] << 8 | p[3];
		*why = msg && *msg ? msg : "the server refused";
		return code == 1 ? -ENOENT : code == 2 ? -EACCES : -EIO;
	}
	if (op != OP_OACK)
		return -EINVAL;
	i = 2;
	while (i < n) {
		const char *name = take(p, n, &i), *val = take(p, n, &i);
		char *end;
		unsigned long long v;

		if (!name || !val)
			return -EINVAL;
		if (strcasecmp(name, "tsize"))
			continue;
		if (*val < '0' || *val > '9')
			return -EINVAL;
		errno = 0;
		v = strtoull(val, &end, 10);
		if (*end || errno)
			return -EINVAL;
		*tsize = v;
		*why = NULL;
		return 1;
	}
	*why = NULL;
	return 0;
}

/* A server's address, IPv4 or IPv6. */
union tftp_addr {
	struct sockaddr sa;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
};

/* End the request at the server's port (RFC 2347: code 8). */
static void decline(int fd, const union tftp_addr *to, socklen_t len)
{
	static const uint8_t err[] = {0, OP_ERROR, 0, 8, 0};

	if (sendto(fd, err, sizeof(err), 0, &to->sa, len) < 0)
		return; /* the server times out on its own */
}

/* @server, dotted IPv4 or "[IPv6]" (as a URL writes it), on @port into
 * *a; its length, or -EINVAL. */
static int server_addr(const char *server, unsigned port, union tftp_addr *a)
{
	char tmp[INET6_ADDRSTRLEN];
	size_t n = strlen(server);

	memset(a, 0, sizeof(*a));
	if (server[0] != '[') {
		a->v4.sin_family = AF_INET;
		a->v4.sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, server, &a->v4.sin_addr) != 1)
			return -EINVAL;
		return sizeof(a->v4);
	}
	if (n < 3 || n - 2 >= sizeof(tmp) || server[n - 1] != ']')
		return -EINVAL;
	memcpy(tmp, server + 1, n - 2);
	tmp[n - 2] = '\0';
	a->v6.sin6_family = AF_INET6;
	a->v6.sin6_port = htons((uint16_t)port);
	if (inet_pton(AF_INET6, tmp, &a->v6.sin6_addr) != 1)
		return -EINVAL;
	return sizeof(a->v6);
}

/* Whether @from is the host @to (any port: the server answers from a new
 * one). */
static bool same_host(const union tftp_addr *from, const union tftp_addr *to)
{
	if (from->sa.sa_family != to->sa.sa_family)
		return false;
	if (to->sa.sa_family == AF_INET)
		return from->v4.sin_addr.s_addr == to->v4.sin_addr.s_addr;
	return !memcmp(&from->v6.sin6_addr, &to->v6.sin6_addr, 16);
}

/* A socket for @to's family that reports ICMP "port unreachable" as
 * ECONNREFUSED, though it is not connected (the answer comes from another
 * port of the server). -errno when none. */
static int tftp_socket(const union tftp_addr *to)
{
	bool v6 = to->sa.sa_family == AF_INET6;
	int fd = socket(to->sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	/* without it a closed port is a timeout, not a refusal: still a
	 * sentence, so its failure is not one */
	(void)setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
			 v6 ? IPV6_RECVERR : IP_RECVERR, &(int){1},
			 sizeof(int));
	return fd;
}

int net_tftp_size(const char *server, unsigned port, const char *path,
		  unsigned long long *tsize, const char **why)
{
	union tftp_addr to;
	uint8_t req[600], ans[TFTP_PACKET_MAX];
	int fd, n = net_tftp_rrq(path, req, sizeof(req)), rc = -ETIMEDOUT;
	int tl = server_addr(server, port, &to);

	*why = "no answer";
	if (n < 0)
		return n;
	if (tl < 0)
		return tl;
	fd = tftp_socket(&to);
	if (fd < 0)
		return fd;
	for (int t = 0; t < 3 && rc == -ETIMEDOUT; t++) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		union tftp_addr from;
		socklen_t fl = sizeof(from);
		ssize_t got;

		if (sendto(fd, req, (size_t)n, 0, &to.sa, (socklen_t)tl) < 0) {
			rc = -errno;
			break;
		}
		if (poll(&pf, 1, 1000) <= 0)
			continue;
		if (pf.revents & POLLERR) {
			rc = -ECONNREFUSED;
			*why = "nothing answers on the TFTP port";
			break;
		}
		got = recvfrom(fd, ans, sizeof(ans), 0, &from.sa, &fl);
		if (got < 0) {
			rc = errno == ECONNREFUSED ? -ECONNREFUSED : -errno;
			break;
		}
		if (!same_host(&from, &to))
			continue; /* not the server asked */
		rc = net_tftp_answer(ans, (size_t)got, tsize, why);
		if (rc >= 0)
			decline(fd, &from, fl);
	}
	close(fd);
	return rc;
}
