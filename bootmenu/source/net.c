/* source/net.c - the network as a source: one remote root per link.
 *
 * One thread per wired link (net/link.h) does, in turn: bring the link
 * up, wait for a carrier (for as long as bootmenu runs: a cable plugged
 * in later counts), DHCP (net/dhcp.h, up to NET_TRIES attempts with a
 * growing pause), then look on the server for the config the loader DHCP
 * named would read (net/search.h), fetching each name in order until one
 * is there. The link's remote root (net/remote.h) is announced with that
 * config, or with the reason there is none, and the parsers read it like
 * any filesystem.
 *
 * The source says SETTLED at once: the countdown starts when the local
 * disks have settled, whatever the network is doing, and network entries
 * join the menu when they arrive.
 */
#include "net/dhcp.h"
#include "net/lease.h"
#include "net/link.h"
#include "net/remote.h"
#include "net/search.h"
#include "source/source.h"
#include "util/file.h"
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
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
#include <unistd.h>

#define NET_SYSFS "/sys/class/net"
#define NET_TRIES 3 /* DHCP attempts, NET_DHCP_TRIES discovers each */
#define NET_DMI_UUID "/sys/class/dmi/id/product_uuid"
/* With wait (the --list and --boot faces): a link with no carrier this
 * long counts as done. */
#define NET_CARRIER_WAIT_MS 5000

struct net_src;

struct job {
	struct net_src *src;
	char ifname[NET_IFNAME_MAX];
	pthread_t thread;
	bool started;
	_Atomic pid_t child;
	struct net_remote *rt;
	struct net_search s; /* the lease, the server, the config */
	char label[96];
	char state[80];	 /* for the status line, under the source's lock */
	bool fs_changed; /* a fetch of its root ended: SOURCE_FS_CHANGED */
};

struct net_src {
	pthread_mutex_t lock;
	int efd;
	const struct fs_root *ready[NET_LINKS_MAX];
	size_t n_ready, told;
	bool settled_told;
	_Atomic int cancel;
	bool uefi;
	bool has_uuid; /* SMBIOS gave the machine's UUID */
	uint8_t uuid[16];
	bool wait;	    /* SETTLED once every link is done */
	bool auto_mode;	    /* network = auto (source_net_new()) */
	bool state_changed; /* a link's state changed: SOURCE_DEVICE */
	size_t n_done;	    /* links done (announced or given up) */
	char dir[64];
	struct job jobs[NET_LINKS_MAX];
	size_t n_jobs;
};

/* Make the source's fd readable: an event is waiting. */
static void wake(struct job *j)
{
	uint64_t one = 1;

	if (write(j->src->efd, &one, sizeof(one)) < 0)
		log_warn("%s: cannot wake the menu", j->ifname);
}

/* The link's work is over: its root (or none) for the session. */
static void done(struct job *j)
{
	struct net_src *ns = j->src;

	pthread_mutex_lock(&ns->lock);
	if (j->rt && !ns->cancel)
		ns->ready[ns->n_ready++] = net_remote_fs(j->rt);
	ns->n_done++;
	j->state[0] = '\0';
	ns->state_changed = true;
	pthread_mutex_unlock(&ns->lock);
	wake(j);
}

