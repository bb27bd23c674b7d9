/* pe_sig.h - who signed a PE/COFF image (an EFI-stub kernel, a UKI):
 * the Authenticode signers named in its certificate table.
 *
 * Reads only: the certificate table (data directory 4, a file offset and
 * size), its WIN_CERTIFICATE entries, and in each PKCS#7 SignedData the
 * first SignerInfo's issuer and serial number, the certificate with that
 * issuer and serial, and that certificate's subject. Every integer goes
 * through get_le*() or a bounds-checked DER reader, so any buffer is safe
 * to pass.
 *
 * NOTHING IS VERIFIED HERE: no digest, no signature, no chain, no trust.
 * A name printed from this is what the file claims, for display; whether
 * a kernel may boot is decided by the kernel's kexec_file_load against
 * its keyrings. Pure: no I/O, no allocation, no globals.
 */
#ifndef BM_PE_SIG_H
#define BM_PE_SIG_H

#include <stddef.h>

/* Signers reported in detail; further signatures are only counted. */
#define PE_SIG_MAX 4
/* Room for one name as text, NUL included; longer names are cut. */
#define PE_SIG_NAME_MAX 256
/* Largest certificate table parsed (Debian's kernels carry ~2 KiB). */
#define PE_SIG_TABLE_MAX (1024u * 1024)
/* Deepest DER nesting followed (a subject's value sits at depth 9). */
#define PE_SIG_DER_DEPTH 16

struct pe_sig_signer {
	/* The signer certificate's subject, "CN=..., O=..."; empty when the
	 * signature does not carry the certificate SignerInfo names. */
	char subject[PE_SIG_NAME_MAX];
	/* Its issuer, as SignerInfo's issuerAndSerialNumber names it. */
	char issuer[PE_SIG_NAME_MAX];
};

struct pe_sig_info {
	unsigned count; /* PKCS#7 signatures in the table */
	struct pe_sig_signer signer[PE_SIG_MAX]; /* the first PE_SIG_MAX */
};

/* Find the certificate table of the PE image whose start is hdr[0..len)
 * (the headers suffice, e.g. the first PE_HEADERS_READ bytes of the
 * file): stores its file offset and size as the headers say, unchecked
 * against the file's size (the caller checks that), and returns 0.
 * Returns -ENOEXEC when @hdr is not a PE image, -ENOENT when the image
 * has no certificate table (unsigned). */
int pe_sig_locate(const void *hdr, size_t len, size_t *off, size_t *size);

/* Parse a certificate table, tab[0..len) (the bytes pe_sig_locate()
 * points at): fills *out (count and the first PE_SIG_MAX signers; names
 * are rendered with the RDNs in the order they appear, CN, O, OU, C, L,
 * ST and emailAddress by name, others as dotted OID=value, joined with
 * ", ") and returns 0. Entries that are not PKCS#7 SignedData are
 * skipped. Returns -EINVAL on malformed data, with a sentence in
 * err[0..errlen) (@err may be NULL). *out is owned by the caller; it
 * holds no pointers into @tab. */
int pe_sig_parse_table(const void *tab, size_t len, struct pe_sig_info *out,
		       char *err, size_t errlen);

/* Both steps over a whole file in memory, buf[0..len). Returns 0 and
 * fills *out as pe_sig_parse_table() does, -ENOEXEC when @buf is not a PE
 * image, -ENOENT when it has no certificate table, -EINVAL (sentence in
 * @err) when the table lies past the end of @buf or is malformed. */
int pe_sig_read(const void *buf, size_t len, struct pe_sig_info *out, char *err,
		size_t errlen);

#endif
