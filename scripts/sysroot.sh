#!/usr/bin/env bash
# scripts/sysroot.sh SYSROOT - static musl builds of what the initramfs needs,
# from Debian's source packages: ncurses (wide, terminfo fallbacks compiled
# in), util-linux's libblkid, busybox (config: initramfs/busybox.config).
# apt-get source uses a deb-src list kept under build/apt/, made from the
# machine's own Debian sources; the system's apt config is not touched and
# apt checks the signatures as usual. Versions go to build/VERSIONS.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
SYSROOT=$(mkdir -p "$1" && cd "$1" && pwd)
B=$here/build
SRC=$B/src
APT=$B/apt
jobs=${JOBS:-$(nproc)}
mkdir -p "$SRC" "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/sources.list.d"

# --- kernel UAPI headers on an -isystem path of their own (musl has none)
rm -rf "$SYSROOT/uapi"; mkdir -p "$SYSROOT/uapi"
for d in linux asm-generic mtd scsi sound video drm misc rdma xen; do
	[ -d /usr/include/$d ] && cp -a /usr/include/$d "$SYSROOT/uapi/"
done
cp -a /usr/include/x86_64-linux-gnu/asm "$SYSROOT/uapi/asm"

# --- a deb-src list from the machine's own Debian sources
mk_sources() {
	local out=$APT/sources.list.d/src.sources
	: > "$out"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" >> "$out" && echo >> "$out"
	done
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list > "$APT/sources.list.d/src.list"
	fi
}
aptsrc() {
	apt-get -q -o Dir::Etc::SourceList=/dev/null \
		-o Dir::Etc::SourceParts="$APT/sources.list.d" \
		-o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" \
		-o APT::Sandbox::User=root "$@"
}
fetch() { # package -> prints the unpacked dir
	local pkg=$1 dir
	dir=$(ls -d "$SRC/$pkg"-*/ 2>/dev/null | head -1 || true)
	if [ -z "$dir" ]; then
		[ -f "$APT/.updated" ] || { mk_sources; aptsrc update >&2; touch "$APT/.updated"; }
		(cd "$SRC" && aptsrc source "$pkg" >&2)
		dir=$(ls -d "$SRC/$pkg"-*/ | head -1)
	fi
	echo "${dir%/}"
}

export CC=musl-gcc
CFLAGS_T="-Os -isystem $SYSROOT/uapi -ffunction-sections -fdata-sections"

# --- ncurses: wide characters, no database, fallbacks for the consoles we meet
build_ncurses() {
	local d; d=$(fetch ncurses)
	[ -f "$SYSROOT/lib/libncursesw.a" ] && return 0
	echo "  SYSROOT ncurses ($(basename "$d"))"
	rm -rf "$B/obj-ncurses"; mkdir -p "$B/obj-ncurses"
	(cd "$B/obj-ncurses" && CFLAGS="$CFLAGS_T" "$d/configure" --prefix="$SYSROOT" \
		--host=x86_64-linux-musl --without-shared --with-normal --without-debug \
		--without-cxx --without-cxx-binding --without-ada --without-manpages \
		--without-progs --without-tests --enable-widec --disable-database \
		--with-fallbacks=linux,vt100,vt220,xterm,xterm-256color,screen \
		--disable-home-terminfo --without-gpm --without-dlsym --disable-db-install \
		--enable-pc-files=no >"$B/obj-ncurses.log" 2>&1 &&
	 make -j"$jobs" libs >>"$B/obj-ncurses.log" 2>&1 &&
	 make install.libs install.includes >>"$B/obj-ncurses.log" 2>&1) ||
		{ tail -30 "$B/obj-ncurses.log" >&2; exit 1; }
}

