/* test_ui_unlock.c - the menu's unlock dialog (issue #33) in a real
 * terminal: this program runs the menu in tmux (itself again, in child
 * mode) over a --root tree with a locked LUKS2 line made as the session
 * makes it, types keys and reads the screen.
 *
 * The session's two calls into the scan and the TPM are this file's own
 * stand-ins (linked before the archive: session/unlock.c and
 * session/unlock_tpm.c are then never pulled in): session_unlock()
 * takes "secret" (after showing the key derivation's progress), says
 * -ENOTSUP to "fail" and -EACCES to anything else; session_unlock_tpm()
 * does what BM_UI_UNLOCK_TPM says. An unlock makes what the scan would:
 * the locked line goes and the volume's entry "Unlocked system" comes.
 */
#include "choose/choose.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "scan/scan.h"
#include "session/locked.h"
#include "session/session.h"
#include "boot/boot.h"
#include "test.h"
#include "ui/ui.h"
#include "plain/plain.h"
#include "util/arena.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define TMUX_NAME_FMT "bm-ui-unlock-%d"

static struct session *child_s;
static FILE *child_log;

/* What the scan does once a volume is open: the line goes, the volume's
 * entry comes (on the tree's filesystem, its kernel there). */
static void opened(struct session *s)
{
	struct entry **pp = &s->list.head, *e;

	while ((e = *pp)) {
		if (e->method == ENTRY_UNLOCK) {
			*pp = e->next;
			s->list.count--;
			continue;
		}
		pp = &e->next;
	}
	s->list.tail = pp;
	s->n_locked = 0;
	e = entry_new(&s->list, FMT_BARE, s->fss[0]);
	e->id = "unlocked";
	e->title = "Unlocked system";
	e->kernel.path = "/vmlinuz";
	e->kernel.fs = s->fss[0];
	entry_add(&s->list, e);
}

int session_unlock(struct session *s, const char *name, const char *pass,
		   size_t len, int (*progress)(void *, unsigned, unsigned),
		   void *ctx, char *err, size_t errlen)
{
	fprintf(child_log, "unlock %s %.*s\n", name, (int)len, pass);
	fflush(child_log);
	for (unsigned i = 0; i <= 8; i++) {
		if (progress && progress(ctx, i, 8)) {
			snprintf(err, errlen, "cancelled");
			return -ECANCELED;
		}
		usleep(150 * 1000);
	}
	if (len == 6 && !memcmp(pass, "secret", 6)) {
		opened(s);
		return 0;
	}
	if (len == 4 && !memcmp(pass, "fail", 4)) {
		snprintf(err, errlen,
			 "%s uses serpent-xts-plain64, a cipher bootmenu's "
			 "kernel lacks",
			 name);
		return -ENOTSUP;
	}
	snprintf(err, errlen, "no keyslot of %s opens with it", name);
	return -EACCES;
}

int session_unlock_tpm(struct session *s, const char *name, const char *pin,
		       char *err, size_t errlen)
{
	const char *mode = getenv("BM_UI_UNLOCK_TPM");

	fprintf(child_log, "tpm %s %s\n", name, pin ? pin : "-");
	fflush(child_log);
	if (!mode || !strcmp(mode, "none"))
		return -ENOENT;
	if (!strcmp(mode, "pcr")) {
		snprintf(err, errlen,
			 "the TPM's PCR 7 is not what the key was sealed to");
		return -EPERM;
	}
	if (!pin)
		return -ENOKEY;
	if (!strcmp(pin, "1234")) {
		opened(s);
		return 0;
	}
	snprintf(err, errlen, "the TPM refused the PIN");
	return -EACCES;
}

/* Child mode: the menu (the plain chooser with @plain) over the tree
 * BM_UI_UNLOCK_CHILD with vda3's locked line; calls logged to
 * BM_UI_UNLOCK_LOG. */
static int child(const char *tree, bool plain)
{
	static struct session s;
	static struct scan_dev vda3 = {.name = "vda3",
				       .fstype = "crypto_LUKS",
				       .state = SCAN_DEV_LOCKED,
				       .luks_version = 2,
				       .luks_uuid = "aaaa-1111",
				       .luks_label = "cr_root",
				       .unlocked_as = ""};
	const char *roots[] = {tree};
	struct conf cf;
	struct choose c;
	struct boot_opts bo = {.dry_run = true};
	struct ui_opts uo = {.conf = &cf, .choose = &c};
	char cerr[160];
	int rc;

	child_log = fopen(getenv("BM_UI_UNLOCK_LOG"), "w");
	if (!child_log || session_open_roots(&s, roots, 1))
		return 2;
	child_s = &s;
	session_locked_make(&s, &vda3, 1);
	session_locked_link(&s, &s.list);
	conf_init(&cf);
	if (getenv("BM_UI_UNLOCK_CONF"))
		conf_parse(&cf, getenv("BM_UI_UNLOCK_CONF"), cerr,
			   sizeof(cerr));
	choose_init(&c, &cf, "", getenv("BM_UI_UNLOCK_CONF") ? -2 : 30);
	rc = plain ? plain_menu(&s, &c, &bo) : ui_menu(&s, &uo, &bo);
	fprintf(child_log, "exit %d\n", rc);
	fclose(child_log);
	return rc;
}

