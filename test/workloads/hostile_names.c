/* Code whose names try to break the pages that show them: a JIT-like program
 * (code copied into an anonymous executable mapping, named in
 * /tmp/perf-PID.map as JITs do) whose function names are markup and script,
 * a CDATA end, quotes, control characters and bytes that are not UTF-8.
 * Prints the map's path; the caller removes it.
 * Usage: hostile_names [ROUNDS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* mov %rdi,%rcx; 1: dec %rcx; jnz 1b; ret */
static const unsigned char loop[] = { 0x48, 0x89, 0xf9, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3 };

static const char *const names[] = {
	"</script><script>window.vpPwned=1</script>",
	"<img src=x onerror=\"window.vpPwned=2\">",
	"]]><script>window.vpPwned=3</script><![CDATA[",
	"\"onmouseover=\"window.vpPwned=4\" x=\"",
	"javascript:window.vpPwned=5 &amp; \x01\x7f \xff\xfe <b>bold</b>",
};
#define N (sizeof(names) / sizeof(*names))

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 3000;
	unsigned char *code = mmap(NULL, 0x1000 * N, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;

	if (code == MAP_FAILED)
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, "w")))
		return 1;
	for (size_t i = 0; i < N; i++) {
		memcpy(code + 0x1000 * i, loop, sizeof(loop));
		fprintf(f, "%lx 40 %s\n", (unsigned long)(uintptr_t)(code + 0x1000 * i), names[i]);
	}
	fclose(f);
	for (long r = 0; r < rounds; r++)
		for (size_t i = 0; i < N; i++)
			((void (*)(long))(void *)(code + 0x1000 * i))(20000);
	puts(path);
	return 0;
}
