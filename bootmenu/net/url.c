/* url.c - tftp:// and http:// addresses (RFC 3986, RFC 3617). */
#include "net/url.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "util/hex.h"

static int fail(const char **why, const char *sentence, int rc)
{
	if (why)
		*why = sentence;
	return rc;
}

static bool is_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t span(const char *s, size_t len, const char *stops)
{
	size_t i = 0;

	while (i < len && !strchr(stops, s[i]))
		i++;
	return i;
}

int net_ipv4_parse(const char *s, size_t len, uint8_t ip[4])
{
	uint8_t v[4];
	size_t i = 0;

	for (int part = 0; part < 4; part++) {
		unsigned n = 0, digits = 0;

		if (part > 0 && (i >= len || s[i++] != '.'))
			return -EINVAL;
		while (i < len && is_digit(s[i]) && digits < 4) {
			n = n * 10 + (unsigned)(s[i++] - '0');
			digits++;
		}
		/* "010" would be octal to inet_aton(): refuse the doubt */
		if (digits == 0 || digits > 3 || n > 255 ||
		    (digits > 1 && s[i - digits] == '0'))
			return -EINVAL;
		v[part] = (uint8_t)n;
	}
	if (i != len)
		return -EINVAL;
	memcpy(ip, v, 4);
	return 0;
}

/* Percent-decode s[0..len) into out[0..size), NUL-terminated. */
static int decode(const char *s, size_t len, char *out, size_t size,
		  const char **why)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%') {
			int b = i + 2 < len ? hex_byte(s + i + 1) : -1;

			if (b < 0)
				return fail(
				    why,
				    "a % in the address is not followed "
				    "by two hex digits",
				    -EINVAL);
			c = (unsigned char)b;
			i += 2;
		}
		if (c == 0 || is_ctl(c))
			return fail(why,
				    "the address has a control character in it",
				    -EINVAL);
		if (o + 1 >= size)
			return fail(why, "the path in the address is too long",
				    -ENAMETOOLONG);
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

static int parse_scheme(const char *t, size_t len, struct net_url *u,
			size_t *after, const char **why)
{
	size_t n = 0;

	while (n < len && (is_alpha(t[n]) ||
			   (n > 0 && (is_digit(t[n]) || strchr("+-.", t[n])))))
		n++;
	if (n == 0 || len - n < 3 || memcmp(t + n, "://", 3) != 0)
		return fail(why, "this is not a tftp:// or http:// address",
			    -EINVAL);
	*after = n + 3;
	if (n == 4 && strncasecmp(t, "tftp", 4) == 0) {
		u->scheme = NET_SCHEME_TFTP;
		u->port = NET_PORT_TFTP;
	} else if (n == 4 && strncasecmp(t, "http", 4) == 0) {
		u->scheme = NET_SCHEME_HTTP;
		u->port = NET_PORT_HTTP;
	} else if (n == 5 && strncasecmp(t, "https", 5) == 0) {
		return fail(why, "https is not supported yet",
			    -EPROTONOSUPPORT);
	} else {
		return fail(why,
			    "only tftp:// and http:// addresses are "
			    "supported",
			    -EPROTONOSUPPORT);
	}
	return 0;
}

static int parse_port(const char *s, size_t len, struct net_url *u,
		      const char **why)
{
	unsigned long n = 0;

	if (len == 0) /* "host:" is allowed: the default port */
		return 0;
	if (len > 5)
		return fail(why,
			    "the port in the address is not a number "
			    "from 1 to 65535",
			    -EINVAL);
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return fail(why,
				    "the port in the address is not a "
				    "number from 1 to 65535",
				    -EINVAL);
		n = n * 10 + (unsigned long)(s[i] - '0');
	}
	if (n == 0 || n > 65535)
		return fail(why,
			    "the port in the address is not a number "
			    "from 1 to 65535",
			    -EINVAL);
	u->port = (uint16_t)n;
	return 0;
}

static int parse_ipv6(const char *s, size_t len, struct net_url *u,
		      const char **why)
{
	unsigned char bin[16];
	char tmp[64];

	if (len == 0 || len >= sizeof(tmp) || memchr(s, '%', len))
		return fail(why, "the IPv6 address in brackets is not valid",
			    -EINVAL);
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (inet_pton(AF_INET6, tmp, bin) != 1)
		return fail(why, "the IPv6 address in brackets is not valid",
			    -EINVAL);
	memcpy(u->host, tmp, len + 1);
	u->host_kind = NET_HOST_IPV6;
	return 0;
}

