/* test.h - the unit tests' few macros.
 *
 * Each test file lists its tests in TEST_MAIN(...). Every test prints one
 * line, "PASS <file>.<test>", "FAIL <file>.<test>" or "SKIP <file>.<test>:
 * <why>", after the failed checks' own lines; tests/run.sh counts those
 * lines. A test that could not run all it is meant to (not root, a build
 * output missing) calls test_skip() and is counted as skipped, never as
 * passed, even when the part that did run passed.
 */
#ifndef BM_TEST_H
#define BM_TEST_H

#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int test_failures;
static int test_skips;
static char test_skip_why[256];

/* The running test (or part of it) could not run, for the reason given:
 * the test is reported as SKIP with the first reason. */
static inline __attribute__((format(printf, 1, 2))) void
test_skip(const char *fmt, ...)
{
	va_list ap;

	if (!test_skips++) {
		va_start(ap, fmt);
		vsnprintf(test_skip_why, sizeof(test_skip_why), fmt, ap);
		va_end(ap);
	}
	printf("  skip: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("  %s:%d: CHECK(%s) failed\n", __FILE__,        \
			       __LINE__, #cond);                               \
			test_failures++;                                       \
		}                                                              \
	} while (0)

#define CHECK_INT(got, want)                                                   \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (g_ != w_) {                                                \
			printf("  %s:%d: %s is %lld, want %lld\n", __FILE__,   \
			       __LINE__, #got, g_, w_);                        \
			test_failures++;                                       \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (!g_ || !w_ ? g_ != w_ : strcmp(g_, w_) != 0) {             \
			printf("  %s:%d: %s is \"%s\", want \"%s\"\n",         \
			       __FILE__, __LINE__, #got, g_ ? g_ : "(null)",   \
			       w_ ? w_ : "(null)");                            \
			test_failures++;                                       \
		}                                                              \
	} while (0)

/* The whole file @path in a malloc'd buffer (one spare byte past the
 * end), its size in *len; NULL when it cannot be read. */
static inline char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = n < 0 ? NULL : malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n < 0 ? 0 : (size_t)n;
	return buf;
}

static inline int test_rm_one(const char *p, const struct stat *st, int flag,
			      struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

/* Remove @path and everything under it (a test's scratch tree). */
static inline void test_rmtree(const char *path)
{
	nftw(path, test_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A new empty directory /tmp/<tag>.XXXXXX in buf[0..len) (the test
 * removes it with test_rmtree()); aborts when none can be made. */
static inline void test_tmpdir(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/tmp/%s.XXXXXX", tag);
	if (!mkdtemp(buf))
		abort();
}

/* @hex (well-formed, even length) into out[0..max); returns the bytes
 * written. */
static inline size_t test_unhex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = strlen(hex) / 2;

	for (size_t i = 0; i < n && i < max; i++) {
		unsigned v = 0;

		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
	return n < max ? n : max;
}

/* True when @got begins with the bytes @hex spells (at most 1024); else
 * both are printed. */
static inline int test_hex_eq(const uint8_t *got, const char *hex)
{
	uint8_t want[1024];
	size_t n = test_unhex(hex, want, sizeof(want));

	if (memcmp(got, want, n) == 0)
		return 1;
	printf("  got  ");
	for (size_t i = 0; i < n; i++)
		printf("%02x", got[i]);
	printf("\n  want %s\n", hex);
	return 0;
}

#define TEST(name) static void name(void)

typedef void (*test_fn)(void);

static inline int test_run_all(const char *file, const test_fn *fns,
			       const char *const *names, size_t n)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		int before = test_failures;

		test_skips = 0;
		fns[i]();
		fflush(stdout);
		if (test_failures != before) {
			printf("FAIL %s.%s\n", file, names[i]);
			failed++;
		} else if (test_skips) {
			printf("SKIP %s.%s: %s\n", file, names[i],
			       test_skip_why);
		} else {
			printf("PASS %s.%s\n", file, names[i]);
		}
	}
	return failed ? 1 : 0;
}

#define TEST_MAIN(file, ...)                                                   \
	int main(void)                                                         \
	{                                                                      \
		static const test_fn fns[] = {__VA_ARGS__};                    \
		static const char names_[] = #__VA_ARGS__;                     \
		static char buf[sizeof(names_)];                               \
		const char *names[sizeof(fns) / sizeof(fns[0])];               \
		size_t k = 0;                                                  \
		char *p = buf;                                                 \
		memcpy(buf, names_, sizeof(names_));                           \
		for (char *t = strtok(p, ", \t\n");                            \
		     t && k < sizeof(fns) / sizeof(fns[0]);                    \
		     t = strtok(NULL, ", \t\n"))                               \
			names[k++] = t;                                        \
		setvbuf(stdout, NULL, _IOLBF, 0);                              \
		return test_run_all(file, fns, names, k);                      \
	}

#endif
