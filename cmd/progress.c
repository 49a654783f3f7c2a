/* The progress line (see progress.h). */
#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "lib/util/progress.h"

#define MIN_BYTES	(100ll << 20)	/* smaller inputs are read before a line would help */
#define TICK_NS		100000000L

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_t ticker;
static int quiet, running, stopping, drawn, shown;
static const char *name;
static struct timespec t0;

void vp_cmd_progress_quiet(void)
{
	quiet = 1;
}

static double since_start(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
}

/* The line as the counters are now, or 0 when there is none to draw. */
static int format(char *buf, size_t n)
{
	struct vp_progress p;
	double secs = since_start();

	vp_progress_get(&p);
	if (p.recording)
		return snprintf(buf, n, "vmprof %s: %.1f s, %llu samples, %llu lost", name, secs,
				(unsigned long long)p.samples, (unsigned long long)p.lost);
	if (p.bytes < MIN_BYTES || p.work <= 0)
		return 0;
	double frac = (double)p.done / (double)p.work;
	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	double mb = (double)p.bytes / (1 << 20), rate = secs > 0 ? frac * mb / secs : 0;
	int len = snprintf(buf, n, "vmprof %s: %3.0f%% of %.0f MB, %.0f MB/s", name, 100 * frac, mb,
			   rate);
	if (frac > 0.02 && frac < 1 && len > 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, ", %.1f s left",
				secs * (1 - frac) / frac);
	return len;
}

/* with mu held */
static void draw(void)
{
	char line[200];

	if (format(line, sizeof(line)) <= 0)
		return;
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	drawn = shown = 1;
}

static void erase(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = 0;
}

static void *tick(void *arg)
{
	struct timespec at;

	(void)arg;
	pthread_mutex_lock(&mu);
	clock_gettime(CLOCK_REALTIME, &at);
	while (!stopping) {
		at.tv_nsec += TICK_NS;
		if (at.tv_nsec >= 1000000000L) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&cv, &mu, &at);
		if (!stopping)
			draw();
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

void vp_cmd_progress_start(const char *cmd)
{
	if (quiet || running || !isatty(STDERR_FILENO))
		return;
	name = cmd;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	stopping = drawn = shown = 0;
	running = pthread_create(&ticker, NULL, tick, NULL) == 0;
}

void vp_cmd_progress_stop(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&mu);
	stopping = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(ticker, NULL);
	running = 0;
	pthread_mutex_lock(&mu);
	if (!drawn)	/* work too quick for a tick still shows once */
		draw();
	erase();
	pthread_mutex_unlock(&mu);
}

void vp_cmd_progress_clear(void)
{
	pthread_mutex_lock(&mu);
	erase();
	pthread_mutex_unlock(&mu);
}