__attribute__((constructor)) static void child_mode(void)
{
	const char *tree = getenv("BM_UI_UNLOCK_CHILD");

	if (tree)
		exit(child(tree, getenv("BM_UI_UNLOCK_PLAIN") != NULL));
}

/* --- the parent: tmux */

static char name[64], dir[64], logpath[128], self[PATH_MAX];

static int tmux(const char *args)
{
	char cmd[PATH_MAX * 2];

	snprintf(cmd, sizeof(cmd), "tmux %s >/dev/null 2>&1", args);
	return system(cmd);
}

static const char *screen(void)
{
	static char buf[16384];
	char cmd[256];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "tmux capture-pane -p -t %s 2>/dev/null",
		 name);
	p = popen(cmd, "r");
	n = p ? fread(buf, 1, sizeof(buf) - 1, p) : 0;
	buf[n] = '\0';
	if (p)
		pclose(p);
	return buf;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Wait up to @ms for @text on the screen; a failed check shows it. */
static bool wait_for(const char *text, int ms, int line)
{
	long long end = now_ms() + ms;

	while (now_ms() < end) {
		if (strstr(screen(), text))
			return true;
		usleep(50 * 1000);
	}
	printf("  line %d: no \"%s\" on the screen:\n%s\n", line, text,
	       screen());
	test_failures++;
	return false;
}
#define WAIT(text) wait_for(text, 10000, __LINE__)

static void keys(const char *k)
{
	char args[512];

	snprintf(args, sizeof(args), "send-keys -t %s %s", name, k);
	tmux(args);
	usleep(200 * 1000);
}

static void type(const char *text)
{
	char args[512];

	snprintf(args, sizeof(args), "send-keys -t %s -l '%s'", name, text);
	tmux(args);
	usleep(100 * 1000);
	keys("Enter");
}

static char *log_text(void)
{
	static char buf[4096];
	size_t n = 0;
	char *t = test_slurp(logpath, &n);

	snprintf(buf, sizeof(buf), "%.*s", (int)n, t ? t : "");
	free(t);
	return buf;
}

static void stop(void);
static bool setup(void);

/* The menu in tmux over @tree, the TPM as @tpm says; false (a skip or
 * a failure said) when it cannot start. */
static bool start_conf(const char *tree, const char *tpm, const char *conf)
{
	char args[PATH_MAX * 2];

	if (!name[0] && !setup())
		return false;
	stop();
	unlink(logpath);
	snprintf(
	    args, sizeof(args),
	    "new-session -d -s %s -x 80 -y 24 "
	    "\"env TERM=xterm BM_UI_UNLOCK_CHILD=%s/%s BM_UI_UNLOCK_TPM=%s "
	    "BM_UI_UNLOCK_CONF='%s' BM_UI_UNLOCK_LOG=%s %s; sleep 60\"",
	    name, dir, tree, tpm, conf, logpath, self);
	if (tmux(args) == 0)
		return true;
	printf("  tmux new-session failed\n");
	test_failures++;
	return false;
}

static bool start(const char *tree, const char *tpm)
{
	return start_conf(tree, tpm, "");
}

static void stop(void)
{
	char args[128];

	snprintf(args, sizeof(args), "kill-session -t %s", name);
	tmux(args);
}

static bool setup(void)
{
	char cmd[PATH_MAX];
	ssize_t n;

	if (system("command -v tmux >/dev/null") != 0) {
		test_skip("no tmux here");
		return false;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		test_skip("no /proc/self/exe");
		return false;
	}
	self[n] = '\0';
	snprintf(name, sizeof(name), TMUX_NAME_FMT, (int)getpid());
	snprintf(dir, sizeof(dir), "/tmp/bm_ui_unlock_XXXXXX");
	if (!mkdtemp(dir)) {
		test_skip("no temporary directory");
		name[0] = '\0';
		return false;
	}
	snprintf(logpath, sizeof(logpath), "%s/log", dir);
	/* empty: only the locked line; sys: a kernel and its entry too */
	snprintf(
	    cmd, sizeof(cmd),
	    "mkdir -p %s/empty %s/sys/syslinux && echo k > %s/sys/vmlinuz"
	    " && printf 'DEFAULT a\\nLABEL a\\n  MENU LABEL Plain "
	    "system\\n  KERNEL /vmlinuz\\n' > %s/sys/syslinux/syslinux.cfg",
	    dir, dir, dir, dir);
	return system(cmd) == 0;
}

