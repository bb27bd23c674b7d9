#!/usr/bin/env python3
"""tests/ui/test_menu_tmux.py BUILD - the curses menu in a real terminal.

Runs `bootmenu --root <tree> --dry-run` inside tmux, types with send-keys
and reads the screen with capture-pane. The tree is BUILD/demo/syslinux
(real kernel and initrd, so the dry run prints a whole plan): entry 0
"Demo syslinux (bootmenu kernel)" (the default), entry 1 "Demo syslinux,
INITRD keyword", entry 2 "Boot from first hard disk" (disabled). Tests
that change the tree or need a bootmenu.conf work on a copy in a
temporary directory."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

B = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
PROG = os.path.join(B, "host", "bootmenu")
TREE = os.path.join(B, "demo", "syslinux")
SESSION = "bootmenu-ui-test-%d" % os.getpid()


def tmux(*args):
    return subprocess.run(["tmux"] + list(args), check=True,
                          capture_output=True, text=True).stdout


def tmux_new(*args):
    """new-session, again when the server was just exiting (killing the
    last session ends it, and a new client can meet it going away)."""
    for _ in range(10):
        r = subprocess.run(["tmux", "new-session", "-d"] + list(args),
                           capture_output=True, text=True)
        if r.returncode == 0:
            return
        time.sleep(0.5)
    raise AssertionError("tmux new-session: " + r.stderr.strip())


class Session:
    """A tmux session @name: its screen (capture-pane with @capture), keys
    typed into it, text awaited on it (@where names it in a failure)."""
    capture = ()

    def __init__(self, name, where):
        self.name = name
        self.where = where

    def screen(self):
        return tmux("capture-pane", "-p", *self.capture, "-t", self.name)

    def keys(self, *k, literal=False):
        tmux("send-keys", "-t", self.name, *(("-l",) if literal else ()), *k)
        time.sleep(0.3)

    def wait(self, text, timeout=10):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.1)
        raise AssertionError("no %r on %s:\n%s" % (text, self.where,
                                                    self.screen()))

    def close(self):
        subprocess.run(["tmux", "kill-session", "-t", self.name],
                       capture_output=True)


class Term(Session):
    """bootmenu running in a session of @cols x @rows (its whole
    scrollback read, wrapped lines joined)."""
    capture = ("-J", "-S", "-200")

    def __init__(self, cols=80, rows=24, timeout=30, tree=None, args="",
                 env="TERM=xterm"):
        super().__init__(SESSION, "screen")
        cmd = "cd %s && %s %s --root .=SYS --dry-run --timeout %s %s; " \
              "echo BOOTMENU-EXIT=$?; sleep 60" % (tree or TREE, env, PROG,
                                                    timeout, args)
        self.tree = tree or TREE
        self.args = args
        tmux_new("-s", SESSION, "-x", str(cols), "-y", str(rows), cmd)

    def booted(self, want, why, timeout=10):
        """bootmenu ended well and its plan has @want; else @why fails."""
        s = self.wait("BOOTMENU-EXIT=0", timeout=timeout)
        if want not in s:
            raise AssertionError("%s:\n%s" % (why, s))
        return s

    def edit_and_boot(self, marker, why):
        """In the open editor, @marker added to the command line reaches
        the plan; else @why fails."""
        self.wait("Edit the command line")
        self.keys(" " + marker, literal=True)
        self.keys("Enter")
        self.booted('demo.entry=syslinux %s"' % marker, why)


def run(name, fn, setup=None, **kw):
    tmp = tempfile.mkdtemp(prefix="bootmenu-ui-")
    try:
        if setup:
            kw.update(setup(tmp))
        return run_in(name, fn, **kw)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_in(name, fn, **kw):
    try:
        t = Term(**kw)
    except Exception as e:  # tmux itself failed
        print("FAIL ui.%s: %s" % (name, str(e).splitlines()[0]))
        return False
    try:
        t.wait("Enter boot")
        fn(t)
        print("PASS ui.%s" % name)
        return True
    except Exception as e:  # a failed check, whatever raised
        print("FAIL ui.%s: %s" % (name, str(e).splitlines()[0]))
        sys.stderr.write("---- %s\n%s\n" % (name, e))
        return False
    finally:
        t.close()


def countdown_stops(t):
    s = t.wait("Booting Demo syslinux (bootmenu kernel) in")
    t.keys("j")
    t.keys("k")
    time.sleep(1.5)
    s = t.screen()
    if "Booting " in s:
        raise AssertionError("countdown still shown after a key:\n" + s)
    if "BOOTMENU-EXIT" in s:
        raise AssertionError("menu left after a key:\n" + s)


def down_enter_boots_second(t):
    t.keys("Down")
    t.keys("Enter")
    t.booted("entry:    Demo syslinux, INITRD keyword (syslinux)",
             "plan is not of the 2nd entry")


def edit_changes_cmdline(t):
    t.keys("e")
    t.edit_and_boot("marker=edited", "edited cmdline not in the plan")


def esc_cancels_edit(t):
    t.keys("e")
    t.wait("Edit the command line")
    t.keys(" marker=edited", literal=True)
    t.keys("Escape")
    time.sleep(0.5)
    s = t.screen()
    if "Edit the command line" in s or "BOOTMENU-EXIT" in s:
        raise AssertionError("Esc did not return to the menu:\n" + s)
    t.keys("Enter")
    s = t.wait("BOOTMENU-EXIT=0")
    if "marker=edited" in s or "demo.entry=syslinux\"" not in s:
        raise AssertionError("cancelled edit leaked into the plan:\n" + s)


def details_show_source(t):
    t.keys("i")
    s = t.wait("source:")
    if "source:  /syslinux/syslinux.cfg:" not in s or "kernel:  /boot/vmlinuz" not in s:
        raise AssertionError("details lack source line or kernel:\n" + s)


def disabled_is_refused(t):
    t.keys("End")
    s = t.screen()
    if "Boot from first hard disk  (LOCALBOOT" not in s:
        raise AssertionError("disabled entry without its reason:\n" + s)
    t.keys("Enter")
    t.wait("Press any key")
    t.keys("x")
    s = t.screen()
    if "BOOTMENU-EXIT" in s or "Enter boot" not in s:
        raise AssertionError("menu did not stay:\n" + s)


def narrow_draws(t):
    s = t.screen()
    if "Demo syslinux (bootmenu kernel)" not in s:
        raise AssertionError("60 columns: entries missing:\n" + s)
    if any(len(line) > 60 for line in s.splitlines()):
        raise AssertionError("60 columns: a line is wider")


def wide_draws(t):
    s = t.screen()
    if "Demo syslinux, INITRD keyword" not in s or "Enter boot" not in s:
        raise AssertionError("200 columns: not drawn:\n" + s)


def follows_resize(t):
    tmux("resize-window", "-t", SESSION, "-x", "100", "-y", "30")
    end = time.monotonic() + 10
    while time.monotonic() < end:
        lines = t.screen().rstrip("\n").split("\n")
        if len(lines) == 30 and lines[-1].startswith("Enter boot"):
            break
        time.sleep(0.2)
    else:
        raise AssertionError("key line not at the bottom after a resize:\n"
                             + t.screen())
    tmux("resize-window", "-t", SESSION, "-x", "60", "-y", "12")
    t.wait("Booting Demo")
    lines = t.screen().rstrip("\n").split("\n")
    if len(lines) != 12 or not lines[-1].startswith("Enter boot"):
        raise AssertionError("not redrawn at 60x12:\n" + t.screen())


# --- on a copy of the tree, with a bootmenu.conf

PASSWORD = "open sesame"


def sha512_hash(password):
    """crypt(3)'s "$6$" form, as `openssl passwd -6` prints it."""
    return subprocess.run(["openssl", "passwd", "-6", "-salt", "uitest",
                           password], check=True, capture_output=True,
                          text=True).stdout.strip()


