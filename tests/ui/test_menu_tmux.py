#!/usr/bin/env python3
"""tests/ui/test_menu_tmux.py BUILD - the curses menu in a real terminal.

Runs `bootmenu --root <tree> --dry-run` inside tmux, types with send-keys
and reads the screen with capture-pane. The tree is BUILD/demo/syslinux
(real kernel and initrd, so the dry run prints a whole plan): entry 0
"Demo syslinux (bootmenu kernel)" (the default), entry 1 "Demo syslinux,
INITRD keyword", entry 2 "Boot from first hard disk" (disabled)."""
import os
import shutil
import subprocess
import sys
import time

B = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
PROG = os.path.join(B, "host", "bootmenu")
TREE = os.path.join(B, "demo", "syslinux")
SESSION = "bootmenu-ui-test-%d" % os.getpid()


def tmux(*args):
    return subprocess.run(["tmux"] + list(args), check=True,
                          capture_output=True, text=True).stdout


class Term:
    def __init__(self, cols=80, rows=24, timeout=30):
        cmd = "cd %s && TERM=xterm %s --root .=SYS --dry-run --timeout %s; " \
              "echo BOOTMENU-EXIT=$?; sleep 60" % (TREE, PROG, timeout)
        tmux("new-session", "-d", "-s", SESSION, "-x", str(cols), "-y",
             str(rows), cmd)

    def screen(self):
        return tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", SESSION)

    def keys(self, *k, literal=False):
        tmux("send-keys", "-t", SESSION, *(("-l",) if literal else ()), *k)
        time.sleep(0.3)

    def wait(self, text, timeout=10):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.1)
        raise AssertionError("no %r on screen:\n%s" % (text, self.screen()))

    def close(self):
        subprocess.run(["tmux", "kill-session", "-t", SESSION],
                       capture_output=True)


def run(name, fn, **kw):
    t = Term(**kw)
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
    s = t.wait("BOOTMENU-EXIT=0")
    if "entry:    Demo syslinux, INITRD keyword (syslinux)" not in s:
        raise AssertionError("plan is not of the 2nd entry:\n" + s)


def edit_changes_cmdline(t):
    t.keys("e")
    t.wait("Edit the command line")
    t.keys(" marker=edited", literal=True)
    t.keys("Enter")
    s = t.wait("BOOTMENU-EXIT=0")
    if "demo.entry=syslinux marker=edited\"" not in s:
        raise AssertionError("edited cmdline not in the plan:\n" + s)


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


def main():
    if not shutil.which("tmux"):
        print("FAIL ui.tmux: tmux is not installed")
        return 1
    for p in (PROG, TREE):
        if not os.path.exists(p):
            print("FAIL ui.setup: missing %s (run make)" % p)
            return 1
    ok = True
    ok &= run("countdown_stops_on_key", countdown_stops)
    ok &= run("down_enter_boots_second", down_enter_boots_second)
    ok &= run("edit_changes_cmdline", edit_changes_cmdline)
    ok &= run("esc_cancels_edit", esc_cancels_edit)
    ok &= run("details_show_source", details_show_source)
    ok &= run("disabled_entry_refused", disabled_is_refused)
    ok &= run("draws_at_60_columns", narrow_draws, cols=60)
    ok &= run("draws_at_200_columns", wide_draws, cols=200, rows=50)
    return 0 if ok else 1


sys.exit(main())