/* Only a locked volume: its dialog opens by itself; two wrong tries,
 * then the right one; the volume's entry then counts down. */
TEST(asks_at_once_then_unlocks)
{
	if (!start("empty", "none"))
		return;
	WAIT("Unlock vda3 (LUKS2 'cr_root')");
	WAIT("Passphrase:");
	type("nope");
	WAIT("Wrong passphrase, try 2 of 3.");
	type("nope2");
	WAIT("Wrong passphrase, try 3 of 3.");
	type("secret");
	WAIT("Trying the passphrase...");
	WAIT("vda3 unlocked as luks-aaaa-1111");
	CHECK(!strstr(screen(), "secret") && !strstr(screen(), "nope"));
	WAIT("Booting Unlocked system in");
	CHECK(!strstr(screen(), "Encrypted: vda3"));
	keys("p");
	usleep(500 * 1000);
	CHECK_STR(log_text(),
		  "tpm vda3 -\nunlock vda3 nope\nunlock vda3 nope2\n"
		  "unlock vda3 secret\nexit 0\n");
	stop();
}

/* The TPM's reason above the prompt; Esc; another failure's box; three
 * wrong tries. */
TEST(tpm_note_cancel_errors)
{
	if (!start("empty", "pcr"))
		return;
	WAIT("TPM: the TPM's PCR 7 is not what the key was sealed to");
	keys("Escape");
	WAIT("Cancelled");
	WAIT("Encrypted: vda3, LUKS2 'cr_root' - Enter to unlock");
	WAIT("Enter unlock");
	keys("Enter");
	WAIT("Passphrase:");
	type("fail");
	WAIT("Cannot unlock vda3");
	WAIT("serpent-xts-plain64");
	keys("x");
	keys("Enter");
	WAIT("Passphrase:");
	type("bad");
	WAIT("Wrong passphrase, try 2 of 3.");
	type("bad");
	WAIT("Wrong passphrase, try 3 of 3.");
	type("bad");
	WAIT("Wrong passphrase 3 times: vda3 stays locked");
	/* Esc while the key derivation runs */
	keys("Enter");
	WAIT("Passphrase:");
	type("secret");
	WAIT("Trying the passphrase...");
	keys("Escape");
	WAIT("Cancelled");
	CHECK(strstr(screen(), "Encrypted: vda3") != NULL);
	keys("p");
	usleep(500 * 1000);
	/* the TPM each time the dialog opens, then the passphrases */
	CHECK_STR(log_text(), "tpm vda3 -\ntpm vda3 -\nunlock vda3 fail\n"
			      "tpm vda3 -\nunlock vda3 bad\nunlock vda3 bad\n"
			      "unlock vda3 bad\ntpm vda3 -\n"
			      "unlock vda3 secret\nexit 0\n");
	stop();
}

/* A token that wants a PIN: asked first, then no passphrase; Esc at the
 * PIN goes to the passphrase. */
TEST(tpm_pin)
{
	if (!start("empty", "pin"))
		return;
	WAIT("TPM PIN:");
	keys("Escape");
	WAIT("TPM: no PIN given. Passphrase:");
	keys("Escape");
	WAIT("Cancelled");
	keys("Enter");
	WAIT("TPM PIN:");
	type("0000");
	WAIT("TPM: the TPM refused the PIN Passphrase:");
	keys("Escape");
	WAIT("Cancelled");
	keys("Enter");
	WAIT("TPM PIN:");
	type("1234");
	WAIT("vda3 unlocked with the TPM as luks-aaaa-1111");
	WAIT("Booting Unlocked system in");
	keys("p");
	usleep(500 * 1000);
	CHECK_STR(log_text(),
		  "tpm vda3 -\ntpm vda3 -\ntpm vda3 0000\ntpm vda3 -\n"
		  "tpm vda3 1234\nexit 0\n");
	stop();
}

/* Beside a bootable entry: no dialog by itself, the countdown is the
 * entry's, the line is last and says what Enter does. */
TEST(beside_an_entry)
{
	char cmd[128];

	if (!start("sys", "none"))
		return;
	WAIT("Booting Plain system in");
	WAIT("Encrypted volumes");
	CHECK(!strstr(screen(), "Passphrase:"));
	CHECK(strstr(screen(), "1 entries on 1 filesystems") != NULL);
	keys("End");
	WAIT("Enter unlock");
	keys("e");
	WAIT("vda3 is encrypted: Enter unlocks it");
	keys("p");
	usleep(500 * 1000);
	CHECK_STR(log_text(), "exit 0\n");
	stop();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_INT(system(cmd), 0);
}