def tree_copy(tmp, conf=""):
    tree = os.path.join(tmp, "tree")
    shutil.copytree(TREE, tree)
    path = os.path.join(tmp, "bootmenu.conf")
    with open(path, "w") as f:
        f.write(conf)
    return {"tree": tree, "args": "--config " + path}


def with_password(tmp):
    return tree_copy(tmp, "password = %s\n" % sha512_hash(PASSWORD))


def type_password(t, text):
    t.keys(text, literal=True)
    t.keys("Enter")


def password_blocks_edit(t):
    t.keys("e")
    t.wait("Editing needs the password")
    type_password(t, "wrong")
    t.wait("Wrong password, try 2 of 3")
    s = t.screen()
    if "Password: *****" in s:
        raise AssertionError("the prompt kept the typed text:\n" + s)
    type_password(t, "open sesame!")
    t.wait("try 3 of 3")
    type_password(t, "")
    s = t.wait("Wrong password 3 times")
    if "Edit the command line" in s or "BOOTMENU-EXIT" in s:
        raise AssertionError("a wrong password let the editor open:\n" + s)
    # the right one opens it, and the edit reaches the plan
    t.keys("e")
    t.wait("Editing needs the password")
    t.keys("open sesame", literal=True)
    s = t.wait("Password: ***********")
    if PASSWORD in s:
        raise AssertionError("the password shows on the screen:\n" + s)
    t.keys("Enter")
    t.edit_and_boot("marker=unlocked", "the edit did not reach the plan")


