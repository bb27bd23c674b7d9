/* fuzz_url.c - addresses: parse, write back, parse again (the two parses
 * must agree), and resolve: the input's first line is the base, the rest
 * the reference. The same bytes as the machine's UUID text too. */
#include "net/names.h"
#include "net/url.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void same(const struct net_url *a, const struct net_url *b)
{
	if (a->scheme != b->scheme || a->host_kind != b->host_kind ||
	    strcmp(a->host, b->host) != 0 || a->port != b->port ||
	    strcmp(a->path, b->path) != 0 || a->has_query != b->has_query ||
	    strcmp(a->query, b->query) != 0)
		abort();
}

/* Format @u and parse the text again: the same address comes back. */
static void round_trip(const struct net_url *u)
{
	static char text[4 * NET_URL_TEXT_MAX];
	struct net_url again;
	const char *why;
	int n = net_url_format(u, text, sizeof(text));

	if (n < 0 || (size_t)n != strlen(text))
		abort();
	if (n >= NET_URL_TEXT_MAX) /* encoding can make it longer */
		return;
	if (net_url_parse(text, (size_t)n, &again, &why) < 0)
		abort();
	same(u, &again);
	if (u->path[0] != '/')
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *why = NULL;
	const char *nl = memchr(s, '\n', size);
	size_t first = nl ? (size_t)(nl - s) : size;
	struct net_url u, r;
	uint8_t uuid[16];
	char text[NET_UUID_TEXT];

	/* the machine's UUID (sysfs text): what parses formats back the same,
	 * lower case */
	if (net_uuid_parse(s, size, uuid) == 0) {
		net_uuid_format(uuid, text);
		if (strncasecmp(text, s, NET_UUID_TEXT - 1) != 0)
			abort();
	}
	if (net_url_parse(s, size, &u, &why) == 0)
		round_trip(&u);
	else if (!why)
		abort();
	if (!nl || net_url_parse(s, first, &u, &why) < 0)
		return 0;
	why = NULL;
	if (net_url_resolve(&u, nl + 1, size - first - 1, &r, &why) == 0)
		round_trip(&r);
	else if (!why)
		abort();
	return 0;
}