/* Sleep @ms, in steps, unless the source is stopping. False then. */
static bool pause_ms(struct net_src *ns, int ms)
{
	for (; ms > 0 && !ns->cancel; ms -= 100)
		usleep(100 * 1000);
	return !ns->cancel;
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

/* net/remote.h's callback, on the root's worker: a file a parse asked
 * for has come (or failed), so the root is to be parsed again. */
static void fetched(void *ctx, const struct fs_root *fs)
{
	struct job *j = ctx;

	(void)fs;
	pthread_mutex_lock(&j->src->lock);
	j->fs_changed = true;
	pthread_mutex_unlock(&j->src->lock);
	wake(j);
}

static void make_root(struct job *j, const char *server)
{
	struct net_src *ns = j->src;
	char cache[128];
	struct fs_root *fs;

	snprintf(cache, sizeof(cache), "%s/%s", ns->dir, j->ifname);
	j->rt = net_remote_new(server, cache);
	if (!j->rt) {
		log_warn("%s: cannot make %s: %s", j->ifname, cache,
			 strerror(errno));
		return;
	}
	net_remote_on_fetched(j->rt, fetched, j);
	if (ns->wait) /* --list, --boot: nothing drawn waits */
		net_remote_open_waits(j->rt);
	fs = net_remote_fs(j->rt);
	fs->name = j->ifname;
	fs->fstype = "tftp";
	fs->label = j->label;
}

/* network = auto: a link offered nothing to boot (DHCP gave no answer,
 * or a lease with no boot file, which most networks give) ends here with
 * no root, so nothing shows in the menu and no server is asked for a
 * config. True when it ended. */
static bool auto_ends(struct job *j, int rc)
{
	const struct net_lease *l = &j->s.lease;

	if (!j->src->auto_mode ||
	    (rc == 0 && (l->boot_file[0] || l->config_file[0])))
		return false;
	log_info("%s: %s: nothing to boot from the network (network = auto)",
		 j->ifname,
		 rc < 0 ? "no DHCP answer" : "the lease names no boot file");
	return true;
}

static void job_link(struct job *j);

static void *job_run(void *data)
{
	struct job *j = data;

	/* below the scan and the menu (this thread alone, and the children
	 * it starts): on one CPU the network must not slow a local boot */
	if (setpriority(PRIO_PROCESS, 0, 10) < 0)
		log_debug("%s: cannot lower the priority", j->ifname);
	job_link(j);
	done(j);
	return NULL;
}

static void job_link(struct job *j)
{
	struct net_src *ns = j->src;
	char lease_path[128];
	int rc = -ETIMEDOUT, waited = 0;
	uint8_t mac[6] = {0};

	if ((rc = net_link_up(j->ifname)) < 0)
		log_warn("%s: cannot bring the link up: %s", j->ifname,
			 strerror(-rc));
	set_state(j, "%s: waiting for a link", j->ifname);
	while (net_link_carrier(NET_SYSFS, j->ifname) != 1) {
		if (waited == NET_CARRIER_WAIT_MS) /* keeps watching, quietly */
			set_state(j, "%s", "");
		if (ns->wait && waited >= NET_CARRIER_WAIT_MS) {
			log_warn("%s: no carrier (is a cable plugged in?)",
				 j->ifname);
			return;
		}
		if (!pause_ms(ns, 250))
			return;
		waited += 250;
	}
	net_link_mac(NET_SYSFS, j->ifname, mac);
	snprintf(j->s.mac, sizeof(j->s.mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	snprintf(lease_path, sizeof(lease_path), "%s/%s.lease", ns->dir,
		 j->ifname);
	set_state(j, "%s: asking for an address (DHCP)", j->ifname);
	for (int t = 0; t < NET_TRIES && !ns->cancel; t++) {
		rc = net_dhcp_run(ns->dir, j->ifname, lease_path, ns->uefi,
				  ns->has_uuid ? ns->uuid : NULL, &j->s.lease,
				  &j->child, &ns->cancel, j->s.why,
				  sizeof(j->s.why));
		if (rc == 0 || rc == -ECANCELED || rc != -ETIMEDOUT)
			break;
		if (t + 1 < NET_TRIES && !pause_ms(ns, 2000 << t))
			return;
	}
	if (ns->cancel || auto_ends(j, rc))
		return;
	if (rc < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%.200s", j->s.why);
		snprintf(j->s.why, sizeof(j->s.why), "%s",
			 rc == -ETIMEDOUT ? "nothing offered: no DHCP answer"
					  : why);
		snprintf(j->label, sizeof(j->label), "%s", j->s.mac);
		make_root(j, "0.0.0.0");
		if (!j->rt)
			return;
		net_remote_net(j->rt)->why = j->s.why;
		log_warn("%s: %s", j->ifname, j->s.why);
		return;
	}
	net_search_server(&j->s);
	snprintf(j->label, sizeof(j->label), "%s %s from %s", j->s.mac, j->s.ip,
		 j->s.server[0] ? j->s.server : "?");
	log_info("%s: %s, boot file \"%s\"", j->ifname, j->label, j->s.file);
	make_root(j, j->s.server[0] ? j->s.server : "0.0.0.0");
	if (!j->rt)
		return;
	j->s.why[0] = '\0';
	j->s.rt = j->rt;
	net_search_config(&j->s);
}

static int net_fd(const struct source *src)
{
	const struct net_src *ns = src->priv;

	return ns->efd;
}

/* A root a fetch changed (fetched()), taken: NULL when none. Called with
 * the source's lock. */
static const struct fs_root *changed_root(struct net_src *ns)
{
	for (size_t i = 0; i < ns->n_jobs; i++)
		if (ns->jobs[i].fs_changed && ns->jobs[i].rt) {
			ns->jobs[i].fs_changed = false;
			return net_remote_fs(ns->jobs[i].rt);
		}
	return NULL;
}

static int net_next(struct source *src, struct source_event *ev)
{
	struct net_src *ns = src->priv;
	uint64_t v;
	int got = 1;

	ev->fs = NULL;
	pthread_mutex_lock(&ns->lock);
	if (ns->told < ns->n_ready) {
		ev->type = SOURCE_FS_ADDED;
		ev->fs = ns->ready[ns->told++];
	} else if (!ns->settled_told &&
		   (!ns->wait || ns->n_done == ns->n_jobs)) {
		ev->type = SOURCE_SETTLED;
		ns->settled_told = true;
	} else if ((ev->fs = changed_root(ns))) {
		ev->type = SOURCE_FS_CHANGED;
	} else if (ns->state_changed) {
		ev->type = SOURCE_DEVICE;
		ns->state_changed = false;
	} else {
		got = 0; /* a thread's done() after this wakes us again */
		if (read(ns->efd, &v, sizeof(v)) < 0)
			v = 0; /* nonblocking: nothing to clear */
	}
	pthread_mutex_unlock(&ns->lock);
	return got;
}

static size_t net_status(const struct source *src, char *buf, size_t len)
{
	struct net_src *ns = src->priv;
	size_t used = 0;

	buf[0] = '\0';
	pthread_mutex_lock(&ns->lock);
	for (size_t i = 0; i < ns->n_jobs && used + 1 < len; i++) {
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

	ns->cancel = 1;
	for (size_t i = 0; i < ns->n_jobs; i++) {
		pid_t pid = ns->jobs[i].child;

		if (pid > 0)
			kill(pid, SIGKILL);
		if (ns->jobs[i].rt)
			net_remote_cancel(ns->jobs[i].rt);
	}
}

static void net_free(struct source *src)
{
	struct net_src *ns = src->priv;

	net_stop(src);
	for (size_t i = 0; i < ns->n_jobs; i++) {
		if (ns->jobs[i].started)
			pthread_join(ns->jobs[i].thread, NULL);
		net_remote_free(ns->jobs[i].rt);
	}
	close(ns->efd);
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

struct source *source_net_new(const char *only, const char *run_dir, bool wait,
			      bool auto_mode)
{
	struct source *src = calloc(1, sizeof(*src));
	struct net_src *ns = calloc(1, sizeof(*ns));
	char names[NET_LINKS_MAX][NET_IFNAME_MAX];
	int n, rc;

	if (!src || !ns)
		goto fail;
	*src = (struct source){&net_ops, ns};
	pthread_mutex_init(&ns->lock, NULL);
	ns->efd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK); /* SETTLED waits */
	snprintf(ns->dir, sizeof(ns->dir), "%s", run_dir);
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
	n = net_links_list(NET_SYSFS, only, names, NET_LINKS_MAX);
	if (n <= 0)
		log_warn("network: %s", n < 0  ? strerror(-n)
					: only ? "no such wired link"
					       : "no wired link");
	for (int i = 0; i < n; i++) {
		struct job *j = &ns->jobs[ns->n_jobs++];

		j->src = ns;
		memcpy(j->ifname, names[i], sizeof(j->ifname));
		j->s = (struct net_search){.ifname = j->ifname,
					   .smbios_uuid =
					       ns->has_uuid ? ns->uuid : NULL,
					   .cancel = &ns->cancel,
					   .looking = looking,
					   .ctx = j};
		j->started = pthread_create(&j->thread, NULL, job_run, j) == 0;
		if (!j->started) {
			log_warn("%s: cannot start: out of memory", j->ifname);
			ns->n_done++;
		}
	}
	return src;
fail_src:
	if (ns->efd >= 0)
		close(ns->efd);
	pthread_mutex_destroy(&ns->lock);
fail:
	free(ns);
	free(src);
	errno = ENOMEM;
	return NULL;
}
