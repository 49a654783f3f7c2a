/* Reads done ahead on a thread (readahead.c) give what read(2) gives: the
 * same bytes, 0 at the end, the same error, and stop cleanly mid-file; the
 * line reader over them gives the same lines as over plain reads, across
 * the thread's blocks and the reader's buffer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "lib/util/lines.h"
#include "lib/util/readahead.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return vp_test_mkdtemp(dir, "readahead");
}

static int teardown(void **state)
{
	(void)state;
	return vp_test_rmtree(dir);
}

/* n bytes of a pattern no shift of itself repeats at the blocks' size. */
static char *pattern(size_t n)
{
	char *b = malloc(n);
	uint32_t x = 2463534242u;

	assert_non_null(b);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (char)x;
	}
	return b;
}

static const char *put(const char *name, const char *bytes, size_t n)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void same_bytes_then_end(void **state)
{
	(void)state;
	/* past the ring (1 MiB) and off every block's edge */
	size_t n = (3u << 20) + 17;
	char *want = pattern(n), *got = malloc(n + 1);
	int fd = open(put("bytes", want, n), O_RDONLY);
	struct vp_readahead *ra;
	size_t have = 0, step = 1;

	assert_non_null(got);
	assert_true(fd >= 0);
	assert_non_null(ra = vp_readahead_start(fd));
	while (have < n) {
		ssize_t k = vp_readahead_read(ra, got + have, step);
		assert_true(k > 0);
		have += (size_t)k;
		step = step * 3 % 200003 + 1;	/* odd sizes, some across blocks */
	}
	assert_memory_equal(got, want, n);
	assert_int_equal(vp_readahead_read(ra, got, 1), 0);
	assert_int_equal(vp_readahead_read(ra, got, 1), 0);
	vp_readahead_stop(ra);
	close(fd);

	/* an empty file, and one that ends on a block's edge */
	fd = open(put("empty", "", 0), O_RDONLY);
	assert_non_null(ra = vp_readahead_start(fd));
	assert_int_equal(vp_readahead_read(ra, got, 10), 0);
	vp_readahead_stop(ra);
	close(fd);
	fd = open(put("edge", want, 128u << 10), O_RDONLY);
	assert_non_null(ra = vp_readahead_start(fd));
	have = 0;
	for (ssize_t k; (k = vp_readahead_read(ra, got + have, n - have)) > 0;)
		have += (size_t)k;
	assert_int_equal(have, 128u << 10);
	assert_memory_equal(got, want, have);
	vp_readahead_stop(ra);
	close(fd);
	free(want);
	free(got);
}

static void the_reads_error(void **state)
{
	(void)state;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);	/* read(2) of it: EISDIR */
	struct vp_readahead *ra;
	char b[16];

	assert_true(fd >= 0);
	assert_non_null(ra = vp_readahead_start(fd));
	errno = 0;
	assert_int_equal(vp_readahead_read(ra, b, sizeof(b)), -1);
	assert_int_equal(errno, EISDIR);
	errno = 0;
	assert_int_equal(vp_readahead_read(ra, b, sizeof(b)), -1);
	assert_int_equal(errno, EISDIR);
	vp_readahead_stop(ra);
	close(fd);
}

/* A pipe's bytes come as they are written: the thread waits in read(2). */
static void from_a_pipe(void **state)
{
	(void)state;
	int p[2];
	struct vp_readahead *ra;
	char *want = pattern(40000), got[40000];
	size_t have = 0;

	assert_int_equal(pipe(p), 0);
	assert_non_null(ra = vp_readahead_start(p[0]));
	assert_int_equal(write(p[1], want, 30000), 30000);
	assert_int_equal(write(p[1], want + 30000, 10000), 10000);
	close(p[1]);
	for (ssize_t k; (k = vp_readahead_read(ra, got + have, sizeof(got) - have)) > 0;)
		have += (size_t)k;
	assert_int_equal(have, sizeof(got));
	assert_memory_equal(got, want, have);
	vp_readahead_stop(ra);
	close(p[0]);
	free(want);
}

/* Stopped with the ring full and the file not read: it returns. */
static void stops_mid_file(void **state)
{
	(void)state;
	size_t n = 8u << 20;
	char *bytes = pattern(n), b[10];
	int fd = open(put("big", bytes, n), O_RDONLY);
	struct vp_readahead *ra;

	assert_true(fd >= 0);
	assert_non_null(ra = vp_readahead_start(fd));
	assert_int_equal(vp_readahead_read(ra, b, sizeof(b)), sizeof(b));
	assert_memory_equal(b, bytes, sizeof(b));
	vp_readahead_stop(ra);
	assert_non_null(ra = vp_readahead_start(fd));	/* and before any read */
	vp_readahead_stop(ra);
	vp_readahead_stop(NULL);
	close(fd);
	free(bytes);
}

/* Lines of every length, some across the thread's 128 KiB blocks, one past
 * the line reader's buffer, the last without a newline. */
static void same_lines(void **state)
{
	(void)state;
	size_t cap = 4096, n = 0, size = 4u << 20, want_lines = 1, want_cut = 0;
	char *text = malloc(size);
	uint32_t x = 88172645u;

	assert_non_null(text);
	while (n < size - 20000) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		size_t len = x % 97 == 0 ? 5000 + x % 9000 : x % 300;	/* some past cap */
		want_lines++;
		want_cut += len > cap - 1;
		for (size_t i = 0; i < len; i++)
			text[n++] = (char)('a' + (x + i) % 26);
		text[n++] = '\n';
	}
	memcpy(text + n, "no newline", 10);
	n += 10;
	const char *path = put("lines", text, n);

	struct vp_lines a, b;
	assert_int_equal(vp_lines_open(&a, path, cap), 0);
	assert_int_equal(vp_lines_open(&b, path, cap), 0);
	vp_lines_read_ahead(&b);
	assert_non_null(b.ahead);
	size_t lines = 0, cut = 0;
	for (;;) {
		char *la, *lb;
		size_t na, nb;
		int ta, tb, ha, hb;
		int ra = vp_lines_next(&a, &la, &na, &ta, &ha);
		int rb = vp_lines_next(&b, &lb, &nb, &tb, &hb);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		assert_int_equal(na, nb);
		assert_memory_equal(la, lb, na);
		assert_int_equal(ta, tb);
		assert_int_equal(ha, hb);
		lines++;
		cut += ta;
	}
	assert_int_equal(lines, want_lines);
	assert_int_equal(cut, want_cut);
	assert_true(want_cut > 50);
	vp_lines_close(&a);
	vp_lines_close(&b);
	assert_null(b.ahead);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_bytes_then_end),
		cmocka_unit_test(the_reads_error),
		cmocka_unit_test(from_a_pipe),
		cmocka_unit_test(stops_mid_file),
		cmocka_unit_test(same_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
