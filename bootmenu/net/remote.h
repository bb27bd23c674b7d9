/* remote.h - a TFTP/HTTP server as a filesystem (the fs door's backend).
 *
 * A remote root answers the fs_ functions (scan/fs.h) for the files of
 * one server: opening a file fetches it (net/fetch.h) into the root's
 * cache directory on tmpfs, once, and opens that copy, so every parser
 * and the boot room read it as they read a local file. Rules:
 * - paths are the server's, "/" its root; "." and ".." are resolved
 *   textually and never climb above the root; tftp:// and http://
 *   addresses (as "/http://..." after a parser rooted them) fetch from
 *   that server instead;
 * - a file that was not there is remembered as missing;
 * - stat() of a file not fetched yet answers "a regular file of unknown
 *   size" without fetching (a kernel is fetched when it is booted, not
 *   when the menu is drawn); directories cannot be opened or listed.
 *
 * Who waits for a transfer:
 * - open() (the parsers, on the thread that draws the menu) never does.
 *   A file in the cache opens at once; one known missing or failed gives
 *   its -errno at once; any other is queued for the root's own worker
 *   thread (started with the first, one transfer at a time, at most
 *   NET_REMOTE_QUEUE_MAX waiting, a file asked twice queued once) and
 *   open() gives -EINPROGRESS. When that fetch ends (done, missing,
 *   failed, dropped) the owner's callback (net_remote_on_fetched()) is
 *   told, and the parse that asked runs again: it finds the copy, or the
 *   failure, remembered with its reason (the fs door's why(), for the
 *   parser's warning), so a failing file is fetched once per root, not
 *   at every parse. These fetches are config files: capped at
 *   FS_CONFIG_MAX, like a local config, and refused before the transfer
 *   when the server announces more.
 * - net_remote_fetch() (the source's config search, on its own thread)
 *   waits, capped the same.
 * - prefetch() (the boot room, with its progress and Esc) waits, capped
 *   at NET_REMOTE_MAX and half the free RAM, since the cache is RAM too;
 *   it drops the queued fetches first: nobody waits for them now.
 * So the menu never waits for the network: the config is fetched by the
 * network source before the root is announced, and every file it
 * includes arrives in the background.
 */
#ifndef BM_NET_REMOTE_H
#define BM_NET_REMOTE_H

#include <stdatomic.h>
#include <stdint.h>

#include "scan/fs.h"

#define NET_REMOTE_MAX (1ull << 30)
/* Most fetches waiting for the worker; past it open() still says
 * -EINPROGRESS and the file is queued at a later parse. */
#define NET_REMOTE_QUEUE_MAX 16
/* Most files remembered as missing or failed; past it no new file is
 * fetched for open() (-ENOSPC), so a parse cannot queue forever. */
#define NET_REMOTE_KNOWN_MAX 128

struct net_remote;

/* A root for the TFTP server @server (dotted IPv4) caching under @cache
 * (made if missing). The caller fills rt->fs's identities and rt->net
 * (net_remote_fs()). NULL with errno set. */
struct net_remote *net_remote_new(const char *server, const char *cache);
struct fs_root *net_remote_fs(struct net_remote *rt);
struct fs_net *net_remote_net(struct net_remote *rt);
/* @fn(@ctx, the root) is called on the worker thread, with no lock held,
 * each time a fetch open() queued ends; the callee only notes it (the
 * network source makes it a SOURCE_FS_CHANGED). Set before the root is
 * announced. */
void net_remote_on_fetched(struct net_remote *rt,
			   void (*fn)(void *ctx, const struct fs_root *fs),
			   void *ctx);
/* From now on open() fetches a file on the caller's thread instead of
 * queueing it: for the faces that draw nothing and wait for the whole
 * list (--list, --boot). Set before the root is announced. */
void net_remote_open_waits(struct net_remote *rt);
/* Fetch @path into the cache now (the source's config search), capped
 * at FS_CONFIG_MAX. Returns 0 or -errno, with the reason in
 * why[0..len). */
int net_remote_fetch(struct net_remote *rt, const char *path, char *why,
		     size_t len);
/* Stop a transfer in progress and any later one, and drop the queue
 * (before kexec). Does not wait for the worker: a TFTP size request may
 * hold it up to 3 s, and a kexec need not wait for that. */
void net_remote_cancel(struct net_remote *rt);
/* net_remote_cancel(), join the worker, remove the cache and free @rt. */
void net_remote_free(struct net_remote *rt);

#endif
