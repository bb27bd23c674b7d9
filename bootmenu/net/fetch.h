/* fetch.h - one file from a TFTP or HTTP server into a local file.
 *
 * busybox's tftp and wget do the transfer, as child processes: they are
 * in the initramfs already (about 10 KiB of busybox), retry lost packets
 * on their own and end on their own when a server stops answering. What
 * is ours: the size a TFTP server announces, asked first (net/tftp.h),
 * the size cap (a transfer that passes it is stopped, one announced past
 * it is not started), a
 * deadline with no progress, a temporary file renamed only when complete,
 * and the reason in a sentence. Runs in the network source's threads;
 * nothing here touches the menu.
 */
#ifndef BM_NET_FETCH_H
#define BM_NET_FETCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <sys/types.h>

#include "scan/fs.h"

/* Where TFTP servers listen (RFC 1350). */
#define NET_TFTP_PORT 69

/* Seconds a transfer may go without a new byte before it is stopped. */
#define NET_FETCH_STALL_S 20
/* What the tool may write to its log (wget -S: the server's headers)
 * before the transfer is stopped: a server that sends headers without
 * end would otherwise fill the RAM the log is kept in. */
#define NET_FETCH_LOG_MAX (64 * 1024)

struct net_fetch {
	/* A path on the TFTP server @server (dotted IPv4), or a tftp:// or
	 * http:// address in @remote (then @server is not used). */
	const char *server;
	const char *remote;
	const char *dest; /* written as dest.part, renamed when complete */
	unsigned long long cap; /* most bytes accepted */
	/* what the cap is, for the sentence ("a config file": "more than the
	 * 4096 KiB a config file may have"); NULL: the free RAM */
	const char *cap_of;
	/* the running child, for the owner's stop(): 0 when none */
	_Atomic pid_t *child;
	const _Atomic int *cancel; /* set: stop now (-ECANCELED) */
	/* told the bytes so far and the total (HTTP Content-Length; 0 when
	 * not known, as over TFTP) every 50 ms; may be NULL */
	const struct fs_progress *progress;
	char why[192];		  /* after a failure: what went wrong */
	unsigned long long total; /* the announced size, 0 if none */
};

/* Fetch f->remote into f->dest. Returns 0, or -ENOENT (the server has no
 * such file), -ETIMEDOUT, -ECONNREFUSED, -EFBIG (past the cap, or an
 * announced size past it: then nothing more is fetched), -ECANCELED,
 * -EHOSTUNREACH (a tftp:// server name no DNS server knows), -EIO
 * (another failure: f->why has the tool's words). */
int net_fetch(struct net_fetch *f);

/* Run @argv (argv[0] found in PATH) with stdout and stderr into the file
 * @log (or /dev/null when NULL), recording its pid in *child while it
 * runs; wait for it. Returns its exit status (0..255), -ECANCELED when
 * *cancel was set (the child is killed), or -errno. */
int net_run(char *const argv[], char *const envp[], const char *log,
	    _Atomic pid_t *child, const _Atomic int *cancel);

#endif
