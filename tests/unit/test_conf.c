/* test_conf.c - bootmenu.conf: every key, bad values reported with their
 * line and skipped, a bad password hash locking rather than opening. */
#include "conf/auth.h"
#include "conf/conf.h"
#include "test.h"

#include <errno.h>

static const char HASH[] =
    "$6$bootmenuSALT$Ss3HhIY2TkOjSZkipsC2HmcWkhm3fdXXtQGld/fjsFA7J1c5LBsw"
    "fpBWX4nWY6jHWOidVCvKoCWtpBDyUtqCX.";

TEST(defaults)
{
	struct conf c;

	conf_init(&c);
	CHECK(c.timeout == -2);
	CHECK_STR(c.default_pat, "");
	CHECK_STR(c.password, "");
	CHECK(!c.save_default);
	CHECK_STR(c.save_on, "");
	CHECK_STR(c.hide, "");
	CHECK(c.colour);
	CHECK_INT(c.tpm, CONF_TPM_AUTO);
	/* the network is on by default, harmlessly (auto) */
	CHECK_INT(conf_network(c.network, NULL, 0), CONF_NET_AUTO);
}

TEST(every_key)
{
	struct conf c;
	char err[160], text[600];

	snprintf(text, sizeof(text),
		 "timeout = 2.5\n"
		 "default = Debian*\n"
		 "password = %s\n"
		 "save_default = yes\n"
		 "save_default_on = LABEL=boot\n"
		 "hide = sdb* LABEL=backup\n"
		 "hide = UUID=1234-ABCD\n"
		 "network = eth1\n"
		 "colour = no\n"
		 "tpm = required\n",
		 HASH);
	conf_init(&c);
	CHECK_INT(conf_parse(&c, text, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK(c.timeout == 2.5);
	CHECK_STR(c.default_pat, "Debian*");
	CHECK_STR(c.password, HASH);
	CHECK(c.save_default);
	CHECK_STR(c.save_on, "LABEL=boot");
	CHECK_STR(c.hide, "sdb* LABEL=backup UUID=1234-ABCD");
	CHECK_STR(c.network, "eth1");
	CHECK(!c.colour);
	CHECK_INT(c.tpm, CONF_TPM_REQUIRED);
	CHECK(auth_check(c.password, "correct horse"));
}

TEST(tpm_values)
{
	struct conf c;
	char err[160];

	conf_init(&c);
	CHECK_INT(conf_parse(&c, "tpm = OFF\n", err, sizeof(err)), 0);
	CHECK_INT(c.tpm, CONF_TPM_OFF);
	CHECK_INT(conf_parse(&c, "tpm=auto\n", err, sizeof(err)), 0);
	CHECK_INT(c.tpm, CONF_TPM_AUTO);
	/* a bad value is said and keeps what was there */
	CHECK_INT(
	    conf_parse(&c, "tpm = required\ntpm = always\n", err, sizeof(err)),
	    -EINVAL);
	CHECK_STR(err, "line 2: bad value");
	CHECK_INT(c.tpm, CONF_TPM_REQUIRED);
}

TEST(booleans)
{
	struct conf c;
	char err[160];

	conf_init(&c);
	CHECK_INT(conf_parse(&c, "save_default=true\ncolor = off\n", err,
			     sizeof(err)),
		  0);
	CHECK(c.save_default);
	CHECK(!c.colour);
	CHECK_INT(
	    conf_parse(&c, "save_default = No\ncolour=1\n", err, sizeof(err)),
	    0);
	CHECK(!c.save_default);
	CHECK(c.colour);
	/* a bad value keeps what was there */
	CHECK_INT(
	    conf_parse(&c, "\n\nsave_default = maybe\n", err, sizeof(err)),
	    -EINVAL);
	CHECK_STR(err, "line 3: bad value");
	CHECK(!c.save_default);
}

TEST(bad_password_locks)
{
	struct conf c;
	char err[160], text[400];

	conf_init(&c);
	/* a hash cut short by a bad copy */
	snprintf(text, sizeof(text), "timeout = 3\npassword = %.60s\n", HASH);
	CHECK_INT(conf_parse(&c, text, err, sizeof(err)), -EINVAL);
	CHECK_STR(err,
		  "line 2: password is not a crypt(3) SHA-512 hash ($6$...): "
		  "protected actions are locked");
	CHECK_STR(c.password, CONF_PASSWORD_LOCKED);
	CHECK(c.timeout == 3);
	CHECK(!auth_hash_valid(c.password));
	CHECK(!auth_check(c.password, "correct horse"));
	CHECK(!auth_check(c.password, CONF_PASSWORD_LOCKED));
	/* a clear-text password is not a hash either */
	conf_init(&c);
	CHECK_INT(
	    conf_parse(&c, "password = correct horse\n", err, sizeof(err)),
	    -EINVAL);
	CHECK_STR(c.password, CONF_PASSWORD_LOCKED);
	/* an empty value is not "no password" */
	conf_init(&c);
	CHECK_INT(conf_parse(&c, "password =\n", err, sizeof(err)), -EINVAL);
	CHECK_STR(c.password, CONF_PASSWORD_LOCKED);
}

TEST(bad_lines_skipped)
{
	struct conf c;
	char err[160];

	conf_init(&c);
	CHECK_INT(conf_parse(&c,
			     "colour = no\nsave_default_on = LABEL=a b\n"
			     "just words\nsave_default_on=vda2\n",
			     err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "line 2: bad value"); /* the first one is reported */
	CHECK_STR(c.save_on, "vda2");
	CHECK(!c.colour);
	conf_init(&c);
	CHECK_INT(conf_parse(&c, "just words\n", err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "line 1: not a \"key = value\" line");
	conf_init(&c);
	CHECK_INT(conf_parse(&c, "save_default_on =\n", err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(c.save_on, "");
	CHECK_INT(conf_parse(&c, "colour = yes please\n", err, sizeof(err)),
		  -EINVAL);
}

TEST(long_values)
{
	static char text[CONF_LINE_MAX + 64], pat[400];
	struct conf c;
	char err[160];

	memset(pat, 'x', sizeof(pat) - 1);
	snprintf(text, sizeof(text), "default = %s\ntimeout = 4\n", pat);
	conf_init(&c);
	CHECK_INT(conf_parse(&c, text, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "line 1: value too long");
	CHECK_STR(c.default_pat, "");
	CHECK(c.timeout == 4);
	/* a line longer than CONF_LINE_MAX is skipped whole, not cut */
	memset(text, 0, sizeof(text));
	memcpy(text, "timeout = 9", 11);
	memset(text + 11, '0', CONF_LINE_MAX + 10);
	strcat(text, "\ncolour = no\n");
	conf_init(&c);
	CHECK_INT(conf_parse(&c, text, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "line 1: value too long");
	CHECK(c.timeout == -2);
	CHECK(!c.colour);
}

TEST(hide_lines_add_up)
{
	struct conf c;
	char err[160];

	conf_init(&c);
	CHECK_INT(conf_parse(
		      &c, "hide = sdb* LABEL=backup\nhide =\nhide = UUID=12*\n",
		      err, sizeof(err)),
		  0);
	CHECK_STR(c.hide, "sdb* LABEL=backup UUID=12*");
	/* unlock_at_start adds up the same way */
	CHECK_INT(conf_parse(&c,
			     "unlock_at_start = vda3\n"
			     "unlock_at_start = LABEL=cr_root UUID=4f*\n",
			     err, sizeof(err)),
		  0);
	CHECK_STR(c.unlock_at_start, "vda3 LABEL=cr_root UUID=4f*");
	CHECK_STR(c.hide, "sdb* LABEL=backup UUID=12*");
}

TEST(shipped_file)
{
	struct conf c;
	char err[160];

	/* configs/bootmenu.conf documents every key, all commented out */
	conf_init(&c);
	CHECK_INT(conf_load(&c, "configs/bootmenu.conf", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK(c.timeout == -2);
	CHECK(!c.save_default);
	CHECK_STR(c.password, "");
	CHECK(c.colour);
	CHECK_INT(conf_network(c.network, NULL, 0), CONF_NET_AUTO);
}

/* luks_pass_key: no (the default), yes, or patterns over titles and ids
 * (issue #33, "Type it once"). */
TEST(luks_pass_key)
{
	struct conf c;
	char err[160];

	conf_init(&c);
	CHECK_STR(c.pass_key, "");
	CHECK(!conf_pass_key(c.pass_key, "Debian", "debian"));
	CHECK_INT(conf_parse(&c, "luks_pass_key = yes\n", err, sizeof(err)), 0);
	CHECK_STR(c.pass_key, "*");
	CHECK(conf_pass_key(c.pass_key, "Debian", NULL));
	CHECK_INT(conf_parse(&c, "luks_pass_key = no\n", err, sizeof(err)), 0);
	CHECK_STR(c.pass_key, "");
	CHECK(!conf_pass_key(c.pass_key, "Debian", "debian"));
	CHECK_INT(conf_parse(&c, "luks_pass_key = Debian* \tgnulinux-*\n", err,
			     sizeof(err)),
		  0);
	CHECK_STR(c.pass_key, "Debian* \tgnulinux-*");
	CHECK(conf_pass_key(c.pass_key, "Debian GNU/Linux", "x"));
	CHECK(conf_pass_key(c.pass_key, "Other", "gnulinux-6.1-advanced"));
	CHECK(!conf_pass_key(c.pass_key, "Windows", "windows"));
	CHECK(!conf_pass_key(c.pass_key, NULL, NULL));
	/* an empty value is a mistake, not "no": reported, the last kept */
	CHECK_INT(conf_parse(&c, "luks_pass_key =\n", err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "line 1: bad value");
	CHECK_STR(c.pass_key, "Debian* \tgnulinux-*");
}

/* network: unset is auto (the default), the keywords in any case, and
 * anything else one link's name, which counts as on for that link. */
TEST(network_values)
{
	char only[8] = "stale";

	CHECK_INT(conf_network("", only, sizeof(only)), CONF_NET_AUTO);
	CHECK_STR(only, "");
	CHECK_INT(conf_network("Auto", only, sizeof(only)), CONF_NET_AUTO);
	CHECK_INT(conf_network("on", only, sizeof(only)), CONF_NET_ON);
	CHECK_STR(only, "");
	CHECK_INT(conf_network("1", only, sizeof(only)), CONF_NET_ON);
	CHECK_INT(conf_network("OFF", only, sizeof(only)), CONF_NET_OFF);
	CHECK_INT(conf_network("0", only, sizeof(only)), CONF_NET_OFF);
	CHECK_INT(conf_network("no", only, sizeof(only)), CONF_NET_OFF);
	CHECK_INT(conf_network("eth1", only, sizeof(only)), CONF_NET_ON);
	CHECK_STR(only, "eth1");
	/* a name longer than the buffer is cut, never overrun */
	CHECK_INT(conf_network("enp0s31f6", only, sizeof(only)), CONF_NET_ON);
	CHECK_STR(only, "enp0s31");
	CHECK_INT(conf_network("off", only, sizeof(only)), CONF_NET_OFF);
	CHECK_STR(only, "");
}

TEST_MAIN("test_conf", defaults, every_key, tpm_values, booleans,
	  bad_password_locks, bad_lines_skipped, long_values, hide_lines_add_up,
	  luks_pass_key, network_values, shipped_file)
