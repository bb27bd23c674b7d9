/* test_net_link.c - the table of links in use (which link has a job, what
 * a kernel message means for it), the rtnetlink parser, and wired links
 * told from a sysfs tree. */
#include "test.h"
#include "net/link.h"
#include "net/watch.h"

#include <errno.h>
#include <unistd.h>

/* The links a test calls wired: any name but those starting "wl". */
static bool wired_names(const char *name, void *ctx)
{
	int *asked = ctx;

	(*asked)++;
	return strncmp(name, "wl", 2) != 0;
}

/* One message for net_links_apply() and what it must answer. */
struct step {
	char what; /* 'n' RTM_NEWLINK, 'd' RTM_DELLINK */
	int index;
	const char *name;
	bool carrier;
	enum net_link_do want;
	int slot; /* the slot it must name; -1: none */
};

/* Feed @steps to @t, checking each answer and slot. */
static void run(struct net_links *t, const struct step *steps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct step *st = &steps[i];
		struct net_link_msg m = {.gone = st->what == 'd',
					 .index = st->index,
					 .carrier = st->carrier};
		size_t slot = 99;
		enum net_link_do got;

		snprintf(m.name, sizeof(m.name), "%s", st->name);
		got = net_links_apply(t, &m, &slot);
		if (got == st->want &&
		    slot == (st->slot < 0 ? 99 : (size_t)st->slot))
			continue;
		printf("  step %zu (%c %d %s): answer %d slot %zu, want %d "
		       "slot %d\n",
		       i, st->what, st->index, st->name, got, slot, st->want,
		       st->slot);
		test_failures++;
	}
}

#define RUN(t, steps) run(t, steps, sizeof(steps) / sizeof(steps[0]))

TEST(links_come_flap_and_go)
{
	int asked = 0;
	struct net_links t = {.wired = wired_names, .ctx = &asked};
	static const struct step come[] = {
	    {'n', 2, "eth0", false, NET_LINK_START, 0},
	    /* the same flags again (the kernel repeats them): nothing */
	    {'n', 2, "eth0", false, NET_LINK_KEEP, 0},
	    {'n', 2, "eth0", true, NET_LINK_BACK, 0},
	    {'n', 2, "eth0", true, NET_LINK_KEEP, 0},
	    {'n', 2, "eth0", false, NET_LINK_LOST, 0},
	    {'n', 2, "eth0", true, NET_LINK_BACK, 0},
	    {'n', 5, "eth1", true, NET_LINK_START, 1},
	    {'d', 2, "eth0", false, NET_LINK_END, 0},
	    /* ending: nothing changes until its job is joined */
	    {'d', 2, "eth0", false, NET_LINK_KEEP, -1},
	    {'n', 2, "eth0", true, NET_LINK_KEEP, -1},
	    /* nor can a new link have its slot */
	    {'n', 9, "eth2", false, NET_LINK_START, 2},
	    /* the removal of a link never taken: nothing */
	    {'d', 40, "eth7", false, NET_LINK_KEEP, -1},
	    /* a message without a name says nothing of one; a new name
	     * under the same index ends the link (it comes back as new) */
	    {'n', 4, "eth4", true, NET_LINK_START, 3},
	    {'n', 4, "", false, NET_LINK_LOST, 3},
	    {'n', 4, "enp0s3", false, NET_LINK_END, 3},
	};
	static const struct step reused[] = {
	    {'n', 11, "eth3", false, NET_LINK_START, 0},
	};

	RUN(&t, come);
	CHECK_INT(asked, 4); /* a known link is not looked up again */
	CHECK_STR(t.slot[0].name, "eth0");
	CHECK_INT(t.slot[0].state, NET_SLOT_ENDING);
	CHECK(t.slot[1].carrier);
	net_links_free(&t, 0);
	CHECK_INT(t.slot[0].state, NET_SLOT_FREE);
	RUN(&t, reused);
	CHECK_INT(t.slot[0].index, 11);
	/* net_links_free() of a live slot does nothing */
	net_links_free(&t, 1);
	CHECK_INT(t.slot[1].state, NET_SLOT_LIVE);
}

TEST(links_filtered_and_full)
{
	int asked = 0;
	struct net_links t = {.wired = wired_names, .ctx = &asked};
	struct net_links one = {
	    .only = "eth1", .wired = wired_names, .ctx = &asked};
	static const struct step wifi[] = {
	    {'n', 3, "wlan0", true, NET_LINK_KEEP, -1},
	};
	static const struct step full[] = {
	    {'n', 99, "eth99", false, NET_LINK_FULL, -1},
	    {'d', 12, "eth2", false, NET_LINK_END, 2},
	};
	static const struct step after[] = {
	    {'n', 99, "eth99", false, NET_LINK_START, 2},
	};
	/* bootmenu.net=eth1: only that one */
	static const struct step only[] = {
	    {'n', 2, "eth0", true, NET_LINK_KEEP, -1},
	    {'n', 3, "eth1", true, NET_LINK_START, 0},
	};

	RUN(&t, wifi);
	CHECK_INT(t.slot[0].state, NET_SLOT_FREE);
	for (int i = 0; i < NET_LINKS_MAX; i++) {
		struct step st = {'n', 10 + i, "", false, NET_LINK_START, i};
		char name[NET_IFNAME_MAX];

		snprintf(name, sizeof(name), "eth%d", i);
		st.name = name;
		run(&t, &st, 1);
	}
	RUN(&t, full);
	net_links_free(&t, 2);
	RUN(&t, after);
	RUN(&one, only);
}