def password_not_for_the_default(t):
    # the default boots without a password, another entry asks for it
    t.keys("Down")
    t.keys("Enter")
    t.wait("Booting this entry needs the password")
    t.keys("Escape")
    time.sleep(0.5)
    t.keys("Up")
    t.keys("Enter")
    t.booted("entry:    Demo syslinux (bootmenu kernel) (syslinux)",
             "the default did not boot freely")


def password_shell(t):
    t.keys("s")
    t.wait("The shell needs the password")
    t.keys("Escape")
    s = t.wait("Cancelled")
    if "rescue shell" in s:
        raise AssertionError("the shell started without the password:\n" + s)


def with_spare_files(tmp):
    kw = tree_copy(tmp)
    boot = os.path.join(kw["tree"], "boot")
    shutil.copy(os.path.join(boot, "vmlinuz"), os.path.join(boot, "vmlinuz-copy"))
    with open(os.path.join(boot, "extra.img"), "wb") as f:
        f.write(b"\0" * 4096)
    return kw


def edit_paths_change_plan(t):
    t.keys("Down")
    t.keys("e")
    t.wait("Edit the command line")
    t.keys("Tab")
    t.keys("C-u")
    t.keys("/boot/vmlinuz-copy", literal=True)
    t.keys("Tab")
    t.keys("End")
    t.keys(" /boot/extra.img", literal=True)
    t.keys("Enter")
    s = t.wait("BOOTMENU-EXIT=0")
    for want in ("kernel:   /boot/vmlinuz-copy on SYS",
                 "initrd 0: /boot/initrd.gz on SYS",
                 "initrd 1: /boot/extra.img on SYS"):
        if want not in s:
            raise AssertionError("%r not in the plan:\n%s" % (want, s))


def edit_bad_path_refused(t):
    t.keys("e")
    t.wait("Edit the command line")
    t.keys("Down")
    t.keys("C-u")
    t.keys("vmlinuz", literal=True)
    t.keys("Enter")
    t.wait("a path starts with /")
    t.keys("Home")
    t.keys("/boot/missing-", literal=True)
    t.keys("Enter")
    s = t.wait("Cannot boot this entry")
    t.keys("x")
    time.sleep(0.5)
    s = t.screen()
    if "BOOTMENU-EXIT" in s or "Enter boot" not in s:
        raise AssertionError("the menu did not stay after a missing kernel:\n" + s)


def with_utf8_title(tmp):
    kw = tree_copy(tmp)
    cfg = os.path.join(kw["tree"], "syslinux", "syslinux.cfg")
    with open(cfg, "rb") as f:
        text = f.read()
    text = text.replace(b"Demo syslinux, INITRD keyword",
                        "Démo – ünïcode".encode())
    with open(cfg, "wb") as f:
        f.write(text)
    return kw


def utf8_title_on_utf8(t):
    s = t.wait("Démo – ünïcode")


