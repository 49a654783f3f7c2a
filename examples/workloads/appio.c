/* An I/O workload whose functions know what they moved, as PAPI-V's appio
 * counts it: write_blocks writes a file in 4 KiB blocks, write_records
 * appends small records, read_blocks reads the file back in 1000-byte reads
 * (a short one and an EOF at the end), copy_file copies it (reads and
 * writes), bad_calls reads and writes a closed descriptor (errors),
 * read_pipe waits on a pipe that feed fills slowly (each read blocks about
 * 10 ms and comes back short), write_pipe fills a pipe that drain empties
 * slowly (each write blocks about 10 ms). Each function issues its system
 * calls itself (inline syscall), so a syscall tracepoint's sample is charged
 * to it without a callchain, and what vmprof report --io counts per function
 * must equal what it prints, one line per function and direction:
 *   appio: FUNCTION read|write BYTES bytes CALLS calls ERRORS errors SHORT short EOF eof
 *   appio-time: FUNCTION read|write NS ns   (time inside those calls, its own clock)
 * (CALLS counts every call made: errors, short and EOF ones included; short:
 * 0 < returned < asked; EOF: a read that returned 0).
 * Usage: appio DIR [SCALE [PIPE_ROUNDS]]   (defaults 200 and 10) */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "inline_syscall.h"
#include "own_clock.h"

struct count { long bytes, calls, errors, shorts, eofs; long long ns, t0; };

/* Time inside the calls, by the workload's own clock. */
static long timed_end(struct count *c, long r)
{
	c->ns += own_clock_ns() - c->t0;
	return r;
}
#define TIMED(c, call) ((c)->t0 = own_clock_ns(), timed_end((c), (call)))

#define PIPE_CHUNK 3000		/* feed's writes: read_pipe asks 4096, gets this */
#define PIPE_BLOCK 65536	/* write_pipe's writes: a whole pipe's worth */

static int rounds = 10;
static int slow_in[2], slow_out[2];

static void say(const char *fn, const char *dir, struct count c)
{
	printf("appio: %s %s %ld bytes %ld calls %ld errors %ld short %ld eof\n", fn, dir, c.bytes,
	       c.calls, c.errors, c.shorts, c.eofs);
	printf("appio-time: %s %s %lld ns\n", fn, dir, c.ns);
}

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

/* One call's result into its count; asked: the bytes asked for. */
static long tally(struct count *c, long r, long asked, int reading)
{
	c->calls++;
	if (r < 0)
		c->errors++;
	else if (r == 0 && reading)
		c->eofs++;
	else if (r < asked)
		c->shorts++;
	if (r > 0)
		c->bytes += r;
	return r;
}

static void pause_ms(long ms)
{
	struct timespec t = { 0, ms * 1000000L };
	nanosleep(&t, NULL);
}

__attribute__((noinline)) static struct count write_blocks(int fd, int n)
{
	static char buf[4096];
	struct count c = { 0 };
	memset(buf, 'b', sizeof(buf));
	for (int i = 0; i < n; i++)
		if (tally(&c, TIMED(&c, do_write(fd, buf, sizeof(buf))), sizeof(buf), 0) < 0)
			fail("appio: write_blocks");
	return c;
}

__attribute__((noinline)) static struct count write_records(int fd, int n)
{
	char rec[64];
	struct count c = { 0 };
	for (int i = 0; i < n; i++) {
		int len = snprintf(rec, sizeof(rec), "record %d of %d\n", i, n);
		if (tally(&c, TIMED(&c, do_write(fd, rec, len)), len, 0) < 0)
			fail("appio: write_records");
	}
	return c;
}

__attribute__((noinline)) static struct count read_blocks(int fd, size_t size)
{
	static char buf[8192];
	struct count c = { 0 };
	long r;
	do {
		if ((r = tally(&c, TIMED(&c, do_read(fd, buf, size)), (long)size, 1)) < 0)
			fail("appio: read_blocks");
	} while (r > 0);
	return c;
}

__attribute__((noinline)) static void copy_file(int in, int out, struct count *rd, struct count *wr)
{
	static char buf[16384];
	long r;
	do {
		if ((r = tally(rd, TIMED(rd, do_read(in, buf, sizeof(buf))), sizeof(buf), 1)) < 0)
			fail("appio: copy_file read");
		for (long off = 0; off < r;) {
			long w = tally(wr, TIMED(wr, do_write(out, buf + off, r - off)), r - off, 0);
			if (w <= 0)
				fail("appio: copy_file write");
			off += w;
		}
	} while (r > 0);
}

