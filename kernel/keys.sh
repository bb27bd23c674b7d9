#!/usr/bin/env bash
# kernel/keys.sh OUT [CERT...] - OUT: one PEM file holding every certificate
# of kernel/keys/*.pem and each CERT given (PEM or DER), for the kernel's
# built-in trusted keyring (CONFIG_SYSTEM_TRUSTED_KEYS). OUT is rewritten
# only when its bytes change, so an unchanged set relinks nothing.
set -eu
out=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for c in "$here"/keys/*.pem "$@"; do
	[ -n "$c" ] || continue
	if [ ! -r "$c" ]; then
		echo "kernel/keys.sh: cannot read certificate $c" >&2
		exit 1
	fi
	# PEM (every certificate in it), else DER; neither stops the build
	if grep -q -- '-----BEGIN CERTIFICATE-----' "$c"; then
		ok=$(openssl crl2pkcs7 -nocrl -certfile "$c" 2>/dev/null |
		     openssl pkcs7 -print_certs 2>/dev/null | grep -v '^subject=\|^issuer=\|^$' || true)
		[ -n "$ok" ] && printf '%s\n' "$ok" >>"$tmp"
	else
		ok=$(openssl x509 -inform DER -in "$c" -outform PEM 2>/dev/null || true)
		[ -n "$ok" ] && printf '%s\n' "$ok" >>"$tmp"
	fi
	if [ -z "$ok" ]; then
		echo "kernel/keys.sh: $c is not an X.509 certificate (PEM or DER)" >&2
		exit 1
	fi
done
mkdir -p "$(dirname "$out")"
if ! cmp -s "$tmp" "$out"; then
	cp "$tmp" "$out.tmp" && mv "$out.tmp" "$out"
fi
