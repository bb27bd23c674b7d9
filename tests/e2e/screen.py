"""What a guest's serial console shows, for tests that drive the menu.

The serial output is ncurses drawing for a vt220: Screen replays it into
a grid of characters, and ScreenGuest wraps a Qemu guest with one, for
waiting on what is drawn and checking that /init never restarted
bootmenu. Used by test_hotplug.py and test_menu_faults.py."""
import re
import time

BOOTED = r"BOOTMENU-TARGET: booted entry=(\S+)"
RESTARTED = r"init: bootmenu (exited|was killed)"


class Screen:
    """The part of a vt220 that ncurses uses: cursor addressing, erase,
    insert/delete of lines and characters, scroll regions. Attributes and
    character sets are ignored; line-drawing bytes stay as they are."""

    def __init__(self, rows=24, cols=80):
        self.rows, self.cols = rows, cols
        self.s = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0
        self.top, self.bot = 0, rows - 1
        self.saved = (0, 0)
        self.pending = ""

    def _scroll_up(self, top, bot, n=1):
        for _ in range(n):
            del self.s[top]
            self.s.insert(bot, [" "] * self.cols)

    def _scroll_down(self, top, bot, n=1):
        for _ in range(n):
            del self.s[bot]
            self.s.insert(top, [" "] * self.cols)

    def _lf(self):
        if self.y == self.bot:
            self._scroll_up(self.top, self.bot)
        elif self.y < self.rows - 1:
            self.y += 1

    def _put(self, ch):
        if self.x >= self.cols:
            self.x = 0
            self._lf()
        self.s[self.y][self.x] = ch
        self.x += 1

    def _csi(self, params, final):
        priv = params.startswith("?")
        nums = [int(p) if p.isdigit() else 0 for p in params.lstrip("?").split(";")]
        n = nums[0] or 1
        row = self.s[self.y]
        if final in "Hf":
            self.y = min(max((nums[0] or 1) - 1, 0), self.rows - 1)
            self.x = min(max(((nums[1] if len(nums) > 1 else 0) or 1) - 1, 0), self.cols - 1)
        elif final == "A":
            self.y = max(self.y - n, 0)
        elif final == "B":
            self.y = min(self.y + n, self.rows - 1)
        elif final == "C":
            self.x = min(self.x + n, self.cols - 1)
        elif final == "D":
            self.x = max(self.x - n, 0)
        elif final == "G" or final == "`":
            self.x = min(n - 1, self.cols - 1)
        elif final == "d":
            self.y = min(n - 1, self.rows - 1)
        elif final == "K":
            a, b = {0: (self.x, self.cols), 1: (0, self.x + 1), 2: (0, self.cols)}.get(nums[0], (0, 0))
            row[a:b] = [" "] * (b - a)
        elif final == "J":
            if nums[0] == 0:
                row[self.x:] = [" "] * (self.cols - self.x)
                for r in range(self.y + 1, self.rows):
                    self.s[r] = [" "] * self.cols
            elif nums[0] == 1:
                row[:self.x + 1] = [" "] * (self.x + 1)
                for r in range(0, self.y):
                    self.s[r] = [" "] * self.cols
            else:
                self.s = [[" "] * self.cols for _ in range(self.rows)]
        elif final == "L" and self.top <= self.y <= self.bot:
            self._scroll_down(self.y, self.bot, n)
        elif final == "M" and self.top <= self.y <= self.bot:
            self._scroll_up(self.y, self.bot, n)
        elif final == "@":
            row[self.x:] = ([" "] * n + row[self.x:])[:self.cols - self.x]
        elif final == "P":
            row[self.x:] = (row[self.x + n:] + [" "] * n)[:self.cols - self.x]
        elif final == "X":
            row[self.x:self.x + n] = [" "] * len(row[self.x:self.x + n])
        elif final == "r" and not priv:
            self.top = (nums[0] or 1) - 1
            self.bot = ((nums[1] if len(nums) > 1 else 0) or self.rows) - 1
            self.y = self.x = 0

    def feed(self, text):
        text = self.pending + text
        self.pending = ""
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\x1b":
                m = re.compile(r"\x1b(\[[0-9;?>]*[@-~]|[()][0-9A-Za-z]|[78DEMc=>])").match(text, i)
                if not m:
                    if len(text) - i < 16:  # cut in the middle: wait for the rest
                        self.pending = text[i:]
                        return
                    i += 1
                    continue
                seq = m.group(1)
                if seq[0] == "[":
                    self._csi(seq[1:-1], seq[-1])
                elif seq == "7":
                    self.saved = (self.y, self.x)
                elif seq == "8":
                    self.y, self.x = self.saved
                elif seq == "D":
                    self._lf()
                elif seq == "E":
                    self.x = 0
                    self._lf()
                elif seq == "M":
                    if self.y == self.top:
                        self._scroll_down(self.top, self.bot)
                    elif self.y > 0:
                        self.y -= 1
                elif seq == "c":
                    self.__init__(self.rows, self.cols)
                i = m.end()
                continue
            if c == "\r":
                self.x = 0
            elif c == "\n":
                self._lf()
            elif c == "\b":
                self.x = max(self.x - 1, 0)
            elif c == "\t":
                self.x = min((self.x // 8 + 1) * 8, self.cols - 1)
            elif c >= " ":
                self._put(c)
            i += 1

    def text(self):
        return "\n".join("".join(r).rstrip() for r in self.s)


def screens_show(out, pattern):
    """Every match of @pattern on the screens the serial output @out drew,
    replayed through Screen's vt220 and looked at before each escape
    sequence (a status line is often redrawn in part: only a replayed
    screen shows the whole line)."""
    s, rx, seen = Screen(), re.compile(pattern, re.M), []
    for part in re.split(r"(?=\x1b\[)", out):
        s.feed(part)
        for m in rx.finditer(s.text()):
            if m.group(0) not in seen:
                seen.append(m.group(0))
    return seen


class ScreenGuest:
    """A guest (a Qemu) whose screen is replayed as its output arrives."""

    def __init__(self, q):
        self.q = q
        self.screen = Screen()
        self.fed = 0

    def show(self):
        out = self.q.output()
        self.screen.feed(out[self.fed:])
        self.fed = len(out)
        return self.screen.text()

    def wait_screen(self, pattern, timeout, gone=False):
        """Until @pattern (a regex, ^ and $ per line) is on the screen, or
        with @gone is no longer; AssertionError with the screen after
        @timeout seconds."""
        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.show(), re.M)
            if bool(found) != gone:
                return found
            if time.monotonic() > end:
                raise AssertionError("%s /%s/ on the screen after %d s:\n%s" % (
                    "still" if gone else "no", pattern, timeout, self.screen.text()))
            time.sleep(0.3)

    def keys(self, *keys):
        """Each key (or string) sent with a pause, as a typist would."""
        for k in keys:
            self.q.send(k)
            time.sleep(0.4)

    def not_restarted(self):
        m = re.search(RESTARTED + ".*", self.q.output())
        if m:
            raise AssertionError("/init restarted bootmenu: " + m.group(0))

    def close(self):
        self.q.close()
