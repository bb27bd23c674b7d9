#!/usr/bin/env bash
# scripts/sign.sh IN OUT KEY CERT - OUT: the EFI image IN signed for
# Secure Boot with KEY (a PEM private key) and CERT (its X.509 certificate,
# PEM), by Debian's sbsign, then checked with sbverify against CERT. An
# encrypted KEY takes its passphrase from $SIGN_PASS (never from a
# prompt: this runs unattended too). OUT is written only when both steps
# work; IN is never changed.
set -eu
in=${1:-} out=${2:-} key=${3:-} cert=${4:-}
die() { echo "sign: $*" >&2; exit 1; }
[ -n "$key" ] && [ -n "$cert" ] ||
	die "give the signing key and certificate: make sign SIGN_KEY=key.pem SIGN_CERT=cert.pem"
[ -r "$in" ] || die "cannot read the image $in"
[ -r "$key" ] || die "cannot read the key $key"
[ -r "$cert" ] || die "cannot read the certificate $cert"
command -v sbsign >/dev/null || die "sbsign is missing (Debian's sbsigntool package)"
openssl x509 -in "$cert" -noout 2>/dev/null ||
	die "$cert is not a PEM X.509 certificate"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 700 "$tmp"
# a key sbsign can read without asking: decrypted into the private
# temporary directory when it is encrypted
if ! openssl pkey -in "$key" -passin pass: -noout 2>/dev/null; then
	[ -n "${SIGN_PASS:-}" ] || die "$key is encrypted: set SIGN_PASS to its passphrase"
	openssl pkey -in "$key" -passin env:SIGN_PASS -out "$tmp/key.pem" 2>/dev/null ||
		die "cannot decrypt $key with SIGN_PASS (wrong passphrase?)"
	key=$tmp/key.pem
fi
sbsign --key "$key" --cert "$cert" --output "$tmp/signed.efi" "$in" >"$tmp/log" 2>&1 ||
	die "sbsign failed: $(tail -1 "$tmp/log")"
sbverify --cert "$cert" "$tmp/signed.efi" >"$tmp/log" 2>&1 ||
	die "sbverify does not accept the signed image: $(tail -1 "$tmp/log")"
mkdir -p "$(dirname "$out")"
cp "$tmp/signed.efi" "$out.tmp" && mv "$out.tmp" "$out"
echo "  SIGN $out ($(openssl x509 -in "$cert" -noout -subject | sed 's/^subject=//'))"
