/* An I/O workload whose functions know what they moved: write_blocks writes
 * a file in 4 KiB blocks, write_records appends small records, read_blocks
 * reads the file back and copy_file copies it (reads and writes). Each
 * function issues its system calls itself (inline syscall), so a
 * syscalls:sys_exit_read/write sample is attributed to it without callchains,
 * and its 'ret' field summed per function must equal what it prints:
 *   appio: FUNCTION read|write BYTES bytes CALLS calls
 * (CALLS counts every call made, including a read that returned 0).
 * Usage: appio DIR [SCALE] (PAPI-V's appio idea: bytes and calls per function) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
static inline long sys3(long nr, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}
#define do_read(fd, buf, n) sys3(0, (fd), (long)(buf), (long)(n))
#define do_write(fd, buf, n) sys3(1, (fd), (long)(buf), (long)(n))
#else
#define do_read(fd, buf, n) read((fd), (buf), (n))
#define do_write(fd, buf, n) write((fd), (buf), (n))
#endif

struct count { long bytes, calls; };

static void say(const char *fn, const char *dir, struct count c)
{
	printf("appio: %s %s %ld bytes %ld calls\n", fn, dir, c.bytes, c.calls);
}

static int fail(const char *what)
{
	perror(what);
	exit(1);
}

__attribute__((noinline)) static struct count write_blocks(int fd, int n)
{
	static char buf[4096];
	struct count c = {0, 0};
	memset(buf, 'b', sizeof(buf));
	for (int i = 0; i < n; i++, c.calls++) {
		long r = do_write(fd, buf, sizeof(buf));
		if (r < 0)
			fail("appio: write_blocks");
		c.bytes += r;
	}
	return c;
}

__attribute__((noinline)) static struct count write_records(int fd, int n)
{
	char rec[64];
	struct count c = {0, 0};
	for (int i = 0; i < n; i++, c.calls++) {
		int len = snprintf(rec, sizeof(rec), "record %d of %d\n", i, n);
		long r = do_write(fd, rec, len);
		if (r < 0)
			fail("appio: write_records");
		c.bytes += r;
	}
	return c;
}

__attribute__((noinline)) static struct count read_blocks(int fd, size_t size)
{
	static char buf[8192];
	struct count c = {0, 0};
	long r;
	do {
		r = do_read(fd, buf, size);
		c.calls++;
		if (r < 0)
			fail("appio: read_blocks");
		c.bytes += r;
	} while (r > 0);
	return c;
}

__attribute__((noinline)) static void copy_file(int in, int out, struct count *rd, struct count *wr)
{
	static char buf[16384];
	long r;
	do {
		r = do_read(in, buf, sizeof(buf));
		rd->calls++;
		if (r < 0)
			fail("appio: copy_file read");
		rd->bytes += r;
		for (long off = 0; off < r;) {
			long w = do_write(out, buf + off, r - off);
			wr->calls++;
			if (w <= 0)
				fail("appio: copy_file write");
			wr->bytes += w;
			off += w;
		}
	} while (r > 0);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	int scale = argc > 2 ? atoi(argv[2]) : 200;
	char a[4096], b[4096];
	if (scale < 1 || scale > 1000000) {
		fprintf(stderr, "usage: appio DIR [SCALE (1-1000000)]\n");
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
	struct count cr = {0, 0}, cw = {0, 0};
	copy_file(fd, out, &cr, &cw);
	close(out);
	close(fd);
	unlink(a);
	unlink(b);
	/* One line per function and direction; stdout is flushed only at exit,
	 * after every counted call. */
	say("write_blocks", "write", wb);
	say("write_records", "write", wrec);
	say("read_blocks", "read", rb);
	say("copy_file", "read", cr);
	say("copy_file", "write", cw);
	return 0;
}