def ascii_title_elsewhere(t):
    s = t.wait("D?mo ? ?n?code")
    if "Démo" in s:
        raise AssertionError("UTF-8 on a terminal that is not:\n" + s)


def rescan_finds_new_entry(t):
    # `r` reads the tree again: an entry added meanwhile shows up
    cfg = os.path.join(t.tree, "syslinux", "syslinux.cfg")
    with open(cfg, "a") as f:
        f.write("\nLABEL late\n\tMENU LABEL Added after start\n"
                "\tKERNEL /boot/vmlinuz\n")
    time.sleep(0.5)
    if "Added after start" in t.screen():
        raise AssertionError("the entry showed before r")
    t.keys("r")
    t.wait("Added after start")
    t.keys("End")
    t.keys("Enter")
    t.booted("entry:    Added after start (syslinux)",
             "the new entry did not boot")


def with_save_on(tmp):
    return tree_copy(tmp, "save_default = yes\nsave_default_on = SYS\n")


def save_default_confirms(t):
    t.keys("Down")
    t.keys("d")
    s = t.wait("Default saved")
    t.keys("x")
    path = os.path.join(t.tree, "bootmenu", "default")
    with open(path) as f:
        saved = f.read().split("\n")[0].strip()  # the first line is the id
    if saved != "demo-edit":
        raise AssertionError("saved %r, not demo-edit" % saved)


def save_default_refused(t):
    t.keys("d")
    s = t.wait("The default was not saved")
    if "off in bootmenu.conf" not in s:
        raise AssertionError("no reason given:\n" + s)
    t.keys("x")
    if os.path.exists(os.path.join(t.tree, "bootmenu")):
        raise AssertionError("something was written with saving off")


# --- one bootmenu on two terminals (what it does on tty0 + ttyS0)

class Pane(Session):
    """A tmux session whose pane only sleeps: a terminal for --console."""
    def __init__(self, tag):
        name = "%s-%s" % (SESSION, tag)
        tmux_new("-s", name, "-x", "80", "-y", "24", "sleep 300")
        self.tty = tmux("display-message", "-p", "-t", name,
                        "#{pane_tty}").strip()
        super().__init__(name, self.tty)


def two_terminals():
    a, b = Pane("a"), Pane("b")
    proc = None
    try:
        proc = subprocess.Popen(
            [PROG, "--root", ".=SYS", "--dry-run", "--timeout", "30",
             "--console", "%s,%s" % (a.tty, b.tty)], cwd=TREE,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, text=True)
        a.wait("Booting Demo syslinux (bootmenu kernel) in")
        b.wait("Booting Demo syslinux (bootmenu kernel) in")
        # keys on b act, a shows the same state
        b.keys("Down")
        b.keys("i")
        sa = a.wait("source:  /syslinux/syslinux.cfg:13")
        if "Demo syslinux, INITRD keyword" not in sa.splitlines()[0]:
            raise AssertionError("a does not show b's details:\n" + sa)
        a.keys("x")           # a key on a closes the details on both
        b.wait("Enter boot")
        if "source:" in b.screen():
            raise AssertionError("b still shows the details")
        a.keys("Enter")
        out, err = proc.communicate(timeout=20)
        if proc.returncode != 0:
            raise AssertionError("exit %d: %s" % (proc.returncode, err))
        if "entry:    Demo syslinux, INITRD keyword (syslinux)" not in out:
            raise AssertionError("plan is not of the 2nd entry:\n" + out)
        print("PASS ui.two_terminals_one_menu")
        return True
    except Exception as e:  # a failed check, whatever raised
        print("FAIL ui.two_terminals_one_menu: %s" % str(e).splitlines()[0])
        sys.stderr.write("---- two_terminals\n%s\n" % e)
        return False
    finally:
        if proc and proc.poll() is None:
            proc.kill()
            proc.wait()
        a.close()
        b.close()


def with_default_conf(tmp):
    return tree_copy(tmp, "default = *INITRD*\n")


