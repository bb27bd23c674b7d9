/* grub_test.c - `test EXPR` and `[ EXPR ]` (grub-core/commands/test.c):
 * string = == != < >, integer -eq -ne -lt -le -gt -ge, -z -n, files
 * -e -f -d -s (a "(dev)/path" or a path on $root), ! ( ) -a -o. */
#include "cfg/grub_test.h"
#include "cfg/grub_path.h"
#include "scan/fs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct grub_texpr {
	struct grub_state *st;
	const char *const *v;
	size_t n, i;
	int depth;
};

/* Deepest nesting of ! and ( the evaluator follows. */
#define GRUB_TEST_DEPTH 64

static bool grub_test_or(struct grub_texpr *t);

static const char *grub_test_peek(struct grub_texpr *t, size_t k)
{
	return t->i + k < t->n ? t->v[t->i + k] : NULL;
}

static bool grub_test_file(struct grub_texpr *t, char op, const char *arg)
{
	struct grub_where w;
	struct stat sb;

	grub_where(t->st, arg, &w);
	if (!w.fs || fs_stat(w.fs, w.path, &sb) < 0)
		return false;
	switch (op) {
	case 'f':
		return S_ISREG(sb.st_mode);
	case 'd':
		return S_ISDIR(sb.st_mode);
	case 's':
		return S_ISREG(sb.st_mode) && sb.st_size > 0;
	default:
		return true;
	}
}

static bool grub_test_binary(const char *a, const char *op, const char *b,
			     bool *val)
{
	static const char *const nums[] = {"-eq", "-ne", "-lt",
					   "-le", "-gt", "-ge"};
	long x, y;
	int c;

	if (!strcmp(op, "=") || !strcmp(op, "=="))
		return *val = !strcmp(a, b), true;
	if (!strcmp(op, "!="))
		return *val = strcmp(a, b) != 0, true;
	if (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") ||
	    !strcmp(op, ">=")) {
		c = strcmp(a, b);
		*val = op[0] == '<' ? (op[1] ? c <= 0 : c < 0)
				    : (op[1] ? c >= 0 : c > 0);
		return true;
	}
	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
		if (strcmp(op, nums[k]))
			continue;
		x = strtol(a, NULL, 0);
		y = strtol(b, NULL, 0);
		bool r[] = {x == y, x != y, x<y, x <= y, x> y, x >= y};
		*val = r[k];
		return true;
	}
	return false;
}

static bool grub_test_primary(struct grub_texpr *t)
{
	const char *a = grub_test_peek(t, 0), *op = grub_test_peek(t, 1),
		   *b = grub_test_peek(t, 2);
	bool val;

	if (!a)
		return false;
	if (op && b && grub_test_binary(a, op, b, &val)) {
		t->i += 3;
		return val;
	}
	if (op && a[0] == '-' && a[1] && !a[2] && strchr("znefds", a[1])) {
		t->i += 2;
		if (a[1] == 'z' || a[1] == 'n')
			return (*op == '\0') == (a[1] == 'z');
		return grub_test_file(t, a[1], op);
	}
	t->i++;
	return *a != '\0';
}

static bool grub_test_not(struct grub_texpr *t)
{
	const char *a = grub_test_peek(t, 0);
	bool v;

	if (!grub_step(t->st) || t->depth >= GRUB_TEST_DEPTH) {
		t->i = t->n;
		return false;
	}
	t->depth++;
	if (a && !strcmp(a, "!") && grub_test_peek(t, 1)) {
		t->i++;
		v = !grub_test_not(t);
	} else if (a && !strcmp(a, "(") && grub_test_peek(t, 1)) {
		t->i++;
		v = grub_test_or(t);
		if (grub_test_peek(t, 0) && !strcmp(grub_test_peek(t, 0), ")"))
			t->i++;
	} else {
		v = grub_test_primary(t);
	}
	t->depth--;
	return v;
}

static bool grub_test_and(struct grub_texpr *t)
{
	bool v = grub_test_not(t);

	while (grub_test_peek(t, 0) && !strcmp(grub_test_peek(t, 0), "-a")) {
		t->i++;
		v = grub_test_not(t) && v;
	}
	return v;
}

static bool grub_test_or(struct grub_texpr *t)
{
	bool v = grub_test_and(t);

	while (grub_test_peek(t, 0) && !strcmp(grub_test_peek(t, 0), "-o")) {
		t->i++;
		v = grub_test_and(t) || v;
	}
	return v;
}

int grub_test(struct grub_state *st, const char *const *argv, size_t argc)
{
	struct grub_texpr t = {.st = st, .v = argv, .n = argc};
	bool v = grub_test_or(&t);

	while (t.i < t.n && !st->stop) /* junk after the expression */
		v = grub_test_or(&t) && v;
	return v ? 0 : 1;
}
