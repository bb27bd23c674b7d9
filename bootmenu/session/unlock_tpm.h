/* unlock_tpm.h - session_unlock_tpm() (session.h) with the TPM given:
 * the seam its unit test uses to hand it a software TPM's socket
 * (tpm_open_fd()) instead of the machine's /dev/tpmrm0. The session's
 * own room; nothing else calls it.
 */
#ifndef BM_SESSION_UNLOCK_TPM_H
#define BM_SESSION_UNLOCK_TPM_H

#include <stddef.h>

struct session;
struct tpm;

/* The keyslot's passphrase a systemd-tpm2 token gives: base64 of at
 * most TPM_SENSITIVE_MAX bytes, and its NUL. */
#define SESSION_TPM_PASS_MAX 176

/* session_unlock_tpm() through @t, an open TPM that stays the caller's;
 * NULL: the machine's (tpm_open(NULL), closed again before returning).
 * Same returns and sentences. */
int session_unlock_tpm_on(struct session *s, struct tpm *t, const char *name,
			  const char *pin, char *err, size_t errlen);

#endif