def plain_first_load(kw):
    """What the plain front-end loads first, unattended, with the same
    tree and settings (stdin not a terminal)."""
    p = subprocess.run("cd %s && %s --root .=SYS --dry-run --timeout 0 %s "
                       "</dev/null" % (kw["tree"], PROG, kw["args"]),
                       shell=True, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith('bootmenu: loading "'):
            return line
    raise AssertionError("plain mode loaded nothing:\n" + p.stdout + p.stderr)


def conf_default_both_front_ends(t):
    """bootmenu.conf's default: the curses menu counts down to it and
    boots it, and the plain chooser loads the same entry first."""
    t.wait("Booting Demo syslinux, INITRD keyword in")
    t.booted("entry:    Demo syslinux, INITRD keyword (syslinux)",
             "the menu booted another entry", timeout=20)
    line = plain_first_load({"tree": t.tree, "args": t.args})
    if line != 'bootmenu: loading "Demo syslinux, INITRD keyword"':
        raise AssertionError("plain mode differs: " + line)


def with_broken_default(tmp):
    kw = tree_copy(tmp)
    cfg = os.path.join(kw["tree"], "syslinux", "syslinux.cfg")
    text = open(cfg).read().replace("KERNEL /boot/vmlinuz", "KERNEL /boot", 1)
    with open(cfg, "w") as f:
        f.write(text)
    return kw


def broken_default_falls_back(t):
    """The default's kernel is a directory: unattended, the box says why
    and which entry comes next, then that one boots; no key pressed."""
    s = t.wait("The default cannot boot", timeout=20)
    if 'Trying "Demo syslinux, INITRD keyword" in 3 s' not in s:
        raise AssertionError("the box does not name the next entry:\n" + s)
    t.booted("entry:    Demo syslinux, INITRD keyword (syslinux)",
             "the fallback was not booted", timeout=20)


# Each run: its name, what it does in the menu, and Term's settings
# (setup: makes the tree it runs on, in a temporary directory).
CASES = [
    ("countdown_stops_on_key", countdown_stops, {}),
    ("down_enter_boots_second", down_enter_boots_second, {}),
    ("edit_changes_cmdline", edit_changes_cmdline, {}),
    ("esc_cancels_edit", esc_cancels_edit, {}),
    ("details_show_source", details_show_source, {}),
    ("disabled_entry_refused", disabled_is_refused, {}),
    ("draws_at_60_columns", narrow_draws, {"cols": 60}),
    ("draws_at_200_columns", wide_draws, {"cols": 200, "rows": 50}),
    ("follows_resize", follows_resize, {}),
    ("password_blocks_edit", password_blocks_edit,
     {"setup": with_password}),
    ("password_not_for_the_default", password_not_for_the_default,
     {"setup": with_password}),
    ("password_guards_the_shell", password_shell, {"setup": with_password}),
    ("edit_paths_change_plan", edit_paths_change_plan,
     {"setup": with_spare_files}),
    ("edit_bad_path_refused", edit_bad_path_refused,
     {"setup": with_spare_files}),
    ("utf8_title_on_utf8_terminal", utf8_title_on_utf8,
     {"setup": with_utf8_title, "env": "TERM=xterm LANG=C.UTF-8 LC_ALL="}),
    ("ascii_title_elsewhere", ascii_title_elsewhere,
     {"setup": with_utf8_title, "env": "TERM=xterm LANG=C LC_ALL=C"}),
    ("rescan_finds_new_entry", rescan_finds_new_entry, {"setup": tree_copy}),
    ("save_default_confirms", save_default_confirms,
     {"setup": with_save_on}),
    ("save_default_refused", save_default_refused, {"setup": tree_copy}),
    ("conf_default_both_front_ends", conf_default_both_front_ends,
     {"setup": with_default_conf, "timeout": 1}),
    ("broken_default_falls_back", broken_default_falls_back,
     {"setup": with_broken_default, "timeout": 1}),
]


def main():
    if not shutil.which("tmux"):
        print("FAIL ui.tmux: tmux is not installed")
        return 1
    for p in (PROG, TREE):
        if not os.path.exists(p):
            print("FAIL ui.setup: missing %s (run make)" % p)
            return 1
    ok = True
    for name, fn, kw in CASES:
        ok &= run(name, fn, **kw)
    ok &= two_terminals()
    return 0 if ok else 1


sys.exit(main())
