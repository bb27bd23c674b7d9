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
 *   when the menu is drawn); directories cannot be opened or listed;
 * - each file is capped at NET_REMOTE_MAX, and at half the free RAM,
 *   since the cache is RAM too.
 * Opening a file blocks the caller for the transfer; the network source
 * fetches the config before it announces the root, so the menu never
 * waits for that one.
 */
#ifndef BM_NET_REMOTE_H
#define BM_NET_REMOTE_H

#include <stdatomic.h>
#include <stdint.h>

#include "scan/fs.h"

#define NET_REMOTE_MAX (1ull << 30)

struct net_remote;

/* A root for the TFTP server @server (dotted IPv4) caching under @cache
 * (made if missing). The caller fills rt->fs's identities and rt->net
 * (net_remote_fs()). NULL with errno set. */
struct net_remote *net_remote_new(const char *server, const char *cache);
struct fs_root *net_remote_fs(struct net_remote *rt);
struct fs_net *net_remote_net(struct net_remote *rt);
/* Fetch @path into the cache now (the source's config search). Returns
 * 0 or -errno, with the reason in why[0..len). */
int net_remote_fetch(struct net_remote *rt, const char *path, char *why,
		     size_t len);
/* Stop a transfer in progress and any later one (before kexec). */
void net_remote_cancel(struct net_remote *rt);
/* Remove the cache and free @rt. */
void net_remote_free(struct net_remote *rt);

#endif
