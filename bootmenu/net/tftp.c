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

/* End the request at the server's port (RFC 2347: code 8). */
static void decline(int fd, const struct sockaddr_in *to)
{
	static const uint8_t err[] = {0, OP_ERROR, 0, 8, 0};

	if (sendto(fd, err, sizeof(err), 0, (const struct sockaddr *)to,
		   sizeof(*to)) < 0)
		return; /* the server times out on its own */
}

int net_tftp_size(const char *server, unsigned port, const char *path,
		  unsigned long long *tsize, const char **why)
{
	struct sockaddr_in to = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port)};
	uint8_t req[600], ans[TFTP_PACKET_MAX];
	int fd, n = net_tftp_rrq(path, req, sizeof(req)), rc = -ETIMEDOUT;

	*why = "no answer";
	if (n < 0)
		return n;
	if (inet_pton(AF_INET, server, &to.sin_addr) != 1)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* ICMP "port unreachable" as ECONNREFUSED, though the socket is not
	 * connected (the answer comes from another port of the server) */
	if (setsockopt(fd, IPPROTO_IP, IP_RECVERR, &(int){1}, sizeof(int)) < 0)
		*why = "no answer";
	for (int t = 0; t < 3 && rc == -ETIMEDOUT; t++) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t got;

		if (sendto(fd, req, (size_t)n, 0, (struct sockaddr *)&to,
			   sizeof(to)) < 0) {
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
		got = recvfrom(fd, ans, sizeof(ans), 0,
			       (struct sockaddr *)&from, &fl);
		if (got < 0) {
			rc = errno == ECONNREFUSED ? -ECONNREFUSED : -errno;
			break;
		}
		if (from.sin_addr.s_addr != to.sin_addr.s_addr)
			continue; /* not the server asked */
		rc = net_tftp_answer(ans, (size_t)got, tsize, why);
		if (rc >= 0)
			decline(fd, &from);
	}
	close(fd);
	return rc;
}