/* One netlink message: header, ifinfomsg, then IFLA_IFNAME when @name. */
static size_t nl_put(uint8_t *p, uint16_t type, int index, uint32_t flags,
		     const char *name)
{
	size_t nlen = name ? strlen(name) + 1 : 0;
	size_t alen = nlen ? 4 + nlen : 0;
	uint32_t len = (uint32_t)(16 + 16 + ((alen + 3) & ~(size_t)3));
	uint16_t a_len = (uint16_t)alen, a_type = 3; /* IFLA_IFNAME */

	memset(p, 0, len);
	memcpy(p, &len, 4);
	memcpy(p + 4, &type, 2);
	memcpy(p + 16 + 4, &index, 4);
	memcpy(p + 16 + 8, &flags, 4);
	if (nlen) {
		memcpy(p + 32, &a_len, 2);
		memcpy(p + 34, &a_type, 2);
		memcpy(p + 36, name, nlen);
	}
	return len;
}

TEST(netlink_messages_parsed)
{
	uint8_t buf[512];
	struct net_link_msg m[4];
	size_t n = 0;

	/* RTM_NEWLINK (16) with IFF_UP|IFF_LOWER_UP, an RTM_NEWADDR (20)
	 * skipped, RTM_DELLINK (17) */
	n += nl_put(buf + n, 16, 2, 0x10001, "eth0");
	n += nl_put(buf + n, 20, 2, 0, NULL);
	n += nl_put(buf + n, 17, 7, 0x1, "eth1");
	CHECK_INT(net_watch_parse(buf, n, m, 4), 2);
	CHECK_INT(m[0].index, 2);
	CHECK_STR(m[0].name, "eth0");
	CHECK(m[0].carrier);
	CHECK(!m[0].gone);
	CHECK_INT(m[1].index, 7);
	CHECK_STR(m[1].name, "eth1");
	CHECK(!m[1].carrier);
	CHECK(m[1].gone);
	/* no more than max */
	CHECK_INT(net_watch_parse(buf, n, m, 1), 1);
	/* IFF_UP without IFF_LOWER_UP: no carrier */
	n = nl_put(buf, 16, 3, 0x1, "eth2");
	CHECK_INT(net_watch_parse(buf, n, m, 4), 1);
	CHECK(!m[0].carrier);
}

TEST(netlink_bad_bytes_refused)
{
	uint8_t buf[512];
	struct net_link_msg m[4];
	size_t n = nl_put(buf, 16, 2, 0x10001, "eth0");
	uint32_t big = 4096;
	uint16_t alen = 200;

	/* cut short: the header's length runs past the buffer */
	CHECK_INT(net_watch_parse(buf, n - 1, m, 4), -EBADMSG);
	/* a length past the datagram */
	memcpy(buf, &big, 4);
	CHECK_INT(net_watch_parse(buf, n, m, 4), -EBADMSG);
	/* an attribute longer than its message */
	n = nl_put(buf, 16, 2, 0x10001, "eth0");
	memcpy(buf + 32, &alen, 2);
	CHECK_INT(net_watch_parse(buf, n, m, 4), -EBADMSG);
	/* a name with no room for its NUL within IFNAMSIZ */
	n = nl_put(buf, 16, 2, 0, "eth0123456789abcdef");
	CHECK_INT(net_watch_parse(buf, n, m, 4), -EBADMSG);
	/* a link message too short for its ifinfomsg */
	n = nl_put(buf, 16, 2, 0, NULL);
	big = 20;
	memcpy(buf, &big, 4);
	CHECK_INT(net_watch_parse(buf, 20, m, 4), -EBADMSG);
	/* index 0 is no link: skipped */
	n = nl_put(buf, 16, 0, 0, "eth0");
	CHECK_INT(net_watch_parse(buf, n, m, 4), 0);
	/* fewer bytes than a header: nothing */
	CHECK_INT(net_watch_parse(buf, 8, m, 4), 0);
}

static void put(const char *dir, const char *name, const char *what,
		const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, what);
	if (text[0] == '/') { /* a symlink's target */
		if (symlink(text, path) < 0)
			abort();
		return;
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

TEST(sysfs_wired_links_and_index)
{
	char top[64], names[4][NET_IFNAME_MAX];

	test_tmpdir(top, sizeof(top), "test_net_link");
	put(top, "eth1", "type", "1\n");
	put(top, "eth1", "ifindex", "3\n");
	put(top, "eth1", "device", "/");
	put(top, "eth0", "type", "1\n");
	put(top, "eth0", "ifindex", "2\n");
	put(top, "eth0", "device", "/");
	put(top, "wlan0", "type", "1\n");
	put(top, "wlan0", "device", "/");
	put(top, "wlan0", "wireless", "x");
	put(top, "lo", "type", "772\n");
	put(top, "br0", "type", "1\n"); /* no device: a bridge */
	put(top, "bad", "ifindex", "x\n");
	CHECK_INT(net_links_list(top, NULL, names, 4), 2);
	CHECK_STR(names[0], "eth0");
	CHECK_STR(names[1], "eth1");
	CHECK_INT(net_links_list(top, "eth1", names, 4), 1);
	CHECK_STR(names[0], "eth1");
	CHECK(net_link_wired(top, "eth0"));
	CHECK(!net_link_wired(top, "wlan0"));
	CHECK(!net_link_wired(top, "br0"));
	CHECK(!net_link_wired(top, "lo"));
	CHECK(!net_link_wired(top, "gone0"));
	CHECK_INT(net_link_index(top, "eth1"), 3);
	CHECK_INT(net_link_index(top, "bad"), -EINVAL);
	CHECK_INT(net_link_index(top, "gone0"), -ENOENT);
	test_rmtree(top);
}

TEST_MAIN("test_net_link", links_come_flap_and_go, links_filtered_and_full,
	  netlink_messages_parsed, netlink_bad_bytes_refused,
	  sysfs_wired_links_and_index)
