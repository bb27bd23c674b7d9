"""md-raid5.py BUILD DIR - make-real.sh's RAID5 part: tests/e2e/mdadm_vm.py's
builder VM (Debian's kernel and mdadm) with raid456 and the modules it
needs loaded too, making a three-member RAID5 (metadata 1.2) over files
DIR/mr5-a.img, -b, -c of 40 MiB; the array holds a 16 MiB image of
zeros."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e"))
import mdadm_vm  # noqa: E402

# modules.dep of Debian's 6.1 kernel, in load order
mdadm_vm.MODULES = mdadm_vm.MODULES + [
    "kernel/crypto/xor.ko", "kernel/lib/raid6/raid6_pq.ko",
    "kernel/crypto/async_tx/async_tx.ko", "kernel/crypto/async_tx/async_memcpy.ko",
    "kernel/crypto/async_tx/async_xor.ko", "kernel/crypto/async_tx/async_pq.ko",
    "kernel/crypto/async_tx/async_raid6_recov.ko", "kernel/crypto/crc32c_generic.ko",
    "kernel/lib/libcrc32c.ko", "kernel/drivers/md/raid456.ko"]
raid1_script = mdadm_vm._script
mdadm_vm._script = lambda arrays: raid1_script(arrays).replace("--level=1", "--level=5")


def main(build, d):
    image = os.path.join(d, "zeros.img")
    with open(image, "wb") as f:
        f.truncate(16 << 20)
    mdadm_vm.build(build, d, [mdadm_vm.Array("mr5", "1.2", ["a", "b", "c"], image)])


if __name__ == "__main__":
    main(*sys.argv[1:])
