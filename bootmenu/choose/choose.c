/* choose.c - the default rule, the fallback order, the timeout. */
#include "choose/choose.h"
#include "choose/lock.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void choose_init(struct choose *c, const struct conf *conf, const char *cmdline,
		 double opt_timeout_s)
{
	memset(c, 0, sizeof(*c));
	c->conf = conf;
	c->opt_timeout_s = opt_timeout_s;
	c->cmdline_timeout_s = cmdline_number(cmdline, "timeout", -2);
	c->loader_timeout_s = -2;
	cmdline_value(cmdline, "from", c->boot_device, sizeof(c->boot_device));
}

int choose_fs_rank(const struct choose *c, const struct fs_root *fs)
{
	if (!fs)
		return 2;
	/* the network after every local filesystem, removable ones too: a
	 * local default always wins, the network's only when there is none */
	if (fs->net)
		return 3;
	if (c->boot_device[0] && fs_matches(c->boot_device, fs))
		return 0;
	return fs->removable ? 2 : 1;
}

/* The candidate list being built: each entry once, at most @max. */
struct cands {
	const struct entry **v;
	size_t n, max;
};

static void cand_add(struct cands *k, const struct entry *e)
{
	/* the firmware's setup screen is only ever chosen by a key; a
	 * locked volume's line boots nothing (entry.h ENTRY_UNLOCK) */
	if (!e || e->disabled || e->fw_setup || e->method == ENTRY_UNLOCK ||
	    k->n == k->max)
		return;
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i] == e)
			return;
	k->v[k->n++] = e;
}

static const struct entry *find_id(const struct entry_list *l, const char *id)
{
	for (const struct entry *e = l->head; id[0] && e; e = e->next)
		if (!e->disabled && e->method != ENTRY_UNLOCK && e->id &&
		    !strcmp(e->id, id))
			return e;
	return NULL;
}

/* @fs's config default, then its grub fallback entries in their order. */
static void add_fs_defaults(struct cands *k, const struct entry_list *l,
			    const struct fs_root *fs)
{
	int most = 0;

	for (const struct entry *e = l->head; e; e = e->next)
		if (e->fs == fs && e->is_default)
			cand_add(k, e);
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->fs == fs && e->fallback > most)
			most = e->fallback;
	for (int r = 1; r <= most; r++)
		for (const struct entry *e = l->head; e; e = e->next)
			if (e->fs == fs && e->fallback == r)
				cand_add(k, e);
}

/* Each filesystem of @l once, best rank first, then in list order. */
static size_t fs_order(const struct choose *c, const struct entry_list *l,
		       const struct fs_root **out, size_t max)
{
	size_t n = 0;

	for (int rank = 0; rank <= 3; rank++)
		for (const struct entry *e = l->head; e; e = e->next) {
			size_t i = 0;

			if (choose_fs_rank(c, e->fs) != rank)
				continue;
			while (i < n && out[i] != e->fs)
				i++;
			if (i == n && n < max)
				out[n++] = e->fs;
		}
	return n;
}

static bool is_net(const struct fs_root *fs)
{
	return fs && fs->net;
}

/* Over the local filesystems of @fss[0..n) (or with @net the network's):
 * each one's config default with its fallbacks, then any bootable entry,
 * kernels first, loaders the firmware boots (another OS) after them;
 * never by itself one of the firmware's own options (a disk or the
 * network: it may well start bootmenu again, for ever). */
static void add_rest(struct cands *k, const struct entry_list *l,
		     const struct fs_root *const *fss, size_t n, bool net)
{
	for (size_t i = 0; i < n; i++)
		if (is_net(fss[i]) == net)
			add_fs_defaults(k, l, fss[i]);
	for (int fw = 0; fw <= 1; fw++)
		for (size_t i = 0; i < n; i++)
			for (const struct entry *e = l->head;
			     is_net(fss[i]) == net && e; e = e->next)
				if (e->fs == fss[i] && !e->fw_option &&
				    (e->method == ENTRY_FIRMWARE) == fw)
					cand_add(k, e);
}

#define CHOOSE_FS_MAX 256

size_t choose_candidates(const struct choose *c, const struct entry_list *l,
			 const struct entry **out, size_t max)
{
	struct cands k = {.v = out, .max = max};
	const struct fs_root *fss[CHOOSE_FS_MAX];
	size_t n_fs = fs_order(c, l, fss, CHOOSE_FS_MAX);
	const char *dev = c->conf->default_device;

	cand_add(&k, choose_loader_find(l, c->loader_oneshot));
	cand_add(&k, find_id(l, c->saved_id));
	cand_add(&k, choose_loader_find(l, c->loader_default));
	for (size_t i = 0; i < n_fs; i++)
		for (const struct entry *e = l->head; e; e = e->next)
			if (e->fs == fss[i] &&
			    conf_match(c->conf->default_pat, e->title, e->id))
				cand_add(&k, e);
	for (size_t i = 0; dev[0] && i < n_fs; i++)
		if (fss[i] && fs_matches(dev, fss[i]))
			add_fs_defaults(&k, l, fss[i]);
	/* any local entry before the network's own default: a local default
	 * always wins, the network's is taken only when nothing local boots */
	add_rest(&k, l, fss, n_fs, false);
	add_rest(&k, l, fss, n_fs, true);
	return k.n;
}

