/* The time sources vmprof record reads, read by the program itself: run
 * under `vmprof record`, it prints what the recording should say.
 * It forks a child process that runs THREADS threads; each does ROUNDS
 * rounds of SPIN_MS of CPU (on its own thread clock) then SLEEP_MS asleep.
 * Before a thread ends it reads its own /proc/thread-self/schedstat (run
 * time, run-queue wait) and how long it lived, and sends them to this
 * process, which waits for the child with wait4 and prints, in seconds:
 *   timesrc: wall W        its own start to the child reaped
 *   timesrc: user U        wait4's rusage of the child tree plus its own
 *   timesrc: system S      getrusage(RUSAGE_SELF)
 *   timesrc: steal T       /proc/stat's steal (all CPUs) over the same time
 *   timesrc: runnable R    schedstat run-queue wait summed over every thread
 *   timesrc: blocked B     lifetime - run - wait summed over every thread
 * (its own thread included in both: it blocks in wait4 the whole time).
 * Usage: timesrc THREADS ROUNDS SPIN_MS SLEEP_MS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct lived { double run, wait, life; };

static int rounds, spin_ms, sleep_ms, report_fd;

static double secs(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double steal(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			 &v[4], &v[5], &v[6], &v[7]) != 8) {
		perror("timesrc: /proc/stat");
		exit(1);
	}
	fclose(f);
	return (double)v[7] / (double)sysconf(_SC_CLK_TCK);
}

/* This thread's schedstat and lifetime, sent to the parent. */
static void report(double born)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	if (!f || fscanf(f, "%llu %llu", &run, &wait) != 2) {
		perror("timesrc: schedstat");
		exit(1);
	}
	fclose(f);
	struct lived l = { run / 1e9, wait / 1e9, secs(CLOCK_MONOTONIC) - born };
	if (write(report_fd, &l, sizeof(l)) != sizeof(l)) {
		perror("timesrc: report");
		exit(1);
	}
}

static void *work(void *arg)
{
	double born = secs(CLOCK_MONOTONIC);
	(void)arg;
	for (int r = 0; r < rounds; r++) {
		double until = secs(CLOCK_THREAD_CPUTIME_ID) + spin_ms / 1e3;
		while (secs(CLOCK_THREAD_CPUTIME_ID) < until)
			;
		struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	report(born);
	return NULL;
}

int main(int argc, char **argv)
{
	double born = secs(CLOCK_MONOTONIC), steal0 = steal();
	int p[2], threads;

	if (argc != 5 || (threads = atoi(argv[1])) < 1 || threads > 64 ||
	    (rounds = atoi(argv[2])) < 0 || (spin_ms = atoi(argv[3])) < 0 ||
	    (sleep_ms = atoi(argv[4])) < 0) {
		fprintf(stderr, "usage: timesrc THREADS ROUNDS SPIN_MS SLEEP_MS\n");
		return 2;
	}
	if (pipe(p) != 0) {
		perror("timesrc: pipe");
		return 1;
	}
	pid_t child = fork();
	if (child == 0) {
		double cborn = secs(CLOCK_MONOTONIC);
		pthread_t t[64];
		close(p[0]);
		report_fd = p[1];
		for (int i = 0; i < threads; i++)
			if (pthread_create(&t[i], NULL, work, NULL) != 0) {
				perror("timesrc: pthread_create");
				_exit(1);
			}
		for (int i = 0; i < threads; i++)
			pthread_join(t[i], NULL);
		report(cborn);
		_exit(0);
	}
	close(p[1]);
	struct lived l, sum = { 0, 0, 0 };
	while (read(p[0], &l, sizeof(l)) == sizeof(l)) {
		sum.run += l.run;
		sum.wait += l.wait;
		sum.life += l.life;
	}
	struct rusage ru, self;
	int status;
	if (wait4(child, &status, 0, &ru) != child || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "timesrc: the child failed\n");
		return 1;
	}
	double wall = secs(CLOCK_MONOTONIC) - born, steal1 = steal();
	getrusage(RUSAGE_SELF, &self);
	/* this thread last: it lived the whole time, mostly in wait4 */
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	if (!f || fscanf(f, "%llu %llu", &run, &wait) != 2) {
		perror("timesrc: schedstat");
		return 1;
	}
	fclose(f);
	sum.run += run / 1e9;
	sum.wait += wait / 1e9;
	sum.life += secs(CLOCK_MONOTONIC) - born;
#define TV(t) ((double)(t).tv_sec + (double)(t).tv_usec / 1e6)
	printf("timesrc: wall %.6f\n", wall);
	printf("timesrc: user %.6f\n", TV(ru.ru_utime) + TV(self.ru_utime));
	printf("timesrc: system %.6f\n", TV(ru.ru_stime) + TV(self.ru_stime));
	printf("timesrc: steal %.6f\n", steal1 - steal0);
	printf("timesrc: runnable %.6f\n", sum.wait);
	printf("timesrc: blocked %.6f\n", sum.life - sum.run - sum.wait);
	return 0;
}
