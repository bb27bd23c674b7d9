/* unseal.h - the TPM side of unlocking a LUKS2 volume enrolled by
 * systemd-cryptenroll --tpm2-device (systemd 252, Debian 12): its
 * "systemd-tpm2" token's sealed key, unsealed through the TPM.
 *
 * What systemd 252 does (src/shared/tpm2-util.c, read for the facts):
 * a primary storage key is made again from the owner hierarchy's seed
 * with a fixed template (ECC P-256, or RSA 2048 when the token says
 * "rsa"); the token's blob (TPM2B_PRIVATE then TPM2B_PUBLIC, base64) is
 * loaded under it; a policy session runs PolicyPCR over the token's PCRs
 * of its bank, and PolicyAuthValue when a PIN was enrolled (the object's
 * authValue is SHA-256 of the PIN's bytes); Unseal gives the secret,
 * whose base64 is the keyslot's passphrase (cryptenroll-tpm2.c).
 *
 * We use an unsalted, unbound policy session without parameter
 * encryption (systemd salts its sessions with the primary key): the TPM
 * accepts it for this object, and the PIN never crosses the bus, only an
 * HMAC keyed with its hash. The secret does cross it in the clear (a
 * salted session needs the primary key's ECDH or RSA-OAEP, which we do
 * not have): someone probing the TPM's bus reads it. systemd 252
 * guards against that; we do not yet.
 * Signed PCR policies (tpm2_pubkey, PolicyAuthorize) are not done.
 */
#ifndef BM_TPM_UNSEAL_H
#define BM_TPM_UNSEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tpm/cmd.h"

struct tpm;

/* A token's members as text, the way vol/luks.h keeps them (strings
 * decoded, arrays of numbers as "7,11", booleans "true"/"false"); NULL
 * for a member the token lacks. The strings stay the caller's. */
struct tpm_sealed_text {
	const char *blob;	 /* "tpm2-blob": base64 */
	const char *pcrs;	 /* "tpm2-pcrs" */
	const char *bank;	 /* "tpm2-pcr-bank": "sha256", "sha1", ... */
	const char *primary_alg; /* "tpm2-primary-alg": "ecc", "rsa" */
	const char *policy_hash; /* "tpm2-policy-hash": hex */
	const char *pin;	 /* "tpm2-pin" */
	const char *pubkey;	 /* "tpm2_pubkey": a signed policy's key */
	const char *pubkey_pcrs; /* "tpm2_pubkey_pcrs" */
};

/* Sets the member of @s whose JSON name is @name to @value (not copied);
 * 0, or -ENOENT for a name that is none of the above (the caller goes
 * on: "type" and "keyslots" are the LUKS header's business). */
int tpm_sealed_set(struct tpm_sealed_text *s, const char *name,
		   const char *value);

#define TPM_BLOB_MAX 2048 /* the token's blob, decoded */

/* A token decoded: the blob's two halves, the PCRs (bit n: PCR n), the
 * bank's hash algorithm, the primary key's (0 when the token does not
 * say: ECC, else RSA, as systemd 252 tries them), the policy digest (0
 * bytes when the token has none), whether a PIN is wanted. */
struct tpm_sealed {
	uint8_t blob[TPM_BLOB_MAX];
	size_t priv_len, pub_len; /* TPM2B_PRIVATE at 0, TPM2B_PUBLIC after */
	uint32_t pcrs;
	uint16_t bank, primary;
	uint8_t policy[TPM2B_MAX];
	size_t policy_len;
	bool pin;
};

/* Decodes @s into @out (a parser of the header's bytes: fuzzed). 0;
 * -ENOTSUP for a shape we do not do (a signed policy, a bank or primary
 * algorithm we do not know), -EINVAL for a member that is not what it
 * should be (bad base64 or hex, a PCR past 23, a blob that is not the
 * two structures); each names the member in @err. */
int tpm_sealed_decode(const struct tpm_sealed_text *s, struct tpm_sealed *out,
		      char *err, size_t errlen);

/* Unseals @tok's secret through @t: 0 with secret[0..*len) (@secret holds
 * TPM_SENSITIVE_MAX bytes; the caller wipes it after use), or, with a
 * sentence in @err:
 *   -EACCES   the PCRs no longer match the policy ("PCR 7 changed since
 *             the key was enrolled" when one PCR is in it), or a wrong PIN;
 *   -ENOKEY   the token wants a PIN and @pin is NULL;
 *   -ENOLCK   the TPM is in dictionary-attack lockout after wrong PINs
 *             (swtpm: 3; then it refuses every such key, PIN or not, as
 *             systemd's storage key is DA-protected too);
 *   -ENOTSUP, -EINVAL  from tpm_sealed_decode();
 *   -EREMOTEIO the TPM refused another step (t->rc has its code), and
 *             tpm_transact()'s errors (-ETIMEDOUT, -EBADMSG, ...).
 * Every handle it made is flushed on every way out; the PIN's hash and
 * the secret are wiped on failure. */
int tpm_unseal_token(struct tpm *t, const struct tpm_sealed_text *tok,
		     const char *pin, uint8_t *secret, size_t *len, char *err,
		     size_t errlen);

/* The keyslot's passphrase for @secret, as systemd-cryptenroll 252
 * enrolled it: base64 (RFC 4648 4, padded), NUL-terminated, into
 * out[0..cap). Returns its length, or -ENOSPC. */
int tpm_unseal_passphrase(const uint8_t *secret, size_t len, char *out,
			  size_t cap);

#endif
