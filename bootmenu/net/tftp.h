/* tftp.h - a file's size from a TFTP server before it is fetched.
 *
 * busybox's tftp does the transfers (net/fetch.h) but does not say the
 * size a server announces. So before each TFTP transfer bootmenu asks
 * itself: a read request with the tsize option (RFC 2349, value 0), whose
 * option acknowledgement (RFC 2347) carries the size; the request is then
 * ended with an error packet of code 8 (RFC 2347: the client declines
 * the options), so no data flows. A server without options answers with
 * the first data block instead: then the size is unknown (and the
 * transfer is ended the same way). A "file not found" answer saves the
 * transfer altogether.
 */
#ifndef BM_NET_TFTP_H
#define BM_NET_TFTP_H

#include <stddef.h>
#include <stdint.h>

/* One answer to our read request, p[0..n): 1 with *tsize set (an OACK
 * carrying tsize), 0 when the size is not told (an OACK without it, or a
 * DATA block), -ENOENT (error code 1, file not found), -EACCES (code 2),
 * -EIO (another error: *why is its message, or a sentence), -EINVAL (not
 * a TFTP answer to a read request). Pure. */
int net_tftp_answer(const uint8_t *p, size_t n, unsigned long long *tsize,
		    const char **why);

/* Build our read request for @path with tsize=0 into buf[0..len).
 * Returns its length, or -ENAMETOOLONG. */
int net_tftp_rrq(const char *path, uint8_t *buf, size_t len);

/* Ask @server (dotted IPv4, or IPv6 in brackets: "[fec0::2]") on @port for
 * @path's size: up to 3 requests, 1 s apart. Returns as net_tftp_answer() does,
 * or -ETIMEDOUT (no answer), -ECONNREFUSED (nothing listens), -errno. */
int net_tftp_size(const char *server, unsigned port, const char *path,
		  unsigned long long *tsize, const char **why);

#endif
