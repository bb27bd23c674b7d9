/* pe_sig.c - Authenticode signers from a PE certificate table (pe_sig.h).
 *
 * Sources: Microsoft "Windows Authenticode Portable Executable Signature
 * Format" (WIN_CERTIFICATE, the SignedData it holds), RFC 2315 (PKCS #7
 * SignedData, SignerInfo), RFC 5280 (Certificate, Name), X.690 (DER) and
 * RFC 4514 (names as text, for the "#hex" form only).
 */
#include "format/pe_sig.h"
#include "util/le.h"
#include "format/pe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define WIN_CERT_HDR 8
#define WIN_CERT_ALIGN 8
#define WIN_CERT_REVISION_2_0 0x0200
#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002

#define DER_INTEGER 0x02
#define DER_OID 0x06
#define DER_UTF8 0x0c
#define DER_PRINTABLE 0x13
#define DER_T61 0x14
#define DER_IA5 0x16
#define DER_VISIBLE 0x1a
#define DER_UNIVERSAL 0x1c
#define DER_BMP 0x1e
#define DER_SEQ 0x30
#define DER_SET 0x31
#define DER_CTX0 0xa0 /* [0], constructed */
#define DER_CTX1 0xa1
#define DER_LEN_BYTES 4 /* longest long-form length accepted */

/* One parse of one table: its bytes, where the sentence goes, and which
 * entry (from 1) is being read, for that sentence. */
struct ps {
	const uint8_t *t;
	size_t len;
	char *err;
	size_t errlen;
	unsigned entry;
};

/* A cursor over the contents of one constructed DER value. */
struct der {
	struct ps *s;
	size_t off, end;
	unsigned depth;
};

/* One DER value: tag, where it starts, its contents, its cursor depth. */
struct tlv {
	uint8_t tag;
	size_t at, off, len;
	unsigned depth;
};

/* Name text being built in a caller's buffer, always NUL-terminated. */
struct txt {
	char *b;
	size_t cap, n;
	int full;
};

__attribute__((format(printf, 3, 4))) static int
ps_fail(struct ps *s, size_t at, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (s->err && s->errlen && s->entry)
		snprintf(s->err, s->errlen,
			 "certificate table entry %u: %s (table byte %zu)",
			 s->entry, why, at);
	else if (s->err && s->errlen)
		snprintf(s->err, s->errlen, "certificate table: %s", why);
	return -EINVAL;
}

/* X.690 8.1.3: short form below 0x80; long form 0x81..0x84 here (0x80,
 * the indefinite form, is BER only and refused). */
static int der_len(struct der *d, size_t *off, size_t *n)
{
	uint8_t b, k;

	if (get_le8(d->s->t, d->end, (*off)++, &b))
		return ps_fail(d->s, *off - 1, "DER length cut short");
	if (b < 0x80) {
		*n = b;
		return 0;
	}
	if (b == 0x80)
		return ps_fail(d->s, *off - 1, "indefinite DER length");
	k = b & 0x7f;
	if (k > DER_LEN_BYTES)
		return ps_fail(d->s, *off - 1, "DER length of %u bytes", k);
	*n = 0;
	for (uint8_t i = 0; i < k; i++) {
		if (get_le8(d->s->t, d->end, (*off)++, &b))
			return ps_fail(d->s, *off - 1, "DER length cut short");
		*n = *n << 8 | b;
	}
	return 0;
}

/* The next value inside @d, which must lie wholly inside it. */
static int der_read(struct der *d, struct tlv *t)
{
	size_t off = d->off, n = 0;
	int rc;

	if (get_le8(d->s->t, d->end, off, &t->tag))
		return ps_fail(d->s, off, "a DER value is missing");
	if ((t->tag & 0x1f) == 0x1f)
		return ps_fail(d->s, off, "DER high tag number");
	off++;
	rc = der_len(d, &off, &n);
	if (rc < 0)
		return rc;
	if (!le_in(d->end, off, n))
		return ps_fail(d->s, d->off,
			       "DER value runs past its container");
	t->at = d->off;
	t->off = off;
	t->len = n;
	t->depth = d->depth;
	d->off = off + n;
	return 0;
}

static int der_expect(struct der *d, uint8_t tag, const char *what,
		      struct tlv *t)
{
	int rc = der_read(d, t);

	if (rc < 0)
		return rc;
	if (t->tag != tag)
		return ps_fail(d->s, t->at, "%s: tag 0x%02x, want 0x%02x", what,
			       t->tag, tag);
	return 0;
}

