/* url.h - tftp:// and http:// addresses: parsed, resolved, written back.
 *
 * An address is "scheme://host[:port]/path[?query][#fragment]" (RFC 3986).
 * The scheme is tftp or http, in either case; https and every other scheme
 * are refused with a sentence. The host is a name, a dotted IPv4 address or
 * an IPv6 address in brackets. The path is kept percent-decoded; the query
 * (http only: a '?' in a tftp path is part of the file name, RFC 3617 has
 * no query) is kept as written; the fragment is dropped. Control characters
 * and NUL, raw or percent-encoded, are refused, and so is any part longer
 * than its buffer below.
 *
 * Nothing here allocates or touches the network: text in, a struct out,
 * and back. Every function that fails says why in *why, a sentence for the
 * menu ("https is not supported yet"); @why may be NULL.
 */
#ifndef BM_NET_URL_H
#define BM_NET_URL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_URL_TEXT_MAX 2048 /* a whole address, as text */
#define NET_URL_HOST_MAX 254  /* 253 characters (RFC 1035) and a NUL */
#define NET_URL_PATH_MAX 1024 /* the decoded path, NUL included */
#define NET_URL_QUERY_MAX 512 /* the query as written, NUL included */

#define NET_PORT_TFTP 69
#define NET_PORT_HTTP 80

enum net_scheme {
	NET_SCHEME_TFTP,
	NET_SCHEME_HTTP,
};

enum net_host_kind {
	NET_HOST_NAME, /* resolve it (DNS, or the lease's tftp server) */
	NET_HOST_IPV4, /* ip[0..4) holds it too */
	NET_HOST_IPV6, /* host is the text between the brackets */
};

struct net_url {
	enum net_scheme scheme;
	enum net_host_kind host_kind;
	char host[NET_URL_HOST_MAX];
	uint8_t ip[4];	/* NET_HOST_IPV4 only */
	uint16_t port;	/* as written, or the scheme's default */
	bool has_query; /* a '?' was written, even with nothing after it */
	char path[NET_URL_PATH_MAX]; /* decoded; always begins with '/' */
	char query[NET_URL_QUERY_MAX];
};

/* Parse the address text[0..len) into *u. Returns 0, or -EINVAL /
 * -EPROTONOSUPPORT (https, ftp...) / -ENAMETOOLONG with *why set; *u is
 * then undefined. */
int net_url_parse(const char *text, size_t len, struct net_url *u,
		  const char **why);

/* Resolve the reference ref[0..len) against @base (RFC 3986 section 5.2):
 * an absolute address stands alone, "//host/p" keeps base's scheme, "/p"
 * keeps its server, "p" and "../p" are merged with base's directory, "?q"
 * replaces only the query. "." and ".." segments are removed and ".."
 * never climbs above the root. @out may be @base. Returns 0, or -errno
 * with *why set as net_url_parse() does. */
int net_url_resolve(const struct net_url *base, const char *ref, size_t len,
		    struct net_url *out, const char **why);

/* Write @u back as text into buf[0..size), NUL-terminated: the scheme in
 * lower case, the port only when it is not the scheme's default, the path
 * percent-encoded where it has to be. Returns the length written (without
 * the NUL), or -ENAMETOOLONG when it does not fit. */
int net_url_format(const struct net_url *u, char *buf, size_t size);

/* Dotted IPv4 text s[0..len) ("10.0.2.15": four decimal numbers up to 255,
 * no leading zeros, nothing else) into ip[0..4). Returns 0, or -EINVAL
 * (@ip is then unchanged). */
int net_ipv4_parse(const char *s, size_t len, uint8_t ip[4]);

#endif
