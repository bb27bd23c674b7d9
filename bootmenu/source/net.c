/* source/net.c - the network as a source: one remote root per link.
 *
 * One thread per wired link (net/link.h) does, in turn: bring the link
 * up, wait for a carrier (for as long as bootmenu runs: a cable plugged
 * in later counts), DHCP (net/dhcp.h, up to NET_TRIES attempts with a
 * growing pause), then look on the server for the config the loader DHCP
 * named would read (net/search.h), fetching each name in order until one
 * is there. The link's remote root (net/remote.h) is announced with that
 * config, or with the reason there is none, and the parsers read it like
 * any filesystem. Then the thread holds the lease until the carrier goes:
 * the root is removed (its entries leave the menu, its transfers stop)
 * and the thread waits for the carrier again, for a new lease and a new
 * root.
 *
 * Links come and go as they are plugged (net/watch.h): a watcher thread
 * reads the kernel's link messages, starts a thread for a new wired link
 * (up to NET_LINKS_MAX), tells a link's thread when its carrier goes or
 * comes back, ends it when the link is removed, and joins it. Without the
 * kernel's messages the links at start still work: each thread also reads
 * the carrier from sysfs.
 *
 * A removed root may still be pointed at by the session until it has
 * taken SOURCE_FS_REMOVED and freed every arena that could point at it:
 * it is freed in net_release(), the session handing that root back
 * (session_release()), so memory stays flat over any number of flaps.
 *
 * The source says SETTLED at once: the countdown starts when the local
 * disks have settled, whatever the network is doing, and network entries
 * join the menu when they arrive.
 */
#include "net/dhcp.h"
#include "net/dns.h"
#include "net/lease.h"
#include "net/link.h"
#include "net/remote.h"
#include "net/search.h"
#include "net/watch.h"
#include "source/source.h"
#include "util/file.h"
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NET_SYSFS "/sys/class/net"
#define NET_TRIES 3 /* DHCP attempts, NET_DHCP_TRIES discovers each */
#define NET_DMI_UUID "/sys/class/dmi/id/product_uuid"
/* With wait (the --list and --boot faces): a link with no carrier this
 * long counts as done. */
#define NET_CARRIER_WAIT_MS 5000
/* How often a link's thread reads the carrier from sysfs while it waits
 * for one, and while it holds a lease (a kernel message may be lost). */
#define NET_CARRIER_POLL_MS 250
#define NET_HOLD_POLL_MS 1000
/* Links a listing may show (more than used: a listing must see every
 * link in use to tell which went). */
#define NET_LIST_MAX 32

struct net_src;

/* One lease's remote root and everything its fs_root and fs_net point
 * into, so that it lives as one piece until net_release() frees it. */
struct net_root {
	struct net_remote *rt; /* NULL until the lease names a server */
	struct net_search s;   /* the lease, the server, the config */
	char ifname[NET_IFNAME_MAX];
	char label[128];
	struct net_src *src;
	bool told;	 /* SOURCE_FS_ADDED given */
	bool fs_changed; /* a fetch of it ended: SOURCE_FS_CHANGED */
	struct net_root *next;
};

struct job {
	struct net_src *src;
	char ifname[NET_IFNAME_MAX];
	pthread_t thread;
	bool started, ended; /* ended: the thread returned, to be joined */
	bool counted;	     /* a link there at start (wait's count) */
	bool done;	     /* counted in n_done */
	bool gone;	     /* the link was removed: the thread ends */
	_Atomic int abort;   /* stop this lease: carrier lost, link gone */
	_Atomic pid_t child;
	struct net_root *r; /* the lease being made or announced */
	char state[80];	    /* for the status line, under the source's lock */
};