static int der_enter(struct ps *s, const struct tlv *t, struct der *in)
{
	if (t->depth + 1 > PE_SIG_DER_DEPTH)
		return ps_fail(s, t->at, "DER nested deeper than %d",
			       PE_SIG_DER_DEPTH);
	*in = (struct der){s, t->off, t->off + t->len, t->depth + 1};
	return 0;
}

/* Expect a constructed value with @tag and step inside it. */
static int der_open(struct der *d, uint8_t tag, const char *what,
		    struct der *in)
{
	struct tlv t;
	int rc = der_expect(d, tag, what, &t);

	return rc < 0 ? rc : der_enter(d->s, &t, in);
}

static int tlv_is(const struct ps *s, const struct tlv *t, const uint8_t *b,
		  size_t n)
{
	return t->len == n && memcmp(s->t + t->off, b, n) == 0;
}

static int tlv_eq(const struct ps *s, const struct tlv *a, const struct tlv *b)
{
	return tlv_is(s, a, s->t + b->off, b->len);
}

static void txt_put(struct txt *x, const char *p, size_t n)
{
	if (x->full || n >= x->cap - x->n) {
		x->full = 1; /* cut whole characters and attributes only */
		return;
	}
	memcpy(x->b + x->n, p, n);
	x->n += n;
	x->b[x->n] = '\0';
}

static void txt_puts(struct txt *x, const char *s)
{
	txt_put(x, s, strlen(s));
}

