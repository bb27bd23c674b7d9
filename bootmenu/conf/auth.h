/* auth.h - the menu's password (bootmenu.conf `password = HASH`):
 * checked here, beside the file that holds it; the policy of when it is
 * asked lives in choose/.
 *
 * The hash is crypt(3)'s SHA-512 form, "$6$salt$...", as
 * `mkpasswd -m sha-512` or `openssl passwd -6` print it. Other hash
 * forms are refused when the configuration is read, so a typo cannot
 * leave the menu open.
 */
#ifndef BM_AUTH_H
#define BM_AUTH_H

#include <stdbool.h>

/* True when @hash is a usable "$6$" hash. */
bool auth_hash_valid(const char *hash);
/* True when @password matches @hash; false for an empty or bad hash.
 * Compares in constant time. */
bool auth_check(const char *hash, const char *password);

#endif
