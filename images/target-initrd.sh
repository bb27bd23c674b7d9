#!/usr/bin/env bash
# images/target-initrd.sh BUILD - BUILD/target-initrd.cpio.gz: the initrd the
# demo entries and the tests boot (tests/target/testinit.c as /init, and
# busybox for the demo's shell).
set -euo pipefail
B=$(cd "$1" && pwd)
list=$B/target-initrd.list
cat > "$list" <<EOL
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /bin 0755 0 0
dir /payload 0755 0 0
file /init $B/target/testinit 0755 0 0
file /bin/busybox $B/sysroot/bin/busybox 0755 0 0
slink /bin/sh busybox 0777 0 0
EOL
while read -r a; do
	[ "$a" = sh ] || echo "slink /bin/$a busybox 0777 0 0"
done < "$B/sysroot/bin/busybox.applets" >> "$list"
"$B/tools/gen_init_cpio" "$list" | gzip -9 -n > "$B/target-initrd.cpio.gz"
