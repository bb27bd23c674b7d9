# images/debian-root.sh - sourced by the images that hold a real Debian 12
# userspace (bli-debian.sh, luks-debian.sh): debian_root DIR PKGS makes
# DIR/root with debootstrap (minbase plus PKGS, a comma list) from the
# first mirror this machine's apt sources name, once: DIR/packages
# remembers the list, and a different list makes the root again. Root
# only; the caller checks. Exits with debootstrap's log tail on failure.

debian_mirror() {
	local m
	m=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1)
	[ -n "$m" ] || m=$(sed -n 's/^deb \(\[[^]]*\] \)\?\([^ ]*\) .*/\2/p' /etc/apt/sources.list 2>/dev/null | grep -v security | head -1)
	echo "$m"
}

debian_root() {
	local dir=$1 pkgs=$2
	mkdir -p "$dir"
	if [ "$(cat "$dir/packages" 2>/dev/null)" != "$pkgs" ]; then
		rm -rf "$dir/root" "$dir/packages"
		echo "  DEBOOTSTRAP bookworm minbase + $pkgs"
		debootstrap --variant=minbase --include="$pkgs" \
			bookworm "$dir/root" "$(debian_mirror)" > "$dir/debootstrap.log" 2>&1 ||
			{ tail -20 "$dir/debootstrap.log" >&2; exit 1; }
		echo "$pkgs" > "$dir/packages"
	fi
}