struct net_src {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a link's carrier or presence changed */
	int efd;
	/* roots to announce, to remove (announced, link lost), and removed
	 * (told) until the session releases them: under the lock */
	struct net_root *adds, *removes, *dead;
	bool settled_told;
	_Atomic int cancel;
	bool uefi;
	bool has_uuid; /* SMBIOS gave the machine's UUID */
	uint8_t uuid[16];
	bool wait;		 /* SETTLED once every link at start is done */
	bool auto_mode;		 /* network = auto (source_net_new()) */
	bool state_changed;	 /* a link's state changed: SOURCE_DEVICE */
	size_t n_counted;	 /* links at start */
	size_t n_done;		 /* of them, done (announced or given up) */
	_Atomic unsigned serial; /* names each root's cache directory */
	char dir[64];
	char only[64];		/* the one link asked for, or "" */
	struct net_links links; /* which link has which job slot */
	struct job jobs[NET_LINKS_MAX];
	int nl;	     /* the kernel's link messages (net/watch.h), or -1 */
	int wake_fd; /* wakes the watcher: a thread ended, or stop */
	pthread_t watcher;
	bool watching;
	bool full_said;	    /* "more than NET_LINKS_MAX links" said once */
	struct net_dns dns; /* the leases' DNS servers: under the lock */
};

/* Make the source's fd readable: an event is waiting. */
static void wake(struct job *j)
{
	uint64_t one = 1;

	if (write(j->src->efd, &one, sizeof(one)) < 0)
		log_warn("%s: cannot wake the menu", j->ifname);
}

/* net/remote.h's callback, on the root's worker: a file a parse asked
 * for has come (or failed), so the root is to be parsed again. */
static void fetched(void *ctx, const struct fs_root *fs)
{
	struct net_root *r = ctx;
	uint64_t one = 1;

	(void)fs;
	pthread_mutex_lock(&r->src->lock);
	r->fs_changed = true;
	pthread_mutex_unlock(&r->src->lock);
	if (write(r->src->efd, &one, sizeof(one)) < 0)
		log_warn("%s: cannot wake the menu", r->ifname);
}

/* Wake the watcher: a link's thread ended, or the source stops. */
static void wake_watcher(struct net_src *ns)
{
	uint64_t one = 1;

	if (ns->wake_fd >= 0 && write(ns->wake_fd, &one, sizeof(one)) < 0)
		log_debug("network: cannot wake the watcher");
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for the source's condition at most @ms. Under the lock. */
static void cond_wait_ms(struct net_src *ns, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&ns->cond, &ns->lock, &ts);
}

static void root_free(struct net_root *r)
{
	if (!r)
		return;
	net_remote_free(r->rt);
	free(r);
}

static void list_add(struct net_root **head, struct net_root *r)
{
	r->next = NULL;
	while (*head)
		head = &(*head)->next;
	*head = r;
}

static void list_del(struct net_root **head, struct net_root *r)
{
	for (; *head; head = &(*head)->next)
		if (*head == r) {
			*head = r->next;
			r->next = NULL;
			return;
		}
}

static void list_free(struct net_root *r)
{
	while (r) {
		struct net_root *next = r->next;

		root_free(r);
		r = next;
	}
}

/* A link there at start is done, for wait's SETTLED. Under the lock. */
static void count_done(struct job *j)
{
	if (j->counted && !j->done) {
		j->done = true;
		j->src->n_done++;
	}
}

/* The lease's work is over: its root (when it has one) for the session,
 * unless the link went meanwhile. */
static void offer(struct job *j)
{
	struct net_src *ns = j->src;

	pthread_mutex_lock(&ns->lock);
	if (j->r && j->r->rt && !j->abort && !ns->cancel)
		list_add(&ns->adds, j->r);
	count_done(j);
	j->state[0] = '\0';
	ns->state_changed = true;
	pthread_mutex_unlock(&ns->lock);
	wake(j);
}

/* The lease is over (the carrier went, the link went, or the source
 * stops): its root leaves, with SOURCE_FS_REMOVED once it was announced
 * (net_release() frees it), at once when it never was. */
static void withdraw(struct job *j)
{
	struct net_src *ns = j->src;
	struct net_root *r, *drop = NULL;
	bool told = false;

	pthread_mutex_lock(&ns->lock);
	r = j->r;
	j->r = NULL;
	if (r && r->rt)
		net_remote_cancel(r->rt);
	if (r && r->told) {
		told = true;
		list_add(&ns->removes, r);
	} else if (r) {
		list_del(&ns->adds, r);
		drop = r;
	}
	pthread_mutex_unlock(&ns->lock);
	root_free(drop);
	if (told && !ns->cancel)
		log_info("%s: the link is down: its entries leave", j->ifname);
	if (told)
		wake(j);
}

