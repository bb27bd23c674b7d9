/* auth.c - the menu's password: crypt(3) SHA-512 and a constant-time
 * comparison (glibc needs -lcrypt; musl has crypt() in libc). */
#include "auth.h"

#include <string.h>
#include <unistd.h>

/* crypt(5) "sha512crypt": $6$[rounds=N$]SALT$HASH, the salt at most 16
 * characters and the hash 86 characters of ./0-9A-Za-z. */
#define AUTH_SHA512_LEN 86
#define AUTH_SALT_MAX 16
#define AUTH_HASH_MAX 255

static bool auth_b64(char ch)
{
	return ch == '.' || ch == '/' || (ch >= '0' && ch <= '9') ||
	       (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}

/* "rounds=N$" with 1000 <= N <= 999999999, as crypt(5) allows. */
static const char *auth_rounds(const char *p)
{
	unsigned long n = 0;
	int digits = 0;

	if (strncmp(p, "rounds=", 7))
		return p;
	for (p += 7; *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
		n = n * 10 + (unsigned long)(*p - '0');
	if (!digits || *p != '$' || n < 1000 || n > 999999999)
		return NULL;
	return p + 1;
}

bool auth_hash_valid(const char *hash)
{
	const char *p, *salt;
	size_t n;

	if (!hash || strncmp(hash, "$6$", 3) || strlen(hash) > AUTH_HASH_MAX)
		return false;
	p = auth_rounds(hash + 3);
	if (!p)
		return false;
	for (salt = p; *p && *p != '$'; p++)
		if (*p == ':' || *p == '\n' || *p == ' ')
			return false;
	if (*p != '$' || p == salt || p - salt > AUTH_SALT_MAX)
		return false;
	for (n = 0, p++; p[n]; n++)
		if (!auth_b64(p[n]))
			return false;
	return n == AUTH_SHA512_LEN;
}

/* Every byte is looked at whatever the earlier ones were, so the time
 * does not say how much of a guess was right. */
static bool auth_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = (unsigned char)(la != lb);

	for (size_t i = 0; i < lb; i++)
		diff |= (unsigned char)(a[i < la ? i : 0] ^ b[i]);
	return diff == 0;
}

/* crypt(3) (unistd.h: the declaration both glibc and musl have; its
 * static buffer is fine for the one UI thread). */
bool auth_check(const char *hash, const char *password)
{
	const char *out;

	if (!auth_hash_valid(hash) || !password)
		return false;
	out = crypt(password, hash);
	return out && out[0] == '$' && auth_equal(out, hash);
}