/* n reads and n writes of a descriptor that is not open: every one fails. */
__attribute__((noinline)) static void bad_calls(int n, struct count *rd, struct count *wr)
{
	char buf[16] = "x";
	int fd = dup(1);
	close(fd);
	for (int i = 0; i < n; i++) {
		tally(rd, TIMED(rd, do_read(fd, buf, sizeof(buf))), sizeof(buf), 1);
		tally(wr, TIMED(wr, do_write(fd, buf, 1)), 1, 0);
	}
}

/* The slow pipes' other ends: feed writes PIPE_CHUNK every 10 ms; drain
 * takes PIPE_BLOCK every 10 ms. */
static struct count feed_count, drain_count;

__attribute__((noinline)) static void *feed(void *arg)
{
	static char buf[PIPE_CHUNK];
	(void)arg;
	memset(buf, 'f', sizeof(buf));
	for (int i = 0; i < rounds; i++) {
		pause_ms(10);
		if (tally(&feed_count, TIMED(&feed_count, do_write(slow_in[1], buf, sizeof(buf))),
			  sizeof(buf), 0) < 0)
			fail("appio: feed");
	}
	return NULL;
}

__attribute__((noinline)) static void *drain(void *arg)
{
	static char buf[PIPE_BLOCK];
	(void)arg;
	for (int i = 0; i < rounds; i++) {
		pause_ms(10);
		for (long got = 0; got < PIPE_BLOCK;) {
			long r = tally(&drain_count, TIMED(&drain_count, do_read(slow_out[0], buf, PIPE_BLOCK - got)),
				       PIPE_BLOCK - got, 1);
			if (r <= 0)
				fail("appio: drain");
			got += r;
		}
	}
	return NULL;
}

__attribute__((noinline)) static struct count read_pipe(void)
{
	static char buf[4096];
	struct count c = { 0 };
	for (int i = 0; i < rounds; i++)
		if (tally(&c, TIMED(&c, do_read(slow_in[0], buf, sizeof(buf))), sizeof(buf), 1) <= 0)
			fail("appio: read_pipe");
	return c;
}

__attribute__((noinline)) static struct count write_pipe(void)
{
	static char buf[PIPE_BLOCK];
	struct count c = { 0 };
	memset(buf, 'w', sizeof(buf));
	for (int i = 0; i < rounds; i++)
		if (tally(&c, TIMED(&c, do_write(slow_out[1], buf, sizeof(buf))), sizeof(buf), 0) !=
		    PIPE_BLOCK)
			fail("appio: write_pipe");
	return c;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	int scale = argc > 2 ? atoi(argv[2]) : 200;
	char a[4096], b[4096];
	pthread_t tf, td;

	if (argc > 3)
		rounds = atoi(argv[3]);
	if (scale < 1 || scale > 1000000 || rounds < 1 || rounds > 100000) {
		fprintf(stderr, "usage: appio DIR [SCALE (1-1000000) [PIPE_ROUNDS (1-100000)]]\n");
		return 2;
	}
	snprintf(a, sizeof(a), "%s/appio-a.%d", dir, (int)getpid());
	snprintf(b, sizeof(b), "%s/appio-b.%d", dir, (int)getpid());
	int fd = open(a, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail(a);
	struct count wb = write_blocks(fd, scale);
	struct count wrec = write_records(fd, scale * 4);
	if (lseek(fd, 0, SEEK_SET) != 0)
		fail("appio: lseek");
	struct count rb = read_blocks(fd, 1000);
	if (lseek(fd, 0, SEEK_SET) != 0)
		fail("appio: lseek");
	int out = open(b, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		fail(b);
	struct count cr = { 0 }, cw = { 0 }, br = { 0 }, bw = { 0 };
	copy_file(fd, out, &cr, &cw);
	close(out);
	close(fd);
	unlink(a);
	unlink(b);
	bad_calls(scale, &br, &bw);
	/* the slow pipes: one thread at each far end */
	if (pipe(slow_in) || pipe(slow_out) || pthread_create(&tf, NULL, feed, NULL) ||
	    pthread_create(&td, NULL, drain, NULL))
		fail("appio: pipes");
	struct count rp = read_pipe();
	struct count wp = write_pipe();
	pthread_join(tf, NULL);
	pthread_join(td, NULL);
	/* One line per function and direction; stdout is flushed only at exit,
	 * after every counted call. */
	say("write_blocks", "write", wb);
	say("write_records", "write", wrec);
	say("read_blocks", "read", rb);
	say("copy_file", "read", cr);
	say("copy_file", "write", cw);
	say("bad_calls", "read", br);
	say("bad_calls", "write", bw);
	say("read_pipe", "read", rp);
	say("feed", "write", feed_count);
	say("write_pipe", "write", wp);
	say("drain", "read", drain_count);
	return 0;
}