const struct entry *choose_default(const struct choose *c,
				   const struct entry_list *l)
{
	const struct entry *v[1];

	return choose_candidates(c, l, v, 1) ? v[0] : NULL;
}

double choose_user_timeout(const struct choose *c)
{
	if (c->opt_timeout_s > -2)
		return c->opt_timeout_s;
	if (c->loader_timeout_s > -2)
		return c->loader_timeout_s;
	if (c->cmdline_timeout_s > -2)
		return c->cmdline_timeout_s;
	return c->conf->timeout;
}

/* The configs' timeout in tenths of a second, -1 when none sets one.
 * Filesystems that disagree: the first one's in the session's order (the
 * order their entries are listed in), as for one filesystem whose
 * several configs disagree, where the parsers keep the first. */
static int configs_timeout_ds(const struct entry_list *l)
{
	for (size_t i = 0; i < l->n_fs_timeout_ds; i++)
		if (l->fs_timeout_ds[i] >= 0)
			return l->fs_timeout_ds[i];
	return l->timeout_ds;
}

double choose_timeout(const struct choose *c, const struct entry_list *l)
{
	double t = choose_user_timeout(c);
	int ds = configs_timeout_ds(l);

	if (t <= -2)
		t = ds >= 0 ? ds / 10.0 : CHOOSE_DEFAULT_TIMEOUT_S;
	return t < 0 ? -1 : t;
}

/* One request of the OS: said when it names no entry. */
static size_t loader_note_one(const struct entry_list *l, const char *name,
			      const char *id, char *out, size_t len)
{
	int n;

	if (!id[0] || choose_loader_find(l, id) || !len)
		return 0;
	n = snprintf(out, len, "%s \"%.*s\" names no entry: the default boots",
		     name, 100, id);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

bool choose_loader_note(const struct choose *c, const struct entry_list *l,
			char *out, size_t len)
{
	size_t n;

	if (len)
		out[0] = '\0';
	n = loader_note_one(l, "LoaderEntryOneShot", c->loader_oneshot, out,
			    len);
	if (n && n + 2 < len) {
		out[n++] = ';';
		out[n++] = ' ';
		out[n] = '\0';
	}
	if (!loader_note_one(l, "LoaderEntryDefault", c->loader_default,
			     out + n, len - n) &&
	    n >= 2 && out[n - 2] == ';')
		out[n - 2] = '\0';
	return len && out[0];
}

/* GRUB's own grub.cfg (update-grub's 00_header) sets default to
 * next_entry and clears it with save_env as soon as the config is read,
 * before the menu is even drawn: whatever is then booted, a key's choice
 * included, next_entry has been used up. A user of grub-reboot expects
 * one boot to take it, not for it to wait until the very entry it names
 * happens to be booted. bootmenu clears it only once a load succeeded:
 * a dry run, a failed load (the fallback that follows may succeed and
 * consume it) or leaving the menu for the shell leave it for the boot
 * that follows. */
bool choose_consumes_once(int load_rc, bool dry_run)
{
	return load_rc == 0 && !dry_run;
}

bool choose_plain_may_choose(const struct choose *c)
{
	return !c->conf->password[0];
}

/* Try @e: the lock, the load, the jump. -errno with @err set. */
static int try_one(const struct choose_ops *ops, const struct choose *c,
		   const struct entry *e, bool unlocked, char *err, size_t len)
{
	if (choose_lock_need(c->conf->password, unlocked, CHOOSE_ACT_BOOT, e,
			     e) != CHOOSE_LOCK_FREE &&
	    (!ops->ask || !ops->ask(ops->ctx, e))) {
		snprintf(err, len, "lilo.conf asks for a password to boot it");
		return -EACCES;
	}
	err[0] = '\0';
	return ops->boot(ops->ctx, e, err, len);
}

int choose_autoboot(const struct choose *c, const struct entry_list *l,
		    bool unlocked, const struct choose_ops *ops)
{
	const struct entry *v[CHOOSE_MAX];
	size_t n = choose_candidates(c, l, v, CHOOSE_MAX);
	char err[512];
	int rc = -ENOENT;

	for (size_t i = 0; i < n; i++) {
		rc = try_one(ops, c, v[i], unlocked, err, sizeof(err));
		if (rc >= 0)
			return 0;
		if (ops->failed && !ops->failed(ops->ctx, v[i], err,
						i + 1 < n ? v[i + 1] : NULL))
			return -ECANCELED;
	}
	return rc;
}
