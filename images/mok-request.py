#!/usr/bin/env python3
"""images/mok-request.py CERT.der PASSWORD OUTDIR - the two variables
`mokutil --import CERT.der` writes, as efivarfs files (a little-endian
u32 of attributes, then the data), for a guest to copy into
/sys/firmware/efi/efivars (tests/e2e/test_shim.py):

  OUTDIR/MokNew-605dab50-e046-4300-abb6-3dd810dd8b23
      one EFI_SIGNATURE_LIST of type EFI_CERT_X509_GUID holding the DER
      certificate, its owner shim's GUID: SignatureListSize 28 + 16 + n,
      SignatureHeaderSize 0, SignatureSize 16 + n (mokutil 0.6's
      issue_mok_request)
  OUTDIR/MokAuth-605dab50-e046-4300-abb6-3dd810dd8b23
      mokutil 0.6's pw_crypt_t (packed, 172 bytes): u16 method (4, SHA-512
      crypt), u64 rounds (5000, crypt's default), u16 salt length, 32 bytes
      of salt characters, 128 bytes whose first 64 are the raw SHA-512 crypt
      digest of PASSWORD (MokManager's PasswordCrypt.c computes the same
      digest from what is typed and compares)
  both NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS, as mokutil sets.
MokManager also takes a 32-byte MokAuth, SHA-256 over MokNew's data and
the password in UCS-2: the form mokutil wrote before it used crypt; this
writes the crypt form the installed mokutil (0.6.0) writes.

The salt is derived from the certificate (mokutil draws it at random), so
the same inputs give the same files. The digest is checked against
`openssl passwd -6` before anything is written."""
import hashlib
import os
import struct
import subprocess
import sys
import uuid

SHIM_LOCK = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23")
CERT_X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
ATTRS = 0x1 | 0x2 | 0x4
B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SHA512_BASED, ROUNDS = 4, 5000


def sha512_crypt_raw(pw, salt, rounds=ROUNDS):
    """The final digest of SHA-512 crypt ($6$, Drepper's specification)."""
    h = hashlib.sha512
    b = h(pw + salt + pw).digest()
    a = h(pw + salt)
    n = len(pw)
    while n > 64:
        a.update(b)
        n -= 64
    a.update(b[:n])
    n = len(pw)
    while n:
        a.update(b if n & 1 else pw)
        n >>= 1
    c = a.digest()
    p = (h(pw * len(pw)).digest() * (len(pw) // 64 + 1))[:len(pw)]
    s = (h(salt * (16 + c[0])).digest() * (len(salt) // 64 + 1))[:len(salt)]
    for i in range(rounds):
        d = h(p if i & 1 else c)
        if i % 3:
            d.update(s)
        if i % 7:
            d.update(p)
        d.update(c if i & 1 else p)
        c = d.digest()
    return c


def crypt_b64(c):
    """The digest as crypt(3) prints it, to compare with openssl."""
    out = ""
    for i in range(21):
        t = (i, i + 21, i + 42)
        t = (t[0], t[1], t[2]) if i % 3 == 0 else \
            (t[1], t[2], t[0]) if i % 3 == 1 else (t[2], t[0], t[1])
        w = c[t[0]] << 16 | c[t[1]] << 8 | c[t[2]]
        for _ in range(4):
            out += B64[w & 0x3f]
            w >>= 6
    w = c[63]
    for _ in range(2):
        out += B64[w & 0x3f]
        w >>= 6
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[0])
    cert = open(sys.argv[1], "rb").read()
    pw = sys.argv[2].encode("ascii")
    out = sys.argv[3]
    if cert[:1] != b"\x30":
        sys.exit("mok-request: %s is not a DER certificate" % sys.argv[1])
    if not 1 <= len(pw) <= 256:
        sys.exit("mok-request: the password must be 1 to 256 characters")
    salt = "".join(B64[b & 0x3f] for b in hashlib.sha256(cert).digest()[:16])
    digest = sha512_crypt_raw(pw, salt.encode())
    want = subprocess.run(["openssl", "passwd", "-6", "-salt", salt, sys.argv[2]],
                          check=True, capture_output=True, text=True).stdout.strip()
    if want != "$6$%s$%s" % (salt, crypt_b64(digest)):
        sys.exit("mok-request: the SHA-512 crypt digest differs from openssl's")

    data = (struct.pack("<16sIII", CERT_X509.bytes_le, 28 + 16 + len(cert), 0,
                        16 + len(cert)) + SHIM_LOCK.bytes_le + cert)
    auth = struct.pack("<HQH32s128s", SHA512_BASED, ROUNDS, len(salt),
                       salt.encode(), digest)
    assert len(auth) == 172
    os.makedirs(out, exist_ok=True)
    for name, payload in (("MokNew", data), ("MokAuth", auth)):
        with open(os.path.join(out, "%s-%s" % (name, SHIM_LOCK)), "wb") as f:
            f.write(struct.pack("<I", ATTRS) + payload)


if __name__ == "__main__":
    main()
