/* Atomic output: the final name holds either the old file or the complete new
 * one, never a partial write; failures name the file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "lib/util/outfile.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return vp_test_mkdtemp(dir, "outfile");
}

static int teardown(void **state)
{
	(void)state;
	return vp_test_rmtree(dir) == 0 ? 0 : -1;
}

static size_t count_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

static void commit_replaces_the_file_and_leaves_no_temporary(void **state)
{
	struct vp_outfile o;
	struct vp_error err = { 0 };
	char path[128], buf[64];
	(void)state;
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	FILE *f = fopen(path, "w");
	fputs("old", f);
	fclose(f);

	assert_int_equal(vp_outfile_open(&o, path, &err), 0);
	fputs("new contents", o.fp);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "old");	/* untouched until commit */
	assert_int_equal(vp_outfile_commit(&o, &err), 0);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "new contents");
	assert_int_equal(count_entries(), 1);
}

static void abort_keeps_the_old_file(void **state)
{
	struct vp_outfile o;
	struct vp_error err = { 0 };
	char path[128], buf[64];
	(void)state;
	snprintf(path, sizeof(path), "%s/keep.txt", dir);
	FILE *f = fopen(path, "w");
	fputs("keep", f);
	fclose(f);

	assert_int_equal(vp_outfile_open(&o, path, &err), 0);
	fputs("half", o.fp);
	vp_outfile_abort(&o);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "keep");
	assert_int_equal(count_entries(), 1);
}

static void full_disk_fails_naming_the_file(void **state)
{
	struct vp_outfile o;
	struct vp_error err = { 0 };
	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	/* /dev/full is not a directory we can make temporaries in, so write through a
	 * stream that fails the way a full disk does: swap the stream for /dev/full. */
	char path[128];
	snprintf(path, sizeof(path), "%s/full.txt", dir);
	assert_int_equal(vp_outfile_open(&o, path, &err), 0);
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	fclose(o.fp);
	o.fp = full;
	for (int i = 0; i < 10000; i++)
		fputs("0123456789", o.fp);
	assert_true(vp_outfile_commit(&o, &err) < 0);
	assert_non_null(strstr(err.msg, "full.txt"));
	assert_non_null(strstr(err.msg, "No space"));
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(count_entries(), 0);
}

static void missing_directory_is_an_error(void **state)
{
	struct vp_outfile o;
	struct vp_error err = { 0 };
	char path[128];
	(void)state;
	snprintf(path, sizeof(path), "%s/no/such/out.txt", dir);
	assert_true(vp_outfile_open(&o, path, &err) < 0);
	assert_non_null(strstr(err.msg, "no/such/out.txt"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(commit_replaces_the_file_and_leaves_no_temporary, setup, teardown),
		cmocka_unit_test_setup_teardown(abort_keeps_the_old_file, setup, teardown),
		cmocka_unit_test_setup_teardown(full_disk_fails_naming_the_file, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_directory_is_an_error, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
