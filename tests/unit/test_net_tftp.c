/* test_net_tftp.c - the tsize question (net/tftp.c): the request's bytes,
 * each kind of answer, and one exchange with a responder on the loopback
 * that answers as a server with options does and checks that we end it. */
#include "net/tftp.h"
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int answer(const void *p, size_t n, unsigned long long *t,
		  const char **why)
{
	return net_tftp_answer(p, n, t, why);
}

TEST(request_bytes)
{
	static const uint8_t want[] = "\0\1pxelinux.cfg/default\0octet\0tsize\0"
				      "0";
	uint8_t buf[64];

	CHECK_INT(net_tftp_rrq("pxelinux.cfg/default", buf, sizeof(buf)),
		  (int)sizeof(want));
	CHECK(memcmp(buf, want, sizeof(want)) == 0);
	CHECK_INT(net_tftp_rrq("pxelinux.cfg/default", buf, 20), -ENAMETOOLONG);
	CHECK_INT(net_tftp_rrq("", buf, sizeof(buf)), -ENAMETOOLONG);
}

TEST(answers)
{
	unsigned long long t = 7;
	const char *why;

	CHECK_INT(answer("\0\6tsize\0"
			 "41943040",
			 17, &t, &why),
		  1);
	CHECK(t == 41943040ull);
	CHECK_INT(answer("\0\6blksize\0"
			 "1432\0TSIZE\0"
			 "12",
			 24, &t, &why),
		  1);
	CHECK(t == 12);
	CHECK_INT(answer("\0\6blksize\0"
			 "1432",
			 15, &t, &why),
		  0);
	CHECK_INT(answer("\0\3\0\1data", 8, &t, &why), 0);
	CHECK_INT(answer("\0\5\0\1File not found", 19, &t, &why), -ENOENT);
	CHECK_STR(why, "File not found");
	CHECK_INT(answer("\0\5\0\2Access violation", 21, &t, &why), -EACCES);
	CHECK_INT(answer("\0\5\0\0", 4, &t, &why), -EIO);
	CHECK_STR(why, "the server refused");
	CHECK_INT(answer("\0\6tsize\0"
			 "-1",
			 11, &t, &why),
		  -EINVAL);
	CHECK_INT(answer("\0\6tsize\0"
			 "99999999999999999999999",
			 31, &t, &why),
		  -EINVAL);
	CHECK_INT(answer("\0\6tsize", 7, &t, &why), -EINVAL);
	CHECK_INT(answer("\0\1x", 3, &t, &why), -EINVAL);
	CHECK_INT(answer("\0\4\0\0", 4, &t, &why), -EINVAL);
}

/* One server: answers the first request with an OACK from another port
 * (a new TID, as servers do) and records what came back to that port. */
struct responder {
	int fd;
	unsigned port;
	uint8_t back[16];
	ssize_t back_len;
};

static void *respond(void *data)
{
	struct responder *r = data;
	uint8_t req[600];
	struct sockaddr_in from, tid = {.sin_family = AF_INET};
	socklen_t fl = sizeof(from);
	int t = socket(AF_INET, SOCK_DGRAM, 0);
	static const uint8_t oack[] = "\0\6tsize\0"
				      "3000";

	tid.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (recvfrom(r->fd, req, sizeof(req), 0, (struct sockaddr *)&from,
		     &fl) > 0 &&
	    bind(t, (struct sockaddr *)&tid, sizeof(tid)) == 0 &&
	    sendto(t, oack, sizeof(oack), 0, (struct sockaddr *)&from, fl) > 0)
		r->back_len = recv(t, r->back, sizeof(r->back), 0);
	close(t);
	return NULL;
}

TEST(asks_the_server_and_ends_the_request)
{
	struct responder r = {.back_len = -1};
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t al = sizeof(a);
	unsigned long long t = 0;
	const char *why;
	pthread_t th;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r.fd = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(bind(r.fd, (struct sockaddr *)&a, sizeof(a)) == 0);
	CHECK(getsockname(r.fd, (struct sockaddr *)&a, &al) == 0);
	CHECK(pthread_create(&th, NULL, respond, &r) == 0);
	CHECK_INT(
	    net_tftp_size("127.0.0.1", ntohs(a.sin_port), "vmlinuz", &t, &why),
	    1);
	pthread_join(th, NULL);
	CHECK(t == 3000);
	CHECK_INT((int)r.back_len, 5); /* ERROR, code 8, empty message */
	CHECK(memcmp(r.back, "\0\5\0\10\0", 5) == 0);
	close(r.fd);
}

TEST(nothing_listening_is_refused_at_once)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t al = sizeof(a);
	unsigned long long t = 0;
	const char *why;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned port;

	/* a port that was just free: bound, then closed */
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0);
	CHECK(getsockname(fd, (struct sockaddr *)&a, &al) == 0);
	port = ntohs(a.sin_port);
	close(fd);
	CHECK_INT(net_tftp_size("127.0.0.1", port, "x", &t, &why),
		  -ECONNREFUSED);
	CHECK_INT(net_tftp_size("not-an-address", 69, "x", &t, &why), -EINVAL);
}

/* The server as a URL writes an IPv6 one: "[::1]". */
TEST(ipv6_server_in_brackets)
{
	struct sockaddr_in6 a = {.sin6_family = AF_INET6,
				 .sin6_addr = IN6ADDR_LOOPBACK_INIT};
	socklen_t al = sizeof(a);
	unsigned long long t = 0;
	const char *why;
	int fd = socket(AF_INET6, SOCK_DGRAM, 0);
	unsigned port;

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		test_skip("no IPv6 loopback here");
		if (fd >= 0)
			close(fd);
		return;
	}
	CHECK(getsockname(fd, (struct sockaddr *)&a, &al) == 0);
	port = ntohs(a.sin6_port);
	close(fd);
	CHECK_INT(net_tftp_size("[::1]", port, "x", &t, &why), -ECONNREFUSED);
	CHECK_STR(why, "nothing answers on the TFTP port");
	CHECK_INT(net_tftp_size("::1", port, "x", &t, &why), -EINVAL);
	CHECK_INT(net_tftp_size("[::1", port, "x", &t, &why), -EINVAL);
	CHECK_INT(net_tftp_size("[]", port, "x", &t, &why), -EINVAL);
	CHECK_INT(net_tftp_size("[fec0::zz]", port, "x", &t, &why), -EINVAL);
}

TEST_MAIN("test_net_tftp", request_bytes, answers,
	  asks_the_server_and_ends_the_request,
	  nothing_listening_is_refused_at_once, ipv6_server_in_brackets)