static int parse_name(const char *s, size_t len, struct net_url *u,
		      const char **why)
{
	size_t dots = 0;

	if (len == 0)
		return fail(why, "the address has no server name", -EINVAL);
	if (len >= NET_URL_HOST_MAX)
		return fail(why, "the server name in the address is too long",
			    -ENAMETOOLONG);
	for (size_t i = 0; i < len; i++) {
		if (!is_alpha(s[i]) && !is_digit(s[i]) && !strchr(".-_", s[i]))
			return fail(why,
				    "the server name in the address has "
				    "a character names cannot have",
				    -EINVAL);
		dots += is_digit(s[i]) || s[i] == '.';
	}
	memcpy(u->host, s, len);
	u->host[len] = '\0';
	u->host_kind = NET_HOST_NAME;
	if (dots < len) /* a letter: a name, not an address */
		return 0;
	if (net_ipv4_parse(s, len, u->ip) < 0)
		return fail(why, "the IPv4 address in the address is not valid",
			    -EINVAL);
	u->host_kind = NET_HOST_IPV4;
	return 0;
}

/* The authority a[0..len): host, then an optional ":port". */
static int parse_authority(const char *a, size_t len, struct net_url *u,
			   const char **why)
{
	size_t host_end;
	int rc;

	if (memchr(a, '@', len))
		return fail(why, "a user name in the address is not supported",
			    -EINVAL);
	if (len > 0 && a[0] == '[') {
		const char *close = memchr(a, ']', len);

		if (!close)
			return fail(why, "the IPv6 address has no closing ]",
				    -EINVAL);
		host_end = (size_t)(close - a) + 1;
		rc = parse_ipv6(a + 1, host_end - 2, u, why);
	} else {
		host_end = span(a, len, ":");
		rc = parse_name(a, host_end, u, why);
	}
	if (rc < 0)
		return rc;
	if (host_end == len)
		return 0;
	if (a[host_end] != ':')
		return fail(why,
			    "the server in the address is followed by "
			    "something that is not a port",
			    -EINVAL);
	return parse_port(a + host_end + 1, len - host_end - 1, u, why);
}

/* Split path[?query][#fragment] at @p: the path decoded, the query kept. */
static int parse_tail(const char *p, size_t len, struct net_url *u,
		      const char **why)
{
	bool http = u->scheme == NET_SCHEME_HTTP;
	size_t end = span(p, len, "#");
	size_t plen = span(p, end, http ? "?" : "");
	int rc;

	if (plen == 0) {
		strcpy(u->path, "/");
	} else {
		rc = decode(p, plen, u->path, sizeof(u->path), why);
		if (rc < 0)
			return rc;
	}
	u->has_query = plen < end;
	u->query[0] = '\0';
	if (!u->has_query)
		return 0;
	if (end - plen - 1 >= sizeof(u->query))
		return fail(why, "the query in the address is too long",
			    -ENAMETOOLONG);
	memcpy(u->query, p + plen + 1, end - plen - 1);
	u->query[end - plen - 1] = '\0';
	return 0;
}

static int check_text(const char *text, size_t len, const char **why)
{
	if (len == 0)
		return fail(why, "the address is empty", -EINVAL);
	if (len >= NET_URL_TEXT_MAX)
		return fail(why, "the address is too long", -ENAMETOOLONG);
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\0' || is_ctl((unsigned char)text[i]))
			return fail(why,
				    "the address has a control character in it",
				    -EINVAL);
	return 0;
}

int net_url_parse(const char *text, size_t len, struct net_url *u,
		  const char **why)
{
	size_t at, alen;
	int rc;

	memset(u, 0, sizeof(*u));
	rc = check_text(text, len, why);
	if (rc == 0)
		rc = parse_scheme(text, len, u, &at, why);
	if (rc < 0)
		return rc;
	alen = span(text + at, len - at, "/?#");
	rc = parse_authority(text + at, alen, u, why);
	if (rc < 0)
		return rc;
	at += alen;
	/* "http://h?q": a query right after the server, path "/" */
	if (at < len && text[at] == '?' && u->scheme == NET_SCHEME_TFTP)
		return fail(why, "the tftp address has no file path", -EINVAL);
	return parse_tail(text + at, len - at, u, why);
}

/* RFC 3986 5.2.4 on a decoded path that begins with '/', in place: drop
 * "." segments, let ".." remove the one before it, and stop at the root. */
static void remove_dots(char *p)
{
	char *in = p + 1, *out = p + 1;

	while (*in) {
		size_t n = strcspn(in, "/");
		bool last = in[n] == '\0';

		if (n == 2 && in[0] == '.' && in[1] == '.') {
			if (out > p + 1)
				out--;
			while (out > p + 1 && out[-1] != '/')
				out--;
		} else if (!(n == 1 && in[0] == '.')) {
			memmove(out, in, n);
			out += n;
			if (!last)
				*out++ = '/';
		}
		in += last ? n : n + 1;
	}
	*out = '\0';
}

