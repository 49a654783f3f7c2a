/* Runs a fuzz target on files without libFuzzer (make check replays the
 * corpora and every regression input through the ASan build this way).
 * With --truncate FILE: the file cut at every byte offset; with --flip FILE N:
 * each of its first N bytes inverted in turn; each case must end (an alarm
 * catches a hang) without a crash. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0, got;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 131072;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		got = fread(buf + len, 1, 65536, f);
		len += got;
	} while (got);
	fclose(f);
	*n = len;
	return buf;
}

static void hung(int sig)
{
	(void)sig;
	static const char msg[] = "replay: a case took more than 20 s (hang?)\n";
	ssize_t w = write(2, msg, sizeof(msg) - 1);
	(void)w;
	_exit(3);
}

int main(int argc, char **argv)
{
	size_t n;
	unsigned char *buf;

	signal(SIGALRM, hung);
	if (argc >= 3 && !strcmp(argv[1], "--truncate")) {
		buf = slurp(argv[2], &n);
		for (size_t cut = 0; cut <= n; cut++) {
			alarm(20);
			LLVMFuzzerTestOneInput(buf, cut);
		}
		printf("replay: %zu truncations of %s\n", n + 1, argv[2]);
		free(buf);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "--flip")) {
		size_t upto = strtoul(argv[3], NULL, 10);
		buf = slurp(argv[2], &n);
		if (upto > n)
			upto = n;
		for (size_t i = 0; i < upto; i++) {
			buf[i] ^= 0xff;
			alarm(20);
			LLVMFuzzerTestOneInput(buf, n);
			buf[i] ^= 0xff;
		}
		printf("replay: %zu byte flips of %s\n", upto, argv[2]);
		free(buf);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		buf = slurp(argv[i], &n);
		alarm(20);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("replay: %d inputs\n", argc - 1);
	return 0;
}
