"""tests/e2e/disks.py - disk images the e2e tests make and check."""
import hashlib
import os
import shutil
import subprocess


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fill_tree(root, files):
    """A fresh directory @root holding @files ({path in fs: host file to
    copy, or str content})."""
    shutil.rmtree(root, ignore_errors=True)
    for name, src in files.items():
        dst = os.path.join(root, name.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if src.startswith("/") and os.path.isfile(src):
            shutil.copy(src, dst)
        else:
            with open(dst, "w") as f:
                f.write(src)


def dirty_ext4(path, root, files, label="dirty", uuid=None):
    """A 16 MB ext4 at @path holding @files ({path in fs: host file or
    str content}), built from scratch dir @root, with its journal marked as
    needing recovery (what an unclean shutdown leaves)."""
    fill_tree(root, files)
    if os.path.exists(path):
        os.unlink(path)
    cmd = ["mke2fs", "-q", "-F", "-t", "ext4", "-L", label]
    if uuid:
        cmd += ["-U", uuid]
    subprocess.run(cmd + ["-d", root, path, "16M"], check=True)
    subprocess.run(["debugfs", "-w", "-R", "feature needs_recovery", path],
                   check=True, capture_output=True)
    out = subprocess.run(["dumpe2fs", "-h", path], capture_output=True, text=True).stdout
    if "needs_recovery" not in out:
        raise AssertionError("could not mark the journal as needing recovery")


def stick_ext4(path, root, files, label="stick", size="16M", big=None):
    """A whole-disk ext4 for a USB stick at @path holding @files ({path in
    fs: host file or str content}), built from scratch dir @root. @big,
    (path in fs, MiB), appends that many MiB of pseudo-random bytes
    (incompressible, so QEMU has to move every byte) to that file, made
    when it is not in @files: it is read slowly."""
    fill_tree(root, files)
    if big:
        dst = os.path.join(root, big[0].lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "ab") as f:
            h = hashlib.sha256(b"stick")
            for _ in range(big[1] * 1024 * 1024 // 32):
                d = h.digest()
                f.write(d)
                h = hashlib.sha256(d)
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", label,
                    "-d", root, path, size], check=True, stdout=subprocess.DEVNULL)
