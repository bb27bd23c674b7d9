/* unlock_tpm.c - a LUKS2 device opened with its systemd-tpm2 token, no
 * prompt: the header read again from the device, the token's sealed key
 * unsealed by the TPM (tpm/unseal.h), its base64 (the keyslot's
 * passphrase, as systemd-cryptenroll enrolled it) handed to scan_unlock()
 * for the token's keyslot alone.
 */
#include "session/session.h"
#include "session/keys.h"
#include "session/unlock_tpm.h"
#include "scan/scan.h"
#include "tpm/cmd.h"
#include "tpm/tpm.h"
#include "tpm/unseal.h"
#include "util/say.h"
#include "vol/luks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ASKING ": asking for the passphrase"

/* What the token gives: the passphrase of one keyslot. */
struct tpm_key {
	char pass[SESSION_TPM_PASS_MAX];
	size_t len;
	int slot;
};

static int read_header(const char *devnode, struct luks_hdr *h, char *err,
		       size_t errlen)
{
	int fd = open(devnode, O_RDONLY | O_CLOEXEC), rc;
	off_t size;

	if (fd < 0)
		return say(err, errlen, -errno, "cannot open %s: %s", devnode,
			   strerror(errno));
	size = lseek(fd, 0, SEEK_END);
	if (size < 0)
		rc = say(err, errlen, -errno, "cannot size %s: %s", devnode,
			 strerror(errno));
	else
		rc = luks_read(luks_fd_read, &fd, (uint64_t)size, h, err,
			       errlen);
	close(fd);
	return rc;
}

/* The first systemd-tpm2 token (LUKS2 4.4: a token names its keyslots;
 * systemd-cryptenroll's names one), its members as text. */
static int find_token(const struct luks_hdr *h, const char *name,
		      struct tpm_sealed_text *txt, int *slot, char *err,
		      size_t errlen)
{
	for (size_t i = 0; i < h->n_token; i++) {
		const struct luks_token *k = &h->token[i];

		if (!k->type || strcmp(k->type, "systemd-tpm2"))
			continue;
		if (!k->keyslots)
			return say(err, errlen, -EINVAL,
				   "%s's TPM2 token names no keyslot", name);
		memset(txt, 0, sizeof(*txt));
		for (size_t j = 0; j < k->n_field; j++)
			tpm_sealed_set(txt, k->field[j].name,
				       k->field[j].value);
		*slot = __builtin_ctz(k->keyslots);
		return 0;
	}
	return say(err, errlen, -ENOENT, "%s has no TPM2 token", name);
}

/* "PCR 7 is" or "PCRs 7, 11 are", from the token's "7,11". */
static void pcr_words(const char *pcrs, char *out, size_t cap)
{
	char list[TPM_PCR_COUNT * 4];
	size_t n = 0, count = 0;
	bool in = false;

	for (const char *p = pcrs; *p && n + 3 < sizeof(list); p++) {
		if (*p >= '0' && *p <= '9') {
			if (!in && count++)
				n += (size_t)snprintf(list + n,
						      sizeof(list) - n, ", ");
			list[n++] = *p;
			in = true;
		} else {
			in = false;
		}
	}
	list[n] = '\0';
	snprintf(out, cap, "%s %s %s", count == 1 ? "PCR" : "PCRs", list,
		 count == 1 ? "is" : "are");
}

/* tpm_unseal_token()'s refusals, said for the unlock dialog. Both a PCR
 * policy that fails and a wrong PIN are -EACCES: the TPM's own code
 * tells them apart (Part 2 6.6.3: AUTH_FAIL and BAD_AUTH are the
 * authValue's, the PIN's). */
static int unseal_why(int rc, const struct tpm *t, const char *pcrs,
		      const char *why, char *err, size_t errlen)
{
	uint32_t base = tpm_rc_base(t->rc);
	char words[TPM_PCR_COUNT * 4 + 16];

	if (rc == -ENOKEY)
		return say(err, errlen, rc, "%s", why);
	if (rc == -ENOLCK)
		return say(err, errlen, rc,
			   "the TPM is locked out after too many wrong PINs "
			   "and refuses its keys for a while" ASKING);
	if (rc == -EACCES && base != TPM_RC_AUTH_FAIL &&
	    base != TPM_RC_BAD_AUTH && pcrs && *pcrs) {
		pcr_words(pcrs, words, sizeof(words));
		return say(err, errlen, rc,
			   "the TPM's %s not what the key was sealed to" ASKING,
			   words);
	}
	return say(err, errlen, rc, "%s" ASKING, why);
}

/* The token's secret out of @t, as the keyslot's passphrase. */
static int unseal_key(struct tpm *t, const struct tpm_sealed_text *txt,
		      const char *pin, struct tpm_key *k, char *err,
		      size_t errlen)
{
	uint8_t secret[TPM_SENSITIVE_MAX];
	char why[200];
	size_t len = 0;
	int rc;

	t->rc = 0; /* unseal_why() reads this call's code, not an older one */
	rc = tpm_unseal_token(t, txt, pin, secret, &len, why, sizeof(why));
	if (rc)
		return unseal_why(rc, t, txt->pcrs, why, err, errlen);
	rc = tpm_unseal_passphrase(secret, len, k->pass, sizeof(k->pass));
	explicit_bzero(secret, sizeof(secret));
	if (rc < 0)
		return say(err, errlen, -EINVAL,
			   "the TPM's secret is too long for a passphrase");
	k->len = (size_t)rc;
	return 0;
}