/* Sleep @ms, in steps, unless the lease is stopped. False then. */
static bool pause_ms(struct job *j, int ms)
{
	for (; ms > 0 && !j->abort; ms -= 100)
		usleep(100 * 1000);
	return !j->abort;
}

/* What the link is doing, for the status line ("" when nothing). */
static void set_state(struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_state(struct job *j, const char *fmt, ...)
{
	struct net_src *ns = j->src;
	va_list ap;

	pthread_mutex_lock(&ns->lock);
	va_start(ap, fmt);
	vsnprintf(j->state, sizeof(j->state), fmt, ap);
	va_end(ap);
	ns->state_changed = true;
	pthread_mutex_unlock(&ns->lock);
	wake(j);
}

/* net/search.h's status line: the config being looked for. */
static void looking(void *ctx, const char *name)
{
	struct job *j = ctx;

	set_state(j, "%s: looking for %.60s", j->ifname, name);
}

/* A new lease's root, as j->r (no server yet). NULL without memory. */
static struct net_root *root_new(struct job *j)
{
	struct net_src *ns = j->src;
	struct net_root *r = calloc(1, sizeof(*r));

	if (!r) {
		log_warn("%s: cannot ask for an address: out of memory",
			 j->ifname);
		return NULL;
	}
	memcpy(r->ifname, j->ifname, sizeof(r->ifname));
	r->src = ns;
	r->s =
	    (struct net_search){.ifname = r->ifname,
				.smbios_uuid = ns->has_uuid ? ns->uuid : NULL,
				.cancel = &j->abort,
				.looking = looking,
				.ctx = j};
	pthread_mutex_lock(&ns->lock);
	j->r = r;
	pthread_mutex_unlock(&ns->lock);
	return r;
}

static void make_root(struct job *j, const char *server)
{
	struct net_src *ns = j->src;
	struct net_root *r = j->r;
	char cache[128];
	struct net_remote *rt;
	struct fs_root *fs;

	/* a directory of its own: the last lease's root may still be there */
	snprintf(cache, sizeof(cache), "%s/%s.%u", ns->dir, r->ifname,
		 ++ns->serial);
	rt = net_remote_new(server, cache);
	if (!rt) {
		log_warn("%s: cannot make %s: %s", j->ifname, cache,
			 strerror(errno));
		return;
	}
	net_remote_on_fetched(rt, fetched, r);
	if (ns->wait) /* --list, --boot: nothing drawn waits */
		net_remote_open_waits(rt);
	fs = net_remote_fs(rt);
	fs->name = r->ifname;
	fs->fstype = "tftp";
	fs->label = r->label;
	pthread_mutex_lock(&ns->lock);
	r->rt = rt;
	if (j->abort) /* the watcher could not stop what was not there */
		net_remote_cancel(rt);
	pthread_mutex_unlock(&ns->lock);
}

/* network = auto: a link offered nothing to boot (DHCP gave no answer,
 * or a lease with no boot file or boot file URL, which most networks
 * give) ends here with no root, so nothing shows in the menu and no
 * server is asked for a config (until its carrier comes back). True when
 * it ended. */
static bool auto_ends(struct job *j, const struct net_root *r, int rc)
{
	const struct net_lease *l = &r->s.lease;

	if (!j->src->auto_mode ||
	    (rc == 0 &&
	     (l->boot_file[0] || l->config_file[0] || l->boot_url[0])))
		return false;
	log_info("%s: %s: nothing to boot from the network (network = auto)",
		 j->ifname,
		 rc < 0 ? "no DHCP answer" : "the lease names no boot file");
	return true;
}

/* Wait until the link has a carrier (true, the lease's abort cleared), or
 * it went or the source stops (false). With wait, a link at start with no
 * carrier within NET_CARRIER_WAIT_MS counts as done; it is still
 * watched. The watcher wakes this at once; sysfs is read each
 * NET_CARRIER_POLL_MS too. */
static bool job_carrier(struct job *j)
{
	struct net_src *ns = j->src;
	long long quiet = now_ms() + NET_CARRIER_WAIT_MS;
	bool up, said = false;

	set_state(j, "%s: waiting for a link", j->ifname);
	for (;;) {
		/* read under the lock: a LOST the watcher did after the read
		 * would else be undone below */
		pthread_mutex_lock(&ns->lock);
		up = net_link_carrier(NET_SYSFS, j->ifname) == 1;
		if (up || j->gone || ns->cancel)
			break;
		if (!said && now_ms() >= quiet) { /* keeps watching, quietly */
			said = true;
			j->state[0] = '\0';
			ns->state_changed = true;
			if (ns->wait && j->counted)
				log_warn("%s: no carrier (is a cable plugged "
					 "in?)",
					 j->ifname);
			if (ns->wait)
				count_done(j);
			wake(j);
		}
		cond_wait_ms(ns, NET_CARRIER_POLL_MS);
		pthread_mutex_unlock(&ns->lock);
	}
	up = !j->gone && !ns->cancel;
	if (up)
		j->abort = 0;
	pthread_mutex_unlock(&ns->lock);
	return up;
}

/* One DHCP attempt into r->s.lease: DHCPv4 first; when it offers nothing
 * or a lease with no boot file, DHCPv6 (stateless), whose lease is taken
 * when it names a boot file URL, or when DHCPv4 gave no lease at all. A
 * DHCPv4 boot file thus wins over a DHCPv6 one on a link that has both,
 * as a PXE firmware tries IPv4 first. */
static int lease_once(struct job *j, struct net_root *r, const char *path4,
		      const char *path6)
{
	struct net_src *ns = j->src;
	const struct net_lease *l4 = &r->s.lease;
	struct net_lease l6;
	char why6[256];
	int rc, rc6;

	rc = net_dhcp_run(ns->dir, j->ifname, path4, ns->uefi,
			  ns->has_uuid ? ns->uuid : NULL, &r->s.lease,
			  &j->child, &j->abort, r->s.why, sizeof(r->s.why));
	if (rc == -ECANCELED || (rc < 0 && rc != -ETIMEDOUT) ||
	    (rc == 0 && (l4->boot_file[0] || l4->config_file[0])))
		return rc;
	set_state(j, "%s: asking for a boot file URL (DHCPv6)", j->ifname);
	rc6 = net_dhcp6_run(ns->dir, j->ifname, path6, &l6, &j->child,
			    &j->abort, why6, sizeof(why6));
	if (rc6 == -ECANCELED)
		return rc6;
	if (rc6 == 0 && (l6.boot_url[0] || rc < 0)) {
		r->s.lease = l6;
		snprintf(r->s.why, sizeof(r->s.why), "%s", why6);
		return 0;
	}
	if (rc6 < 0 && rc6 != -ETIMEDOUT)
		log_warn("%s: DHCPv6: %s", j->ifname, why6);
	return rc;
}

/* The lease's DNS server joins the others in the resolv.conf the
 * initramfs's /etc/resolv.conf points at (net/dns.h), before any name in
 * its boot file is looked up. Servers are kept when a lease ends: a
 * lookup only asks them, and at most three are kept. */
static void dns_take(struct job *j, const struct net_lease *l)
{
	struct net_src *ns = j->src;
	char path[96];
	int added = 0, rc = 0;

	pthread_mutex_lock(&ns->lock);
	if (l->has & NET_LEASE_DNS)
		added += net_dns_add(&ns->dns, l->dns, 4);
	if (l->has & NET_LEASE_DNS6)
		added += net_dns_add(&ns->dns, l->dns6, 16);
	snprintf(path, sizeof(path), "%s/resolv.conf", ns->dir);
	if (added)
		rc = net_dns_write(&ns->dns, path);
	pthread_mutex_unlock(&ns->lock);
	if (rc < 0)
		log_warn("%s: cannot write %s: %s: names will not be looked up",
			 j->ifname, path, strerror(-rc));
}

/* DHCP, then the config the boot file's loader would read: j->r gets a
 * root when there is something to show (a config, or why there is
 * none), unless the lease is stopped. */
static void job_lease(struct job *j)
{
	struct net_src *ns = j->src;
	struct net_root *r = root_new(j);
	char lease_path[128], lease6_path[128];
	int rc = -ETIMEDOUT;
	uint8_t mac[6] = {0};

	if (!r)
		return;
	net_link_mac(NET_SYSFS, j->ifname, mac);
	snprintf(r->s.mac, sizeof(r->s.mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	snprintf(lease_path, sizeof(lease_path), "%s/%s.lease", ns->dir,
		 j->ifname);
	snprintf(lease6_path, sizeof(lease6_path), "%s/%s.lease6", ns->dir,
		 j->ifname);
	for (int t = 0; t < NET_TRIES && !j->abort; t++) {
		set_state(j, "%s: asking for an address (DHCP)", j->ifname);
		rc = lease_once(j, r, lease_path, lease6_path);
		if (rc == 0 || rc == -ECANCELED || rc != -ETIMEDOUT)
			break;
		if (t + 1 < NET_TRIES && !pause_ms(j, 2000 << t))
			return;
	}
	if (j->abort || auto_ends(j, r, rc))
		return;
	if (rc < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%.200s", r->s.why);
		snprintf(r->s.why, sizeof(r->s.why), "%s",
			 rc == -ETIMEDOUT ? "nothing offered: no DHCP answer"
					  : why);
		snprintf(r->label, sizeof(r->label), "%s", r->s.mac);
		make_root(j, "0.0.0.0");
		if (!r->rt)
			return;
		net_remote_net(r->rt)->why = r->s.why;
		log_warn("%s: %s", j->ifname, r->s.why);
		return;
	}
	dns_take(j, &r->s.lease);
	net_search_server(&r->s);
	snprintf(r->label, sizeof(r->label), "%s %s from %s", r->s.mac,
		 r->s.ip[0]    ? r->s.ip
		 : r->s.ip6[0] ? r->s.ip6
			       : "(IPv6)",
		 r->s.server[0] ? r->s.server : "?");
	log_info("%s: %s, boot file \"%s\"", j->ifname, r->label, r->s.file);
	make_root(j, r->s.server[0] ? r->s.server : "0.0.0.0");
	if (!r->rt)
		return;
	r->s.why[0] = '\0';
	r->s.rt = r->rt;
	net_search_config(&r->s);
}

/* Hold the lease until the carrier goes (the watcher sets abort; sysfs
 * is read too, in case its message was lost), the link goes, or the
 * source stops. */
static void job_hold(struct job *j)
{
	struct net_src *ns = j->src;

	pthread_mutex_lock(&ns->lock);
	while (!j->abort && !j->gone && !ns->cancel) {
		cond_wait_ms(ns, NET_HOLD_POLL_MS);
		if (net_link_carrier(NET_SYSFS, j->ifname) != 1)
			break;
	}
	pthread_mutex_unlock(&ns->lock);
}

static void *job_run(void *data)
{
	struct job *j = data;
	struct net_src *ns = j->src;
	char lease_path[128];
	int rc;

	/* below the scan and the menu (this thread alone, and the children
	 * it starts): on one CPU the network must not slow a local boot */
	if (setpriority(PRIO_PROCESS, 0, 10) < 0)
		log_debug("%s: cannot lower the priority", j->ifname);
	if ((rc = net_link_up(j->ifname)) < 0)
		log_warn("%s: cannot bring the link up: %s", j->ifname,
			 strerror(-rc));
	while (job_carrier(j)) {
		job_lease(j);
		offer(j);
		job_hold(j);
		withdraw(j);
	}
	snprintf(lease_path, sizeof(lease_path), "%s/%s.lease", ns->dir,
		 j->ifname);
	unlink(lease_path); /* read long ago; another link may get the name */
	snprintf(lease_path, sizeof(lease_path), "%s/%s.lease6", ns->dir,
		 j->ifname);
	unlink(lease_path);
	pthread_mutex_lock(&ns->lock);
	count_done(j);
	j->state[0] = '\0';
	ns->state_changed = true;
	j->ended = true;
	pthread_mutex_unlock(&ns->lock);
	wake(j);
	wake_watcher(ns);
	return NULL;
}

/* --- the watcher: links as they come and go */

static bool is_wired(const char *name, void *ctx)
{
	(void)ctx;
	return net_link_wired(NET_SYSFS, name);
}

/* Start the thread of the link new in @slot. Under the lock. */
static void job_start(struct net_src *ns, size_t slot, bool at_start)
{
	struct job *j = &ns->jobs[slot];

	*j = (struct job){.src = ns, .counted = at_start};
	memcpy(j->ifname, ns->links.slot[slot].name, sizeof(j->ifname));
	if (at_start)
		ns->n_counted++;
	else
		log_info("%s: a new wired link", j->ifname);
	j->started = pthread_create(&j->thread, NULL, job_run, j) == 0;
	if (!j->started) {
		log_warn("%s: cannot start: out of memory", j->ifname);
		j->ended = true;
		count_done(j);
	}
}

/* Do what message @m means for its link (net_links_apply()). Under the
 * lock. */
static void link_do(struct net_src *ns, const struct net_link_msg *m,
		    bool at_start)
{
	size_t slot = 0;
	enum net_link_do d = net_links_apply(&ns->links, m, &slot);
	struct job *j = &ns->jobs[slot];

	switch (d) {
	case NET_LINK_START:
		job_start(ns, slot, at_start);
		break;
	case NET_LINK_END:
		j->gone = true;
		/* fall through */
	case NET_LINK_LOST: /* its transfers stop now, DHCP within 50 ms */
		j->abort = 1;
		if (j->r && j->r->rt)
			net_remote_cancel(j->r->rt);
		/* fall through */
	case NET_LINK_BACK:
		pthread_cond_broadcast(&ns->cond);
		break;
	case NET_LINK_FULL:
		if (!ns->full_said)
			log_warn("%s: not used: bootmenu uses %d links at most",
				 m->name, NET_LINKS_MAX);
		ns->full_said = true;
		break;
	case NET_LINK_KEEP:
		break;
	}
}

/* The table against the links sysfs lists now: at start, after lost
 * messages, and when a slot frees (a link that found none free, or was
 * renamed, gets one). Returns how many links are listed, or -errno.
 * Under the lock. */
static int links_sync(struct net_src *ns, bool at_start)
{
	char names[NET_LIST_MAX][NET_IFNAME_MAX];
	int idx[NET_LIST_MAX];
	int n = net_links_list(NET_SYSFS, ns->links.only, names, NET_LIST_MAX);
	struct net_link_msg m;

	for (int i = 0; i < n; i++) {
		m = (struct net_link_msg){
		    .index = net_link_index(NET_SYSFS, names[i]),
		    .carrier = net_link_carrier(NET_SYSFS, names[i]) == 1};
		memcpy(m.name, names[i], sizeof(m.name));
		idx[i] = m.index;
		if (m.index > 0)
			link_do(ns, &m, at_start);
	}
	for (size_t k = 0; k < NET_LINKS_MAX && n >= 0; k++) {
		const struct net_link_slot *sl = &ns->links.slot[k];
		bool listed = false;

		for (int i = 0; i < n; i++)
			listed |= idx[i] == sl->index;
		if (sl->state != NET_SLOT_LIVE || listed)
			continue;
		m = (struct net_link_msg){.gone = true, .index = sl->index};
		link_do(ns, &m, false);
	}
	return n;
}

/* Join the threads of links that went. True when a slot freed. Under
 * the lock (let go around each join). */
static bool links_reap(struct net_src *ns)
{
	bool freed = false;

	for (size_t i = 0; i < NET_LINKS_MAX; i++) {
		struct job *j = &ns->jobs[i];

		if (ns->links.slot[i].state != NET_SLOT_ENDING || !j->ended)
			continue;
		if (j->started) {
			pthread_mutex_unlock(&ns->lock);
			pthread_join(j->thread, NULL);
			pthread_mutex_lock(&ns->lock);
		}
		root_free(j->r); /* none: withdraw() took it */
		*j = (struct job){0};
		net_links_free(&ns->links, i);
		freed = true;
	}
	return freed;
}

/* The kernel's messages waiting on ns->nl, each done. False when the
 * socket failed for good. Under the lock. */
static bool links_read(struct net_src *ns)
{
	struct net_link_msg m[NET_WATCH_MSGS];
	int n;

	while (!ns->cancel &&
	       (n = net_watch_read(ns->nl, m, NET_WATCH_MSGS)) != -EAGAIN) {
		if (n == -ENOBUFS || n == -EBADMSG) {
			links_sync(ns, false); /* some were lost */
			continue;
		}
		if (n < 0) {
			log_warn("network: links are no longer watched: %s",
				 strerror(-n));
			return false;
		}
		for (int i = 0; i < n; i++)
			link_do(ns, &m[i], false);
	}
	return true;
}

static void *watch_run(void *data)
{
	struct net_src *ns = data;
	struct pollfd p[2] = {{.fd = ns->nl, .events = POLLIN},
			      {.fd = ns->wake_fd, .events = POLLIN}};
	bool ok = true;
	uint64_t v;

	while (ok && !ns->cancel) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (read(ns->wake_fd, &v, sizeof(v)) < 0)
			v = 0; /* nonblocking: nothing to clear */
		pthread_mutex_lock(&ns->lock);
		ok = links_read(ns);
		if (!ns->cancel && links_reap(ns))
			links_sync(ns, false);
		pthread_mutex_unlock(&ns->lock);
	}
	return NULL;
}

static int net_fd(const struct source *src)
{
	const struct net_src *ns = src->priv;

	return ns->efd;
}

/* A root a fetch changed (fetched()), announced and still the link's,
 * taken: NULL when none. Called with the source's lock. */
static const struct fs_root *changed_root(struct net_src *ns)
{
	for (size_t i = 0; i < NET_LINKS_MAX; i++) {
		struct net_root *r = ns->jobs[i].r;

		if (r && r->told && r->fs_changed) {
			r->fs_changed = false;
			return net_remote_fs(r->rt);
		}
	}
	return NULL;
}

static int net_next(struct source *src, struct source_event *ev)
{
	struct net_src *ns = src->priv;
	struct net_root *r;
	uint64_t v;
	int got = 1;

	ev->fs = NULL;
	pthread_mutex_lock(&ns->lock);
	if ((r = ns->removes)) { /* before any new root of the same link */
		ns->removes = r->next;
		list_add(&ns->dead, r);
		ev->type = SOURCE_FS_REMOVED;
		ev->fs = net_remote_fs(r->rt);
	} else if ((r = ns->adds)) {
		ns->adds = r->next;
		r->next = NULL;
		r->told = true;
		ev->type = SOURCE_FS_ADDED;
		ev->fs = net_remote_fs(r->rt);
	} else if (!ns->settled_told &&
		   (!ns->wait || ns->n_done == ns->n_counted)) {
		ev->type = SOURCE_SETTLED;
		ns->settled_told = true;
	} else if ((ev->fs = changed_root(ns))) {
		ev->type = SOURCE_FS_CHANGED;
	} else if (ns->state_changed) {
		ev->type = SOURCE_DEVICE;
		ns->state_changed = false;
	} else {
		got = 0; /* a thread's offer() after this wakes us again */
		if (read(ns->efd, &v, sizeof(v)) < 0)
			v = 0; /* nonblocking: nothing to clear */
	}
	pthread_mutex_unlock(&ns->lock);
	return got;
}

/* The session holds nothing of @fs any more, a root it took
 * SOURCE_FS_REMOVED for: free it (its cache directory goes with it). */
static void net_release(struct source *src, const struct fs_root *fs)
{
	struct net_src *ns = src->priv;
	struct net_root *r;

	pthread_mutex_lock(&ns->lock);
	for (r = ns->dead; r && net_remote_fs(r->rt) != fs; r = r->next)
		;
	if (r)
		list_del(&ns->dead, r);
	pthread_mutex_unlock(&ns->lock);
	root_free(r);
}

static size_t net_status(const struct source *src, char *buf, size_t len)
{
	struct net_src *ns = src->priv;
	size_t used = 0;

	buf[0] = '\0';
	pthread_mutex_lock(&ns->lock);
	for (size_t i = 0; i < NET_LINKS_MAX && used + 1 < len; i++) {
		const char *st = ns->jobs[i].state;
		int n;

		if (!st[0])
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? "; " : "",
			     st);
		used = n < 0 ? used : used + (size_t)n;
	}
	pthread_mutex_unlock(&ns->lock);
	return used < len ? used : len - 1;
}

static void net_stop(struct source *src)
{
	struct net_src *ns = src->priv;

	pthread_mutex_lock(&ns->lock);
	ns->cancel = 1;
	for (size_t i = 0; i < NET_LINKS_MAX; i++) {
		struct job *j = &ns->jobs[i];
		pid_t pid = j->child;

		j->abort = 1;
		if (pid > 0)
			kill(pid, SIGKILL);
		if (j->r && j->r->rt)
			net_remote_cancel(j->r->rt);
	}
	pthread_cond_broadcast(&ns->cond);
	pthread_mutex_unlock(&ns->lock);
	wake_watcher(ns);
}

static void net_free(struct source *src)
{
	struct net_src *ns = src->priv;

	net_stop(src);
	if (ns->watching)
		pthread_join(ns->watcher, NULL);
	for (size_t i = 0; i < NET_LINKS_MAX; i++) {
		if (ns->jobs[i].started)
			pthread_join(ns->jobs[i].thread, NULL);
		root_free(ns->jobs[i].r); /* none: withdraw() took it */
	}
	list_free(ns->removes);
	list_free(ns->dead);
	if (ns->nl >= 0)
		close(ns->nl);
	if (ns->wake_fd >= 0)
		close(ns->wake_fd);
	close(ns->efd);
	pthread_cond_destroy(&ns->cond);
	pthread_mutex_destroy(&ns->lock);
	free(ns);
	free(src);
}

static const struct source_ops net_ops = {
    .name = "network",
    .fd = net_fd,
    .next = net_next,
    .stop = net_stop,
    .free = net_free,
    .status = net_status,
    .sorted = false,
    .release = net_release,
};

/* The machine's UUID as SMBIOS gives it (net_uuid_parse()). */
static int machine_uuid(uint8_t uuid[16])
{
	char text[64];
	int rc = util_read_small(AT_FDCWD, NET_DMI_UUID, text, sizeof(text));

	return rc < 0 ? rc : net_uuid_parse(text, strlen(text), uuid);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char p[64];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1;; s++) {
		char c = *s;

		if (c && c != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return -errno;
		if (!c)
			return 0;
		*s = c;
	}
}

/* The kernel's link messages and the thread that reads them, opened
 * before the first listing so that no link comes unseen between. Without
 * them only the links there at start are used. */
static void watch_open(struct net_src *ns)
{
	ns->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ns->nl = net_watch_open();
	if (ns->nl < 0)
		log_warn("network: links plugged in later will not be seen: "
			 "%s",
			 strerror(-ns->nl));
}

static void watch_start(struct net_src *ns)
{
	if (ns->nl < 0 || ns->wake_fd < 0)
		return;
	ns->watching = pthread_create(&ns->watcher, NULL, watch_run, ns) == 0;
	if (!ns->watching)
		log_warn("network: links plugged in later will not be seen: "
			 "out of memory");
}

struct source *source_net_new(const char *only, const char *run_dir, bool wait,
			      bool auto_mode)
{
	struct source *src = calloc(1, sizeof(*src));
	struct net_src *ns = calloc(1, sizeof(*ns));
	pthread_condattr_t ca;
	int n, rc;

	if (!src || !ns)
		goto fail;
	*src = (struct source){&net_ops, ns};
	pthread_mutex_init(&ns->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ns->cond, &ca);
	pthread_condattr_destroy(&ca);
	ns->efd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK); /* SETTLED waits */
	snprintf(ns->dir, sizeof(ns->dir), "%s", run_dir);
	snprintf(ns->only, sizeof(ns->only), "%s", only ? only : "");
	ns->links = (struct net_links){.only = only ? ns->only : NULL,
				       .wired = is_wired};
	ns->wait = wait;
	ns->auto_mode = auto_mode;
	ns->uefi = access("/sys/firmware/efi", F_OK) == 0;
	ns->has_uuid = machine_uuid(ns->uuid) == 0;
	if (ns->efd < 0 || make_dirs(run_dir) < 0 ||
	    (rc = net_dhcp_script(run_dir)) < 0) {
		log_warn("network: cannot prepare %s: %s", run_dir,
			 strerror(errno));
		goto fail_src;
	}
	watch_open(ns);
	pthread_mutex_lock(&ns->lock);
	n = links_sync(ns, true);
	pthread_mutex_unlock(&ns->lock);
	if (n <= 0)
		log_warn("network: %s", n < 0  ? strerror(-n)
					: only ? "no such wired link"
					       : "no wired link");
	watch_start(ns);
	return src;
fail_src:
	if (ns->efd >= 0)
		close(ns->efd);
	pthread_cond_destroy(&ns->cond);
	pthread_mutex_destroy(&ns->lock);
fail:
	free(ns);
	free(src);
	errno = ENOMEM;
	return NULL;
}
