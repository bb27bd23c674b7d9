/* source_net.c - the network as a source: one remote root per link.
 *
 * One thread per wired link (net/link.h) does, in turn: bring the link
 * up, wait for a carrier (for as long as bootmenu runs: a cable plugged
 * in later counts), DHCP (net/dhcp.h, up to NET_TRIES attempts with a
 * growing pause), then look on the server for the config the loader DHCP
 * named would read (net/names.h), fetching each name in order until one
 * is there. The link's remote root (net/remote.h) is announced with that
 * config, or with the reason there is none, and the parsers read it like
 * any filesystem.
 *
 * The source says SETTLED at once: the countdown starts when the local
 * disks have settled, whatever the network is doing, and network entries
 * join the menu when they arrive.
 */
#include "cfg/ipxe.h"
#include "net/dhcp.h"
#include "net/lease.h"
#include "net/link.h"
#include "net/names.h"
#include "net/remote.h"
#include "net/url.h"
#include "session/source.h"
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
#define NET_VARS 8
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
	struct net_lease lease;
	char label[96], config[NET_NAME_MAX + 1], prefix[NET_NAME_MAX + 1],
	    why[2048];
	char mac[18], ip[16], server[16], file[NET_LEASE_STR_MAX];
	struct ipxe_var vars[NET_VARS];
	char state[80]; /* for the status line, under the source's lock */
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

static void ip_text(const uint8_t ip[4], char *out, size_t len)
{
	snprintf(out, len, "%u.%u.%u.%u", ip[0], ip[1], ip[2], ip[3]);
}

/* The TFTP server: option 66 when it is an address (no DNS here), else
 * the BOOTP next-server, else the DHCP server itself. */
static void pick_server(struct job *j)
{
	const struct net_lease *l = &j->lease;
	uint8_t ip[4];

	if (l->tftp_server[0] &&
	    net_ipv4_parse(l->tftp_server, strlen(l->tftp_server), ip) == 0)
		ip_text(ip, j->server, sizeof(j->server));
	else if (l->has & NET_LEASE_SIADDR)
		ip_text(l->siaddr, j->server, sizeof(j->server));
	else if (l->has & NET_LEASE_SERVER_ID)
		ip_text(l->server_id, j->server, sizeof(j->server));
	else
		j->server[0] = '\0';
	if (l->tftp_server[0] && strcmp(l->tftp_server, j->server))
		log_warn("%s: TFTP server \"%s\" is a name, not an address: "
			 "using %s",
			 j->ifname, l->tftp_server,
			 j->server[0] ? j->server : "none");
}

/* The lease as iPXE names it (${ip}, ${net0/mac}, ${filename}...). */
static void ipxe_vars(struct job *j, struct fs_net *n)
{
	static const char *const names[] = {
	    "ip",	"net0/ip",     "mac",	   "net0/mac",
	    "filename", "next-server", "hostname", NULL};
	const char *vals[] = {j->ip,   j->ip,	  j->mac,	    j->mac,
			      j->file, j->server, j->lease.hostname};
	size_t k = 0;

	for (size_t i = 0; names[i] && k < NET_VARS; i++)
		if (vals[i][0])
			j->vars[k++] = (struct ipxe_var){names[i], vals[i]};
	n->vars = j->vars;
	n->n_vars = k;
}

/* Which loader the boot file is; an unknown name is fetched to look for
 * "#!ipxe". */
static enum net_loader loader(struct job *j)
{
	enum net_loader ld = net_loader_classify(j->file, NULL, 0);
	char why[192], head[8] = "";
	int fd;

	if (ld != NET_LOADER_UNKNOWN || !j->file[0])
		return ld;
	/* fetched quietly first: a boot file that is not there is no error */
	if (net_remote_fetch(j->rt, j->file, why, sizeof(why)) < 0)
		return ld;
	if ((fd = fs_open(net_remote_fs(j->rt), j->file, false)) >= 0) {
		ssize_t n = read(fd, head, sizeof(head));

		close(fd);
		ld = net_loader_classify(j->file, head, n > 0 ? (size_t)n : 0);
	}
	return ld;
}

/* The names the loader would try, in order. */
static int names(struct job *j, enum net_loader ld, struct net_names *out)
{
	const struct net_lease *l = &j->lease;
	struct net_client c = {.uuid = NULL};
	char prefix[NET_NAME_MAX];
	int rc;

	memcpy(c.mac, l->mac, 6);
	memcpy(c.ip, l->ip, 4);
	/* pxelinux takes the UUID the PXE ROM sent; GRUB only the one the
	 * server sends back in its answer (option 97, as dnsmasq does) */
	if (ld == NET_LOADER_PXELINUX && j->src->has_uuid)
		c.uuid = j->src->uuid;
	if (ld == NET_LOADER_GRUB && (l->has & NET_LEASE_UUID))
		c.uuid = l->uuid;
	out->count = 0;
	switch (ld) {
	case NET_LOADER_PXELINUX:
		if (l->path_prefix[0])
			snprintf(prefix, sizeof(prefix), "%s", l->path_prefix);
		else if ((rc = net_pxelinux_prefix(j->file, prefix,
						   sizeof(prefix))) < 0)
			return rc;
		snprintf(j->prefix, sizeof(j->prefix), "/%s", prefix);
		return net_pxelinux_names(
		    prefix, l->config_file[0] ? l->config_file : NULL, &c, out);
	case NET_LOADER_GRUB:
		if ((rc = net_grub_prefix(j->file, prefix, sizeof(prefix))) < 0)
			return rc;
		snprintf(j->prefix, sizeof(j->prefix), "%s", prefix);
		return net_grub_names(prefix, &c, true, out);
	case NET_LOADER_IPXE:
		out->count = 1;
		snprintf(out->name[0], sizeof(out->name[0]), "%s", j->file);
		return 0;
	case NET_LOADER_UNKNOWN:
		break;
	}
	return 0;
}