/* The machine's TPM when @t is NULL; none is -ENOENT, nothing to say
 * beyond it. */
static int open_tpm(struct tpm **t, struct tpm *own, char *err, size_t errlen)
{
	char why[80];
	int rc;

	if (*t)
		return 0;
	rc = tpm_open(own, NULL);
	if (rc == -ENOENT || rc == -ENODEV)
		return say(err, errlen, -ENOENT, "this machine has no TPM");
	if (rc)
		return say(err, errlen, rc, "the TPM cannot be used: %s" ASKING,
			   tpm_error_text(rc, own->rc, why, sizeof(why)));
	*t = own;
	return 0;
}

static int get_key(struct tpm *t, const char *devnode, const char *name,
		   const char *pin, struct tpm_key *k, char *err, size_t errlen)
{
	struct luks_hdr *h = calloc(1, sizeof(*h));
	struct tpm own = {.fd = -1};
	struct tpm_sealed_text txt;
	int rc;

	if (!h)
		return say(err, errlen, -ENOMEM, "out of memory");
	rc = read_header(devnode, h, err, errlen);
	if (rc == 0)
		rc = find_token(h, name, &txt, &k->slot, err, errlen);
	if (rc == 0)
		rc = open_tpm(&t, &own, err, errlen);
	/* the token's strings live in the header's arena: freed after */
	if (rc == 0)
		rc = unseal_key(t, &txt, pin, k, err, errlen);
	tpm_close(&own);
	luks_free(h);
	free(h);
	return rc;
}

/* @d, the scan's device of that name: its node into @node when it is
 * locked. */
static int locked_node(const struct scan_dev *d, char *node, size_t cap,
		       char *err, size_t errlen)
{
	if (d->state == SCAN_DEV_LOCKED && d->devnode &&
	    snprintf(node, cap, "%s", d->devnode) < (int)cap)
		return 0;
	if (d->state == SCAN_DEV_LOCKED)
		return say(err, errlen, -ENAMETOOLONG,
			   "%s's device path is too long", d->name);
	if (d->unlocked_as && *d->unlocked_as)
		return say(err, errlen, -EALREADY,
			   "%s is already unlocked as %s", d->name,
			   d->unlocked_as);
	return say(err, errlen, -ENOENT, "%s is not a locked LUKS device",
		   d->name);
}

/* The scan's device @name, which must be locked; its node into @node. */
static int find_locked(struct session *s, const char *name, char *node,
		       size_t cap, char *err, size_t errlen)
{
	struct scan_dev *devs = calloc(SESSION_MAX_FS, sizeof(*devs));
	size_t n = 0, i = 0;
	int rc;

	if (!devs)
		return say(err, errlen, -ENOMEM, "out of memory");
	if (s->scan)
		n = scan_devices(s->scan, devs, SESSION_MAX_FS);
	while (i < n && i < SESSION_MAX_FS && strcmp(devs[i].name, name))
		i++;
	if (i < n && i < SESSION_MAX_FS)
		rc = locked_node(&devs[i], node, cap, err, errlen);
	else
		rc = say(err, errlen, -ENOENT, "no device %s", name);
	free(devs);
	return rc;
}

static int open_with(struct session *s, const char *name,
		     const struct tpm_key *k, char *err, size_t errlen)
{
	struct scan_unlock u = {
	    .pass = k->pass, .pass_len = k->len, .slot = k->slot};
	int rc = scan_unlock(s->scan, name, &u, err, errlen);

	/* the token's secret is the keyslot's passphrase (systemd-cryptenroll
	 * enrols its base64): luks_pass_key hands it on like a typed one */
	if (rc == 0)
		session_key_keep(s, name, k->pass, k->len);
	/* the token's keyslot was changed or removed since enrolment */
	if (rc == -EACCES)
		return say(err, errlen, rc,
			   "the key the TPM unsealed does not open keyslot "
			   "%d of %s" ASKING,
			   k->slot, name);
	return rc;
}

int session_unlock_tpm_on(struct session *s, struct tpm *t, const char *name,
			  const char *pin, char *err, size_t errlen)
{
	char node[256];
	struct tpm_key k = {.slot = -1};
	int rc = find_locked(s, name, node, sizeof(node), err, errlen);

	if (rc == 0)
		rc = get_key(t, node, name, pin, &k, err, errlen);
	if (rc == 0)
		rc = open_with(s, name, &k, err, errlen);
	explicit_bzero(&k, sizeof(k));
	return rc;
}

int session_unlock_tpm(struct session *s, const char *name, const char *pin,
		       char *err, size_t errlen)
{
	return session_unlock_tpm_on(s, NULL, name, pin, err, errlen);
}
