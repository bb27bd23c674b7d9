/* text.c - UTF-8 decoding and the ASCII fallback for terminal lines. */
#include "ui/text.h"

#include <string.h>

/* RFC 3629: the shortest form only, no surrogates, at most U+10FFFF. */
size_t ui_text_decode(const char *s, long *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	long c, min;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2, c = u[0] & 0x1f, min = 0x80;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3, c = u[0] & 0x0f, min = 0x800;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4, c = u[0] & 0x07, min = 0x10000;
	else
		goto bad;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			goto bad;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		goto bad;
	*cp = c;
	return n;
bad:
	*cp = -1;
	return 1;
}

struct range {
	long lo, hi;
};

/* Unicode's East Asian Width W and F blocks, in broad strokes. */
static const struct range wide[] = {
    {0x1100, 0x115f},	{0x2e80, 0x303e},   {0x3041, 0x33ff},
    {0x3400, 0x4dbf},	{0x4e00, 0x9fff},   {0xa000, 0xa4cf},
    {0xac00, 0xd7a3},	{0xf900, 0xfaff},   {0xfe30, 0xfe4f},
    {0xff00, 0xff60},	{0xffe0, 0xffe6},   {0x1f300, 0x1f64f},
    {0x1f900, 0x1f9ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd},
};

/* Combining marks that join the character before them. */
static const struct range zero[] = {
    {0x0300, 0x036f}, {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, {0x200b, 0x200f},
    {0x20d0, 0x20ff}, {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f},
};

static bool in(const struct range *r, size_t n, long cp)
{
	for (size_t i = 0; i < n; i++)
		if (cp >= r[i].lo && cp <= r[i].hi)
			return true;
	return false;
}

int ui_text_width(long cp)
{
	if (in(zero, sizeof(zero) / sizeof(zero[0]), cp))
		return 0;
	if (in(wide, sizeof(wide) / sizeof(wide[0]), cp))
		return 2;
	return 1;
}

/* C0, DEL and C1 controls: ECMA-48 would act on them. */
static bool is_control(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

int ui_text_fit(char *out, size_t outlen, const char *in, int width, bool utf8)
{
	size_t o = 0;
	int col = 0;

	if (!outlen)
		return 0;
	while (*in) {
		long cp;
		size_t n = ui_text_decode(in, &cp);
		bool keep = utf8 && cp >= 0x80 && !is_control(cp);
		int w = keep ? ui_text_width(cp) : 1;
		size_t need = keep ? n : 1;

		if (col + w > width || o + need >= outlen)
			break;
		if (keep)
			memcpy(out + o, in, n);
		else
			out[o] = cp < 0 || is_control(cp) || cp >= 0x80
				     ? '?'
				     : (char)cp;
		o += need;
		col += w;
		in += n;
	}
	out[o] = '\0';
	return col;
}