/* Wait up to 10 s for the child's log to hold @text. */
static bool log_wait(const char *text)
{
	for (int i = 0; i < 200; i++) {
		if (strstr(log_text(), text))
			return true;
		usleep(50 * 1000);
	}
	return false;
}

/* unlock_at_start names the volume (by its LUKS2 label) beside a
 * bootable entry: its dialog opens by itself; nobody types, so when the
 * countdown ends the dialog closes and the default is booted (an
 * unattended machine still boots; here its dry-run load fails, which
 * shows it was tried). */
TEST(at_start_nobody_types)
{
	if (!start_conf("sys", "none",
			"timeout = 2\nunlock_at_start = UUID=bbbb* "
			"LABEL=cr_*\n"))
		return;
	WAIT("Unlock vda3 (LUKS2 'cr_root')");
	WAIT("Passphrase:");
	/* the default's (dry-run) load: its kernel here is not a bzImage */
	WAIT("The default cannot boot");
	CHECK(!strstr(screen(), "Passphrase:"));
	keys("x");
	keys("p");
	CHECK(log_wait("exit 0\n"));
	CHECK_STR(log_text(), "tpm vda3 -\nexit 0\n");
	stop();
}

/* Named by its device name: a key in the dialog stops the countdown
 * (nothing boots while the user types); Esc goes back to the menu,
 * which then waits. A pattern that names nothing opens no dialog. */
TEST(at_start_key_stops_countdown)
{
	if (!start_conf("sys", "none", "timeout = 1\nunlock_at_start = vd?3\n"))
		return;
	WAIT("Passphrase:");
	keys("x");
	usleep(2500 * 1000);
	CHECK(!strstr(log_text(), "exit"));
	CHECK(strstr(screen(), "Passphrase:") != NULL);
	keys("Escape");
	WAIT("Cancelled");
	usleep(1500 * 1000);
	CHECK(!strstr(log_text(), "exit"));
	CHECK(!strstr(screen(), "Booting"));
	keys("p");
	CHECK(log_wait("exit 0\n"));
	CHECK_STR(log_text(), "tpm vda3 -\nexit 0\n");
	if (!start_conf("sys", "none", "timeout = 1\nunlock_at_start = vdb*\n"))
		return;
	WAIT("Booting Plain system in");
	CHECK(!strstr(screen(), "Passphrase:"));
	WAIT("The default cannot boot");
	keys("x");
	keys("p");
	CHECK(log_wait("exit 0\n"));
	CHECK_STR(log_text(), "exit 0\n");
	stop();
}

/* The plain chooser (stdin not a terminal): nothing but the locked line,
 * so its passphrase is asked at once; the volume's entry then counts
 * down. */
TEST(plain_chooser)
{
	char cmd[PATH_MAX * 2], *out;
	size_t n = 0;

	if (!name[0] && !setup())
		return;
	snprintf(cmd, sizeof(cmd),
		 "printf 'nope\\nsecret\\n' | env BM_UI_UNLOCK_PLAIN=1 "
		 "BM_UI_UNLOCK_CHILD=%s/empty BM_UI_UNLOCK_LOG=%s %s "
		 "> %s/out 2>&1",
		 dir, logpath, self, dir);
	CHECK(WEXITSTATUS(system(cmd)) == 1);
	snprintf(cmd, sizeof(cmd), "%s/out", dir);
	out = test_slurp(cmd, &n);
	if (out)
		out[n] = '\0';
	CHECK(out &&
	      strstr(out, "bootmenu: Encrypted: vda3, LUKS2 'cr_root' "
			  "- Enter to unlock\nPassphrase: Trying the "
			  "passphrase...\nWrong passphrase, try 2 of "
			  "3.\nPassphrase: Trying the passphrase...\n"
			  "bootmenu: vda3 unlocked as luks-aaaa-1111\n"));
	CHECK(out && strstr(out, "0* Unlocked system [bare]"));
	CHECK(out && !strstr(out, "secret"));
	if (out && test_failures)
		printf("%s\n", out);
	free(out);
	CHECK_STR(log_text(), "tpm vda3 -\nunlock vda3 nope\n"
			      "unlock vda3 secret\nexit 1\n");
}

TEST_MAIN("test_ui_unlock", asks_at_once_then_unlocks, tpm_note_cancel_errors,
	  tpm_pin, plain_chooser, at_start_nobody_types,
	  at_start_key_stops_countdown, beside_an_entry)