# --- libblkid alone from util-linux
# Debian's patches leave configure.ac newer than configure; never rerun the
# autotools (they are not installed, and configure is what upstream shipped).
NOAUTO="ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true"
build_blkid() {
	local d; d=$(fetch util-linux)
	[ -f "$SYSROOT/lib/libblkid.a" ] && return 0
	echo "  SYSROOT libblkid ($(basename "$d"))"
	rm -rf "$B/obj-blkid"; mkdir -p "$B/obj-blkid"
	(cd "$B/obj-blkid" && CFLAGS="$CFLAGS_T" "$d/configure" --prefix="$SYSROOT" \
		--host=x86_64-linux-musl --disable-all-programs --enable-libblkid \
		--disable-shared --enable-static --without-udev --without-systemd \
		--without-python --disable-nls --disable-bash-completion \
		--without-readline --without-tinfo --without-ncurses --without-ncursesw \
		>"$B/obj-blkid.log" 2>&1 &&
	 make -j"$jobs" $NOAUTO libblkid.la >>"$B/obj-blkid.log" 2>&1 &&
	 make $NOAUTO install-usrlib_execLTLIBRARIES install-nodist_blkidincHEADERS \
		>>"$B/obj-blkid.log" 2>&1) ||
		{ tail -30 "$B/obj-blkid.log" >&2; exit 1; }
}

# Set every CONFIG_X=y of fragment $2 in .config $1 (the rest stays off).
merge_config() {
	awk 'NR == FNR { if (match($0, /^CONFIG_[A-Z0-9_]*=/)) { sym[substr($0, 1, RLENGTH - 1)] = 1; set[++n] = $0 } next }
	     /^# CONFIG_[A-Z0-9_]* is not set$/ && ($2 in sym) { next }
	     match($0, /^CONFIG_[A-Z0-9_]*=/) && (substr($0, 1, RLENGTH - 1) in sym) { next }
	     { print } END { for (i = 1; i <= n; i++) print set[i] }' "$2" "$1" > "$1.tmp"
	mv "$1.tmp" "$1"
}

# --- busybox, static, with our own config fragment over allnoconfig
build_busybox() {
	local d; d=$(fetch busybox)
	local cfg=$here/initramfs/busybox.config
	if [ -x "$SYSROOT/bin/busybox" ] && [ "$SYSROOT/bin/busybox" -nt "$cfg" ]; then return 0; fi
	echo "  SYSROOT busybox ($(basename "$d"))"
	rm -rf "$B/obj-busybox"; mkdir -p "$B/obj-busybox"
	(make -C "$d" O="$B/obj-busybox" allnoconfig &&
	 merge_config "$B/obj-busybox/.config" "$cfg" &&
	 yes "" | make -C "$B/obj-busybox" oldconfig &&
	 make -C "$B/obj-busybox" -j"$jobs" CC=musl-gcc HOSTCC=gcc \
		EXTRA_CFLAGS="-isystem $SYSROOT/uapi" busybox) >"$B/obj-busybox.log" 2>&1 ||
		{ tail -30 "$B/obj-busybox.log" >&2; exit 1; }
	for o in $(grep -o '^CONFIG_[A-Z0-9_]*=y' "$cfg" | cut -d= -f1); do
		grep -q "^$o=y" "$B/obj-busybox/.config" || echo "busybox: $o did not stick" >&2
	done
	mkdir -p "$SYSROOT/bin"
	cp "$B/obj-busybox/busybox" "$SYSROOT/bin/busybox"
	"$B/obj-busybox/busybox" --list > "$SYSROOT/bin/busybox.applets"
}

build_ncurses
build_blkid
build_busybox

# --- what went in
{
	echo "linux-source $(ls /usr/src/linux-source-6.1.tar.* >/dev/null && dpkg-query -W -f='${Version}' linux-source-6.1)"
	echo "musl $(dpkg-query -W -f='${Version}' musl-dev)"
	echo "linux-libc-dev $(dpkg-query -W -f='${Version}' linux-libc-dev)"
	for p in ncurses util-linux busybox; do
		echo "$p $(basename "$(ls -d "$SRC/$p"-*/ | head -1)" | sed "s/^$p-//")"
	done
} > "$B/VERSIONS"
touch "$SYSROOT/.done"
