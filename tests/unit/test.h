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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
