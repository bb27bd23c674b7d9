/* unlock.c - opening a locked LUKS device from the session (session.h).
 *
 * Kept apart from locked.c: the scan's scan_unlock() is linked only into
 * what unlocks, not into every user of the session's listings.
 */
#include "session/session.h"
#include "session/keys.h"
#include "session/locked.h"
#include "scan/scan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int session_unlock(struct session *s, const char *name, const char *pass,
		   size_t len, int (*progress)(void *, unsigned, unsigned),
		   void *ctx, char *err, size_t errlen)
{
	const struct scan_unlock u = {
	    .pass = pass,
	    .pass_len = len,
	    .slot = -1,
	    .progress = progress,
	    .progress_ctx = ctx,
	};
	int rc;

	if (!s->scan) {
		snprintf(err, errlen, "%s: no disks are scanned here", name);
		return -ENOENT;
	}
	rc = scan_unlock(s->scan, name, &u, err, errlen);
	/* luks_pass_key: the target's initramfs gets it (keys.h) */
	if (rc == 0)
		session_key_keep(s, name, pass, len);
	return rc;
}
