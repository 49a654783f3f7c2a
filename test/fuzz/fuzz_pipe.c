/* The pipe-mode reader on a real pipe (perf record -o - | vmprof report -i -):
 * nothing can be seeked, and records arrive in pieces of whatever size
 * read() returns, so every record can straddle a read. The whole report
 * pipeline runs behind it. */
#include "fuzz.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/profile/report.h"

struct writer {
	int fd;
	const uint8_t *data;
	size_t size;
};

/* Odd-sized writes: the reader sees records cut at every kind of place. */
static void *write_all(void *arg)
{
	struct writer *w = arg;
	size_t off = 0;

	while (off < w->size) {
		size_t n = w->size - off < 4093 ? w->size - off : 4093;
		ssize_t r = write(w->fd, w->data + off, n);
		if (r <= 0)
			break;	/* the reader stopped early (EPIPE): fine */
		off += (size_t)r;
	}
	close(w->fd);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_load_opts lo;
	struct vp_profile *p = NULL;
	struct vp_error err = { 0 };
	struct writer w = { -1, data, size };
	pthread_t t;
	int fds[2], saved;

	vp_fuzz_quiet();
	signal(SIGPIPE, SIG_IGN);
	if (pipe2(fds, O_CLOEXEC) < 0 || (saved = dup(STDIN_FILENO)) < 0)
		abort();
	w.fd = fds[1];
	if (dup2(fds[0], STDIN_FILENO) < 0)
		abort();
	close(fds[0]);
	if (pthread_create(&t, NULL, write_all, &w) != 0)
		abort();

	vp_load_opts_init(&lo);
	lo.threads = 2;	/* the threaded walk whatever the machine (not every CPU given) */
	lo.symfs = VP_SRCDIR "/test/fixtures/symfs";
	lo.kallsyms = VP_SRCDIR "/test/fuzz/corpus/kallsyms/kallsyms";
	if (vp_profile_from_perfdata("-", &lo, &p, &err) == 0)
		vp_profile_free(p);
	else if (!err.msg[0] || !strstr(err.msg, "'-'"))
		abort();	/* a failure must name the input */

	/* the reader may stop early: unblock the writer, then put stdin back */
	dup2(saved, STDIN_FILENO);
	close(saved);
	pthread_join(t, NULL);
	return 0;
}