/* Control characters become '?'; the rest UTF-8. */
static void txt_code(struct txt *x, uint32_t c)
{
	char u[4];

	if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c > 0x10ffff ||
	    (c >= 0xd800 && c < 0xe000))
		c = '?';
	if (c < 0x80) {
		u[0] = (char)c;
		txt_put(x, u, 1);
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | c >> 6);
		u[1] = (char)(0x80 | (c & 0x3f));
		txt_put(x, u, 2);
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | c >> 12);
		u[1] = (char)(0x80 | (c >> 6 & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		txt_put(x, u, 3);
	} else {
		u[0] = (char)(0xf0 | c >> 18);
		u[1] = (char)(0x80 | (c >> 12 & 0x3f));
		u[2] = (char)(0x80 | (c >> 6 & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		txt_put(x, u, 4);
	}
}

/* One UTF-8 character from p[0..n), n >= 1: its length; an invalid or
 * overlong sequence is one byte, read as '?'. */
static size_t utf8_next(const uint8_t *p, size_t n, uint32_t *cp)
{
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
	size_t k = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 1;
	uint32_t c = p[0] & (0x7f >> k);

	*cp = p[0] < 0x80 ? p[0] : '?';
	if (p[0] < 0x80 || (p[0] & 0xc0) == 0x80 || p[0] > 0xf4 || k > n)
		return 1;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min[k])
		return 1;
	*cp = c;
	return k;
}

/* RFC 4514 2.4: a value of a type that is not a string, as '#' and the
 * hex of its whole DER encoding. */
static void value_hex(const struct ps *s, const struct tlv *v, struct txt *x)
{
	char h[3];

	txt_puts(x, "#");
	for (size_t i = v->at; i < v->off + v->len; i++) {
		snprintf(h, sizeof(h), "%02x", s->t[i]);
		txt_puts(x, h);
	}
}

/* X.520 DirectoryString and the other string types names use: UTF-8,
 * single bytes (read as Latin-1 past ASCII), UCS-2 (BMPString) and UCS-4
 * (UniversalString), both big-endian; written as UTF-8. */
static void value_text(const struct ps *s, const struct tlv *v, struct txt *x)
{
	const uint8_t *p = s->t + v->off;
	size_t unit = v->tag == DER_BMP ? 2 : v->tag == DER_UNIVERSAL ? 4 : 1;
	uint32_t c;

	if (v->tag != DER_UTF8 && v->tag != DER_PRINTABLE &&
	    v->tag != DER_T61 && v->tag != DER_IA5 && v->tag != DER_VISIBLE &&
	    v->tag != DER_BMP && v->tag != DER_UNIVERSAL)
		return value_hex(s, v, x);
	for (size_t i = 0; i + unit <= v->len;) {
		if (v->tag == DER_UTF8) {
			i += utf8_next(p + i, v->len - i, &c);
		} else {
			c = 0;
			for (size_t k = 0; k < unit; k++)
				c = c << 8 | p[i + k];
			i += unit;
		}
		txt_code(x, c);
	}
}

/* X.690 8.19: an OID as dotted decimal. Subidentifiers are base 128,
 * the high bit set on all but their last byte; the first is 40 * X + Y. */
static int oid_text(struct ps *s, const struct tlv *t, struct txt *x)
{
	char num[32];
	uint64_t v = 0;
	int first = 1;

	if (t->len == 0)
		return ps_fail(s, t->at, "empty OID");
	for (size_t i = 0; i < t->len; i++) {
		uint8_t b = s->t[t->off + i];

		if (v > (UINT64_MAX >> 8))
			return ps_fail(s, t->at, "OID arc too large");
		v = v << 7 | (b & 0x7f);
		if (b & 0x80) {
			if (i + 1 == t->len)
				return ps_fail(s, t->at, "OID cut short");
			continue;
		}
		if (first) {
			unsigned arc = v < 80 ? (unsigned)(v / 40) : 2;

			snprintf(num, sizeof(num), "%u.%llu", arc,
				 (unsigned long long)(v - 40 * arc));
		} else {
			snprintf(num, sizeof(num), ".%llu",
				 (unsigned long long)v);
		}
		txt_puts(x, num);
		first = 0;
		v = 0;
	}
	return 0;
}

/* The attribute types named in text (RFC 4514 3, plus emailAddress from
 * PKCS #9, which signing certificates carry); others print as OIDs. */
static const struct {
	uint8_t oid[9];
	uint8_t len;
	const char *name;
} attr_names[] = {
    {{0x55, 0x04, 0x03}, 3, "CN"},
    {{0x55, 0x04, 0x0a}, 3, "O"},
    {{0x55, 0x04, 0x0b}, 3, "OU"},
    {{0x55, 0x04, 0x06}, 3, "C"},
    {{0x55, 0x04, 0x07}, 3, "L"},
    {{0x55, 0x04, 0x08}, 3, "ST"},
    {{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x01}, 9, "emailAddress"},
};

/* RFC 5280 4.1.2.4: AttributeTypeAndValue ::= SEQUENCE { type OID,
 * value ANY }, as "type=value", after ", " unless it is the first. */
static int name_atv(struct der *rdn, struct txt *x)
{
	struct der atv;
	struct tlv oid, val;
	size_t i, n = sizeof(attr_names) / sizeof(attr_names[0]);
	int rc;

	if ((rc = der_open(rdn, DER_SEQ, "AttributeTypeAndValue", &atv)) ||
	    (rc = der_expect(&atv, DER_OID, "attribute type", &oid)) ||
	    (rc = der_read(&atv, &val)))
		return rc;
	if (x->n)
		txt_puts(x, ", ");
	for (i = 0; i < n; i++)
		if (tlv_is(rdn->s, &oid, attr_names[i].oid, attr_names[i].len))
			break;
	if (i < n)
		txt_puts(x, attr_names[i].name);
	else if ((rc = oid_text(rdn->s, &oid, x)))
		return rc;
	txt_puts(x, "=");
	value_text(rdn->s, &val, x);
	return 0;
}

/* Name ::= SEQUENCE OF RelativeDistinguishedName (SET OF
 * AttributeTypeAndValue): every attribute in the order it appears. */
static int name_text(struct ps *s, const struct tlv *name, char *out)
{
	struct txt x = {out, PE_SIG_NAME_MAX, 0, 0};
	struct der n = {0}, rdn;
	int rc = der_enter(s, name, &n);

	out[0] = '\0';
	while (rc == 0 && n.off < n.end) {
		rc = der_open(&n, DER_SET, "RelativeDistinguishedName", &rdn);
		while (rc == 0 && rdn.off < rdn.end)
			rc = name_atv(&rdn, &x);
	}
	return rc;
}

/* RFC 2315 7, 9.1: ContentInfo ::= SEQUENCE { contentType signedData,
 * content [0] EXPLICIT SignedData }; steps into the SignedData. */
static int p7_signed_data(struct der *top, struct der *sd)
{
	static const uint8_t signed_data[] = {0x2a, 0x86, 0x48, 0x86, 0xf7,
					      0x0d, 0x01, 0x07, 0x02};
	struct der ci, ex;
	struct tlv t;
	int rc;

	if ((rc = der_open(top, DER_SEQ, "ContentInfo", &ci)) ||
	    (rc = der_expect(&ci, DER_OID, "contentType", &t)))
		return rc;
	if (!tlv_is(top->s, &t, signed_data, sizeof(signed_data)))
		return ps_fail(top->s, t.at, "not PKCS#7 signedData");
	if ((rc = der_open(&ci, DER_CTX0, "content", &ex)))
		return rc;
	return der_open(&ex, DER_SEQ, "SignedData", sd);
}

/* RFC 2315 9.1: SignedData ::= SEQUENCE { version, digestAlgorithms SET,
 * contentInfo, certificates [0] IMPLICIT OPTIONAL, crls [1] IMPLICIT
 * OPTIONAL, signerInfos SET }: the certificates (tag 0 when absent) and
 * a cursor inside signerInfos. */
static int p7_parts(struct der *sd, struct tlv *certs, struct der *signers)
{
	struct tlv t;
	int rc;

	certs->tag = 0;
	if ((rc = der_expect(sd, DER_INTEGER, "SignedData version", &t)) ||
	    (rc = der_expect(sd, DER_SET, "digestAlgorithms", &t)) ||
	    (rc = der_expect(sd, DER_SEQ, "contentInfo", &t)) ||
	    (rc = der_read(sd, &t)))
		return rc;
	if (t.tag == DER_CTX0) {
		*certs = t;
		if ((rc = der_read(sd, &t)))
			return rc;
	}
	if (t.tag == DER_CTX1 && (rc = der_read(sd, &t)))
		return rc;
	if (t.tag != DER_SET)
		return ps_fail(sd->s, t.at,
			       "signerInfos: tag 0x%02x, want 0x%02x", t.tag,
			       DER_SET);
	return der_enter(sd->s, &t, signers);
}

/* RFC 2315 9.2: SignerInfo ::= SEQUENCE { version,
 * issuerAndSerialNumber SEQUENCE { issuer Name, serialNumber INTEGER },
 * ... }. Authenticode requires this form, so CMS's [0]
 * subjectKeyIdentifier is refused. Only the first SignerInfo is read:
 * Authenticode has exactly one. */
static int p7_signer(struct der *signers, struct tlv *issuer,
		     struct tlv *serial)
{
	struct der si, ias;
	struct tlv t;
	int rc;

	if ((rc = der_open(signers, DER_SEQ, "SignerInfo", &si)) ||
	    (rc = der_expect(&si, DER_INTEGER, "SignerInfo version", &t)) ||
	    (rc = der_open(&si, DER_SEQ, "issuerAndSerialNumber", &ias)) ||
	    (rc = der_expect(&ias, DER_SEQ, "signer's issuer", issuer)))
		return rc;
	return der_expect(&ias, DER_INTEGER, "signer's serialNumber", serial);
}

/* RFC 5280 4.1: Certificate ::= SEQUENCE { tbsCertificate SEQUENCE {
 * version [0] EXPLICIT OPTIONAL, serialNumber, signature, issuer,
 * validity, subject, ... }, ... }: serial, issuer and subject of @cert. */
static int x509_names(struct ps *s, const struct tlv *cert, struct tlv *serial,
		      struct tlv *issuer, struct tlv *subject)
{
	struct der c, tbs;
	struct tlv t;
	int rc;

	if ((rc = der_enter(s, cert, &c)) ||
	    (rc = der_open(&c, DER_SEQ, "tbsCertificate", &tbs)) ||
	    (rc = der_read(&tbs, &t)))
		return rc;
	if (t.tag == DER_CTX0 && (rc = der_read(&tbs, &t)))
		return rc;
	if (t.tag != DER_INTEGER)
		return ps_fail(s, t.at, "certificate serialNumber: tag 0x%02x",
			       t.tag);
	*serial = t;
	if ((rc = der_expect(&tbs, DER_SEQ, "certificate signature", &t)) ||
	    (rc = der_expect(&tbs, DER_SEQ, "certificate issuer", issuer)) ||
	    (rc = der_expect(&tbs, DER_SEQ, "certificate validity", &t)))
		return rc;
	return der_expect(&tbs, DER_SEQ, "certificate subject", subject);
}

/* The subject of the certificate in @certs with this issuer and serial;
 * *found is 0 when there is none. Other CertificateChoices (CMS's
 * tagged forms) are skipped. */
static int p7_find_cert(struct ps *s, const struct tlv *certs,
			const struct tlv *issuer, const struct tlv *serial,
			struct tlv *subject, int *found)
{
	struct der all = {0};
	struct tlv c, ser = {0}, iss = {0};
	int rc;

	*found = 0;
	if (certs->tag != DER_CTX0)
		return 0;
	if ((rc = der_enter(s, certs, &all)))
		return rc;
	while (all.off < all.end) {
		if ((rc = der_read(&all, &c)))
			return rc;
		if (c.tag != DER_SEQ)
			continue;
		if ((rc = x509_names(s, &c, &ser, &iss, subject)))
			return rc;
		if (tlv_eq(s, &ser, serial) && tlv_eq(s, &iss, issuer)) {
			*found = 1;
			return 0;
		}
	}
	return 0;
}

/* One WIN_CERTIFICATE of type PKCS_SIGNED_DATA at table byte @off,
 * @n bytes with its header; its signer goes to @dst unless NULL. */
static int ps_entry(struct ps *s, size_t off, size_t n,
		    struct pe_sig_signer *dst)
{
	struct der top = {s, off + WIN_CERT_HDR, off + n, 0};
	struct der sd, signers;
	struct tlv certs = {0}, issuer = {0}, serial = {0}, subject = {0};
	int found = 0, rc;

	if ((rc = p7_signed_data(&top, &sd)) ||
	    (rc = p7_parts(&sd, &certs, &signers)) ||
	    (rc = p7_signer(&signers, &issuer, &serial)) ||
	    (rc = p7_find_cert(s, &certs, &issuer, &serial, &subject, &found)))
		return rc;
	if (!dst)
		return 0;
	if ((rc = name_text(s, &issuer, dst->issuer)))
		return rc;
	return found ? name_text(s, &subject, dst->subject) : 0;
}

/* The WIN_CERTIFICATE header at table byte @off: its length (header
 * included, within the table) and type. */
static int ps_header(struct ps *s, size_t off, uint32_t *n, uint16_t *type)
{
	uint16_t rev;

	s->entry++;
	if (get_le32(s->t, s->len, off, n) ||
	    get_le16(s->t, s->len, off + 4, &rev) ||
	    get_le16(s->t, s->len, off + 6, type))
		return ps_fail(s, off, "WIN_CERTIFICATE header cut short");
	if (*n < WIN_CERT_HDR || *n > s->len - off)
		return ps_fail(s, off, "dwLength %u does not fit the table",
			       *n);
	if (rev != WIN_CERT_REVISION_2_0)
		return ps_fail(s, off, "wRevision 0x%04x", rev);
	return 0;
}

/* The next entry's offset: entries start 8-byte aligned. */
static size_t ps_next(size_t off, uint32_t n)
{
	return off + n + (WIN_CERT_ALIGN - n % WIN_CERT_ALIGN) % WIN_CERT_ALIGN;
}

/* Authenticode "Attribute Certificate Table": WIN_CERTIFICATE {
 * dwLength (header included), wRevision, wCertificateType, data }. */
int pe_sig_parse_table(const void *tab, size_t len, struct pe_sig_info *out,
		       char *err, size_t errlen)
{
	struct ps s = {tab, len, err, errlen, 0};
	struct pe_sig_signer *dst;
	size_t off;
	uint32_t n = 0;
	uint16_t type = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (len > PE_SIG_TABLE_MAX)
		return ps_fail(&s, 0, "%zu bytes, more than the %u allowed",
			       len, PE_SIG_TABLE_MAX);
	for (off = 0; off < len; off = ps_next(off, n)) {
		if ((rc = ps_header(&s, off, &n, &type)))
			return rc;
		if (type != WIN_CERT_TYPE_PKCS_SIGNED_DATA)
			continue;
		dst = out->count < PE_SIG_MAX ? &out->signer[out->count] : NULL;
		if ((rc = ps_entry(&s, off, n, dst)))
			return rc;
		out->count++;
	}
	return 0;
}

int pe_sig_locate(const void *hdr, size_t len, size_t *off, size_t *size)
{
	uint32_t a, n;
	int rc = pe_data_dir(hdr, len, PE_DIR_SECURITY, &a, &n);

	if (rc < 0)
		return rc;
	if (a == 0 || n == 0)
		return -ENOENT;
	*off = a;
	*size = n;
	return 0;
}

int pe_sig_read(const void *buf, size_t len, struct pe_sig_info *out, char *err,
		size_t errlen)
{
	struct ps s = {buf, len, err, errlen, 0};
	size_t off, size;
	int rc;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	rc = pe_sig_locate(buf, len, &off, &size);
	if (rc < 0)
		return rc;
	if (!le_in(len, off, size))
		return ps_fail(&s, off,
			       "%zu bytes at byte %zu run past the end of the "
			       "%zu-byte file",
			       size, off, len);
	return pe_sig_parse_table((const uint8_t *)buf + off, size, out, err,
				  errlen);
}
