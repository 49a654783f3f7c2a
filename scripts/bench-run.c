/* make bench's stopwatch: run one command, optionally on a set of CPUs,
 * and write its wall time (s) and peak RSS (KiB) to a file. It replaces
 * `/usr/bin/time -f %M taskset -c CPUS`, whose two program starts (2.5 ms a
 * run here, measured around `true`) fell inside every figure: a fixed part
 * on both sides of each ratio that belongs to neither command. The clock
 * runs from just before fork to the child's end (wait4, which also gives
 * its peak RSS); the child's standard output goes to /dev/null.
 * Usage: bench-run -o FILE [-c CPUS] -- COMMAND [ARG...]   (CPUS as taskset's:
 * 0, 0-3, 0,2-3). Exit status: the command's, or 128 + its signal. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "bench-run: %s: %s\n", what, strerror(errno));
	exit(125);
}

/* "0,2-3" into set; -1 when malformed */
static int parse_cpus(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s || lo < 0 || lo >= CPU_SETSIZE)
			return -1;
		if (*end == '-') {
			s = end + 1;
			hi = strtol(s, &end, 10);
			if (end == s || hi < lo || hi >= CPU_SETSIZE)
				return -1;
		}
		for (long c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (*end && *end != ',')
			return -1;
		s = *end ? end + 1 : end;
	}
	return CPU_COUNT(set) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *cpus = NULL;
	struct timespec t0, t1;
	struct rusage ru;
	cpu_set_t set;
	int opt, status;
	pid_t pid;
	FILE *f;

	while ((opt = getopt(argc, argv, "+o:c:")) != -1) {
		if (opt == 'o')
			out = optarg;
		else if (opt == 'c')
			cpus = optarg;
		else
			return 125;
	}
	if (!out || optind >= argc) {
		fprintf(stderr, "usage: bench-run -o FILE [-c CPUS] -- COMMAND [ARG...]\n");
		return 125;
	}
	if (cpus && parse_cpus(cpus, &set) < 0) {
		fprintf(stderr, "bench-run: bad CPU list '%s'\n", cpus);
		return 125;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			die("/dev/null");
		if (cpus && sched_setaffinity(0, sizeof(set), &set) < 0)
			die("sched_setaffinity");
		execvp(argv[optind], argv + optind);
		die(argv[optind]);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		die("wait4");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!(f = fopen(out, "w")))
		die(out);
	fprintf(f, "%.4f %ld\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
		ru.ru_maxrss);
	if (fclose(f) != 0)
		die(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
