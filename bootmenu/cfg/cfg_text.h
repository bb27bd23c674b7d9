/* cfg_text.h - small text helpers shared by the line-based parsers
 * (syslinux, BLS, loader.conf, lilo, UKI .osrel).
 *
 * Nothing here allocates except through the arena passed in; strings
 * returned are owned by that arena.
 */
#ifndef BM_CFG_TEXT_H
#define BM_CFG_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

/* Walks a buffer line by line; "\n" and "\r\n" both end a line, a NUL
 * byte ends the buffer. */
struct cfg_text_lines {
	const char *p, *end;
	int line; /* 1-based number of the line last returned */
};

void cfg_text_lines_init(struct cfg_text_lines *it, const char *buf,
			 size_t len);
/* Stores the next line (without its end) in *s, *n; false at the end. */
bool cfg_text_next_line(struct cfg_text_lines *it, const char **s, size_t *n);

/* True for ' ', '\t', '\v', '\f', '\r' (never '\n': lines are split). */
bool cfg_text_is_space(char c);
/* Skip leading blanks of s[0..*n) in place; returns the new start. */
const char *cfg_text_ltrim(const char *s, size_t *n);
/* Copy of s[0..n) without leading and trailing blanks. */
char *cfg_text_trimdup(struct arena *a, const char *s, size_t n);

/* Split s[0..n) into its first word (up to a blank) and the rest, both
 * trimmed: the word in (*w, *wn), the rest in (*r, *rn). */
void cfg_text_split_word(const char *s, size_t n, const char **w, size_t *wn,
			 const char **r, size_t *rn);

/* "a b": the two joined by one space; either may be NULL or "". */
char *cfg_text_join(struct arena *a, const char *x, const char *y);

/* @path made absolute: kept when it starts with '/', else appended to
 * @dir (absolute). Repeated slashes collapse; "." components go; ".."
 * pops one component (never above the root: the fs door confines too). */
char *cfg_text_path(struct arena *a, const char *dir, const char *path);
/* The directory part of absolute @path ("/" for "/x"). */
char *cfg_text_dirname(struct arena *a, const char *path);
/* The last component of @path. */
const char *cfg_text_basename(const char *path);

/* Case-insensitive comparison of s[0..n) with the NUL-terminated @kw. */
bool cfg_text_eq_nocase(const char *s, size_t n, const char *kw);

#endif
