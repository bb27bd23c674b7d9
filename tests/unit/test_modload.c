/* test_modload.c - the experiment's module loader (util/modload.c): its
 * list's groups and failures as its log says them. No module is loaded:
 * the paths are missing files and a text file, which the kernel refuses
 * (or the process may not load modules at all). */
#include "util/modload.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

TEST(no_list)
{
	CHECK_INT(modload_run("/nonexistent/load.list", "/dev/null"), -ENOENT);
	CHECK_INT(modload_start("/nonexistent/load.list"), -ENOENT);
}

TEST(groups_and_failures)
{
	char dir[64], list[128], log[128], text[1024] = "";
	FILE *f;

	test_tmpdir(dir, sizeof(dir), "test_modload");
	snprintf(list, sizeof(list), "%s/load.list", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	write_file(log, "");
	/* group 1: two missing modules; group 2: a text file, not an ELF,
	 * ended by a mark */
	snprintf(text, sizeof(text), "%s/a.ko\n%s/b.ko\n\n%s\n#disks\n", dir,
		 dir, log);
	write_file(list, text);
	CHECK_INT(modload_run(list, log), 3);
	f = fopen(log, "r");
	CHECK(f != NULL);
	if (f) {
		size_t n = fread(text, 1, sizeof(text) - 1, f);

		text[n] = '\0';
		fclose(f);
	}
	CHECK(!strncmp(text, "bootmenu-modload: start\n", 24));
	CHECK(strstr(text, "/a.ko: No such file or directory\n") != NULL);
	CHECK(strstr(text, "group 1 done: 2 modules in ") != NULL);
	CHECK(strstr(text, "group 2 done: 1 modules in ") != NULL);
	CHECK(strstr(text, "group 3") == NULL);
	CHECK(strstr(text, "group 2 done: 1 modules in ") <
	      strstr(text, "bootmenu-modload: disks\n"));
	CHECK(strstr(text, ", 3 failed\n") != NULL);
	test_rmtree(dir);
}

TEST_MAIN("test_modload", no_list, groups_and_failures)