/* Look for the config; fill j->rt's fs_net. */
static void find_config(struct job *j)
{
	struct fs_net *n = net_remote_net(j->rt);
	enum net_loader ld;
	struct net_names *nm = calloc(1, sizeof(*nm));
	int rc = -ENOENT;

	n->loader = FS_NET_NONE;
	if (!nm) {
		snprintf(j->why, sizeof(j->why), "out of memory");
		goto out;
	}
	if (!j->file[0] && !j->lease.config_file[0]) {
		snprintf(j->why, sizeof(j->why),
			 "the DHCP server named no boot file");
		goto out;
	}
	ld = loader(j);
	if (ld == NET_LOADER_UNKNOWN && j->lease.config_file[0])
		ld = NET_LOADER_PXELINUX; /* option 209 is a pxelinux config */
	if (ld == NET_LOADER_UNKNOWN) {
		snprintf(j->why, sizeof(j->why),
			 "the boot file %s is not pxelinux, GRUB or an iPXE "
			 "script: nothing to read",
			 j->file);
		goto out;
	}
	n->loader = ld == NET_LOADER_PXELINUX ? FS_NET_PXELINUX
		    : ld == NET_LOADER_GRUB   ? FS_NET_GRUB
					      : FS_NET_IPXE;
	if ((rc = names(j, ld, nm)) < 0) {
		snprintf(j->why, sizeof(j->why), "a config name is too long");
		goto out;
	}
	for (size_t i = 0; i < nm->count && !j->src->cancel; i++) {
		const char *name = nm->name[i];
		char why[192];

		if (!strncmp(name, "::", 2))
			name += 2; /* pxelinux: rooted at the server */
		set_state(j, "%s: looking for %.60s", j->ifname, name);
		rc = net_remote_fetch(j->rt, name, why, sizeof(why));
		log_info("%s: %s %s: %s", j->ifname, j->server, name,
			 rc ? why : "found");
		if (rc == 0) {
			snprintf(j->config, sizeof(j->config), "/%s", name);
			n->config = j->config;
			break;
		}
		if (rc != -ENOENT) {
			snprintf(j->why, sizeof(j->why), "tftp://%s/%s: %s",
				 j->server, name, why);
			break;
		}
	}
	if (!n->config && !j->why[0])
		snprintf(j->why, sizeof(j->why),
			 "the server %s has none of the %zu configs the "
			 "boot file %s would read (the last: %s)",
			 j->server, nm->count, j->file,
			 nm->count ? nm->name[nm->count - 1] : "-");
out:
	free(nm);
	n->prefix = j->prefix;
	n->why = j->why[0] ? j->why : NULL;
	if (n->loader == FS_NET_IPXE)
		ipxe_vars(j, n);
	if (n->why)
		log_warn("%s: %s", j->ifname, n->why);
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
	fs = net_remote_fs(j->rt);
	fs->name = j->ifname;
	fs->fstype = "tftp";
	fs->label = j->label;
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
	snprintf(j->mac, sizeof(j->mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	snprintf(lease_path, sizeof(lease_path), "%s/%s.lease", ns->dir,
		 j->ifname);
	set_state(j, "%s: asking for an address (DHCP)", j->ifname);
	for (int t = 0; t < NET_TRIES && !ns->cancel; t++) {
		rc = net_dhcp_run(ns->dir, j->ifname, lease_path, ns->uefi,
				  ns->has_uuid ? ns->uuid : NULL, &j->lease,
				  &j->child, &ns->cancel, j->why,
				  sizeof(j->why));
		if (rc == 0 || rc == -ECANCELED || rc != -ETIMEDOUT)
			break;
		if (t + 1 < NET_TRIES && !pause_ms(ns, 2000 << t))
			return;
	}
	if (ns->cancel)
		return;
	if (rc < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%.200s", j->why);
		snprintf(j->why, sizeof(j->why), "%s",
			 rc == -ETIMEDOUT ? "nothing offered: no DHCP answer"
					  : why);
		snprintf(j->label, sizeof(j->label), "%s", j->mac);
		make_root(j, "0.0.0.0");
		if (!j->rt)
			return;
		net_remote_net(j->rt)->why = j->why;
		log_warn("%s: %s", j->ifname, j->why);
		return;
	}
	ip_text(j->lease.ip, j->ip, sizeof(j->ip));
	pick_server(j);
	snprintf(j->file, sizeof(j->file), "%s", j->lease.boot_file);
	snprintf(j->label, sizeof(j->label), "%s %s from %s", j->mac, j->ip,
		 j->server[0] ? j->server : "?");
	log_info("%s: %s, boot file \"%s\"", j->ifname, j->label, j->file);
	make_root(j, j->server[0] ? j->server : "0.0.0.0");
	if (!j->rt)
		return;
	j->why[0] = '\0';
	find_config(j);
}

static int net_fd(const struct source *src)
{
	const struct net_src *ns = src->priv;

	return ns->efd;
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

struct source *source_net_new(const char *only, const char *run_dir, bool wait)
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