/* RFC 3986 5.2.3: base's directory (up to its last '/') and @rel. */
static int merge(const char *base, const char *rel, char *out, size_t size,
		 const char **why)
{
	size_t dir = (size_t)(strrchr(base, '/') - base) + 1;
	size_t rlen = strlen(rel);

	if (dir + rlen >= size)
		return fail(why, "the path in the address is too long",
			    -ENAMETOOLONG);
	memmove(out + dir, rel, rlen + 1);
	memmove(out, base, dir);
	return 0;
}

/* Does ref begin with "scheme:" (RFC 3986 3.1)? */
static bool has_scheme(const char *ref, size_t len)
{
	size_t n = 0;

	if (len == 0 || !is_alpha(ref[0]))
		return false;
	while (n < len &&
	       (is_alpha(ref[n]) || is_digit(ref[n]) || strchr("+-.", ref[n])))
		n++;
	return n < len && ref[n] == ':';
}

static int resolve_network_path(const struct net_url *base, const char *ref,
				size_t len, struct net_url *out,
				const char **why)
{
	char text[NET_URL_TEXT_MAX];
	const char *scheme =
	    base->scheme == NET_SCHEME_TFTP ? "tftp:" : "http:";

	if (len + 5 >= sizeof(text))
		return fail(why, "the address is too long", -ENAMETOOLONG);
	memcpy(text, scheme, 5);
	memcpy(text + 5, ref, len);
	return net_url_parse(text, len + 5, out, why);
}

int net_url_resolve(const struct net_url *base, const char *ref, size_t len,
		    struct net_url *out, const char **why)
{
	struct net_url u;
	char rel[NET_URL_PATH_MAX];
	int rc;

	rc = len > 0 ? check_text(ref, len, why) : 0;
	if (rc < 0)
		return rc;
	if (has_scheme(ref, len))
		return net_url_parse(ref, len, out, why);
	if (len >= 2 && ref[0] == '/' && ref[1] == '/')
		return resolve_network_path(base, ref, len, out, why);
	u = *base;
	rc = parse_tail(ref, len, &u, why);
	if (rc < 0)
		return rc;
	if (span(ref, len, u.scheme == NET_SCHEME_HTTP ? "?#" : "#") == 0) {
		/* "" or "?q" or "#f": base's path; the query only if given */
		memcpy(u.path, base->path, sizeof(u.path));
		if (!u.has_query) {
			memcpy(u.query, base->query, sizeof(u.query));
			u.has_query = base->has_query;
		}
	} else if (ref[0] != '/') {
		memcpy(rel, u.path, sizeof(rel));
		rc = merge(base->path, rel, u.path, sizeof(u.path), why);
		if (rc < 0)
			return rc;
	}
	remove_dots(u.path);
	*out = u;
	return 0;
}

/* RFC 3986 3.3: what a path may hold unencoded (pchar and '/'). */
static bool path_char_plain(unsigned char c)
{
	return is_alpha((char)c) || is_digit((char)c) ||
	       (c && strchr("-._~!$&'()*+,;=:@/", c));
}

static int put(char *buf, size_t size, size_t *at, const char *s, size_t n)
{
	if (n >= size - *at)
		return -ENAMETOOLONG;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
	return 0;
}

static int put_path(char *buf, size_t size, size_t *at, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
		int rc = path_char_plain(*p) ? put(buf, size, at, (char *)p, 1)
					     : put(buf, size, at, esc, 3);

		if (rc < 0)
			return rc;
	}
	return 0;
}

int net_url_format(const struct net_url *u, char *buf, size_t size)
{
	bool tftp = u->scheme == NET_SCHEME_TFTP;
	bool v6 = u->host_kind == NET_HOST_IPV6;
	char port[8] = "";
	size_t at = 0;
	int rc;

	if (size == 0)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	if (u->port != (tftp ? NET_PORT_TFTP : NET_PORT_HTTP))
		snprintf(port, sizeof(port), ":%u", (unsigned)u->port);
	rc = put(buf, size, &at, tftp ? "tftp://" : "http://", 7);
	if (rc == 0 && v6)
		rc = put(buf, size, &at, "[", 1);
	if (rc == 0)
		rc = put(buf, size, &at, u->host, strlen(u->host));
	if (rc == 0 && v6)
		rc = put(buf, size, &at, "]", 1);
	if (rc == 0)
		rc = put(buf, size, &at, port, strlen(port));
	if (rc == 0)
		rc = put_path(buf, size, &at, u->path);
	if (rc == 0 && u->has_query && !tftp)
		rc = put(buf, size, &at, "?", 1);
	if (rc == 0 && u->has_query && !tftp)
		rc = put(buf, size, &at, u->query, strlen(u->query));
	return rc < 0 ? rc : (int)at;
}
