/* test_auth.c - the password check, with hashes made by
 * `openssl passwd -6 -salt bootmenuSALT 'correct horse'` and Python's
 * crypt.crypt('secret', '$6$rounds=5000$abcdefgh$'). */
#include "conf/auth.h"
#include "test.h"

#include <string.h>

static const char H1[] =
    "$6$bootmenuSALT$Ss3HhIY2TkOjSZkipsC2HmcWkhm3fdXXtQGld/fjsFA7J1c5LBsw"
    "fpBWX4nWY6jHWOidVCvKoCWtpBDyUtqCX.";
static const char H_ROUNDS[] =
    "$6$rounds=5000$abcdefgh$ltjgWl6579NluT/Vi1nwEvcil.G5Nbc4NiXZaNGStk8P"
    "SwGfQv72N2CKPPrVACtLtip/cZ/1GM/O6IND4WQhG.";
/* SHA-256 form of the same password: not accepted */
static const char H_SHA256[] =
    "$5$bootmenuSALT$lBYZRwtnIO98g2nHm9OuN0uxQRmrsfuwcmRad0bfA83";

TEST(right_password)
{
	CHECK(auth_check(H1, "correct horse"));
	CHECK(auth_check(H_ROUNDS, "secret"));
}

/* Passwords longer than one SHA-512 block (the P sequence and digest B
 * repeated), exactly one block, empty, and a 16-character salt:
 * `openssl passwd -6 -salt LongKeySalt1234 "$(printf 'a%.0s' $(seq 150))"`,
 * `openssl passwd -6 -salt exactly16charsXY pw`, Python's
 * crypt.crypt('', '$6$s$') and crypt.crypt('x' * 64, '$6$rounds=1000$k64$'). */
TEST(edge_lengths)
{
	char a150[151], x64[65];

	memset(a150, 'a', 150);
	a150[150] = '\0';
	memset(x64, 'x', 64);
	x64[64] = '\0';
	CHECK(
	    auth_check("$6$LongKeySalt1234$ION50/AStcmUYDnV0gzteXSKc5ZpqF.u2b0J"
		       "Ezs3YXUXbWstAmRX1W8PpV77Ru74FNTXoY7Dl0EyNa6IqY9yy1",
		       a150));
	CHECK(!auth_check(
	    "$6$LongKeySalt1234$ION50/AStcmUYDnV0gzteXSKc5ZpqF.u2b0J"
	    "Ezs3YXUXbWstAmRX1W8PpV77Ru74FNTXoY7Dl0EyNa6IqY9yy1",
	    x64));
	CHECK(auth_check(
	    "$6$exactly16charsXY$KoEddX7wjqPY07mE0wQWOZCABIy882DZDXQnW"
	    "lqp95T6L55Ab7wbaSsYxX1IptXKLMssQ0upPUOCJcuaGabsd/",
	    "pw"));
	CHECK(auth_check(
	    "$6$s$.ZBEl9liET9mKM6jGxl//"
	    "vp8wOnIJwfkp.7sG2Ahu2q68bf4LasDRE6k5T5NPzLqBFx3oUbMl6xWpBsFfgm6..",
	    ""));
	CHECK(!auth_check(
	    "$6$s$.ZBEl9liET9mKM6jGxl//"
	    "vp8wOnIJwfkp.7sG2Ahu2q68bf4LasDRE6k5T5NPzLqBFx3oUbMl6xWpBsFfgm6..",
	    " "));
	CHECK(auth_check("$6$rounds=1000$k64$"
			 "wTDn3Q9JLOojLKH3vIBwOMfGXQXzqHyHbFAWmwJyGjRsUE7SkqDeG"
			 "KniVydD3WzmFWKmjyOUmHE3jB/6m82KA0",
			 x64));
}

TEST(wrong_password)
{
	CHECK(!auth_check(H1, "correct horsf"));
	CHECK(!auth_check(H1, "correct hors"));
	CHECK(!auth_check(H1, "correct horse "));
	CHECK(!auth_check(H1, ""));
	CHECK(!auth_check(H1, NULL));
	CHECK(!auth_check(H_ROUNDS, "Secret"));
}

TEST(valid_hashes)
{
	CHECK(auth_hash_valid(H1));
	CHECK(auth_hash_valid(H_ROUNDS));
}

TEST(refused_hashes)
{
	char cut[sizeof(H1)], bad[sizeof(H1)];

	CHECK(!auth_hash_valid(NULL));
	CHECK(!auth_hash_valid(""));
	CHECK(!auth_hash_valid("!"));
	CHECK(!auth_hash_valid("*"));
	CHECK(!auth_hash_valid("correct horse")); /* a clear-text password */
	CHECK(!auth_hash_valid(H_SHA256));
	CHECK(!auth_hash_valid("$1$abc$def"));
	CHECK(!auth_hash_valid("$6$$Ss3HhIY2TkOjSZkipsC2Hm")); /* no salt */
	CHECK(!auth_hash_valid("$6$rounds=5$abcdefgh$x")); /* rounds < 1000 */
	/* cut short by one character, or one character out of the alphabet */
	memcpy(cut, H1, sizeof(H1));
	cut[strlen(cut) - 1] = '\0';
	CHECK(!auth_hash_valid(cut));
	memcpy(bad, H1, sizeof(H1));
	bad[20] = '*';
	CHECK(!auth_hash_valid(bad));
	/* a refused hash never matches, whatever is typed */
	CHECK(!auth_check(H_SHA256, "correct horse"));
	CHECK(!auth_check(cut, "correct horse"));
	CHECK(!auth_check("!", "!"));
	CHECK(!auth_check("", ""));
}

TEST_MAIN("test_auth", right_password, edge_lengths, wrong_password,
	  valid_hashes, refused_hashes)
