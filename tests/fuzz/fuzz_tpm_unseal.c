/* fuzz_tpm_unseal.c - the unseal path's parsers of outside bytes: the
 * TPM's answers to CreatePrimary, Load, StartAuthSession, the policy
 * commands, Unseal and FlushContext (tpm/cmd.h), and a systemd-tpm2
 * token's members from a LUKS2 header (tpm/unseal.h). The input is both:
 * every response parser reads all of it, and its lines, in the order of
 * struct tpm_sealed_text (an empty line: the member is absent), are the
 * token's members. Nothing accepted may claim more than its bounds. */
#include "tpm/cmd.h"
#include "tpm/unseal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CANARY 0xa5

static void responses(const uint8_t *data, size_t size)
{
	uint8_t out[TPM_SENSITIVE_MAX + 1], name[2 + TPM2B_MAX + 1];
	uint32_t rc = 0, h = 0;
	size_t n = 0;

	out[TPM_SENSITIVE_MAX] = name[2 + TPM2B_MAX] = CANARY;
	tpm_rsp_create_primary(data, size, &rc, &h);
	if (tpm_rsp_load(data, size, &rc, &h, name, &n) == 0 &&
	    n > 2 + TPM2B_MAX)
		abort();
	if (tpm_rsp_start_auth_session(data, size, &rc, &h, out, &n) == 0 &&
	    n > TPM2B_MAX)
		abort();
	if (tpm_rsp_policy_get_digest(data, size, &rc, out, &n) == 0 &&
	    n > TPM2B_MAX)
		abort();
	if (tpm_rsp_unseal(data, size, &rc, out, &n) == 0 &&
	    (n > TPM_SENSITIVE_MAX || rc))
		abort();
	tpm_rsp_policy(data, size, &rc);
	tpm_rsp_flush_context(data, size, &rc);
	if (out[TPM_SENSITIVE_MAX] != CANARY || name[2 + TPM2B_MAX] != CANARY)
		abort();
}

static void token(const uint8_t *data, size_t size)
{
	static struct tpm_sealed s;
	const char *f[8] = {0};
	char *text = malloc(size + 1), *p = text, err[200];
	struct tpm_sealed_text t;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	for (int i = 0; i < 8 && p; i++) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		f[i] = *p ? p : NULL;
		p = nl ? nl + 1 : NULL;
	}
	t = (struct tpm_sealed_text){f[0], f[1], f[2], f[3],
				     f[4], f[5], f[6], f[7]};
	if (tpm_sealed_decode(&t, &s, err, sizeof(err)) == 0 &&
	    (s.priv_len + s.pub_len > TPM_BLOB_MAX || s.pcrs >> 24 ||
	     s.policy_len > TPM2B_MAX || !s.bank))
		abort();
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	responses(data, size);
	token(data, size);
	return 0;
}
