/* A page-fault and TLB-heavy memory walker (the seed's dTLB experiment):
 * first touches every page of a fresh buffer (one minor fault each), then
 * reads it in a page-sized random stride (a TLB miss per access). Without
 * a PMU, page-faults and minor-faults stand in for the TLB events.
 * Usage: memwalk [MB] [PASSES]  (default 256 MB, 4 passes) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096

__attribute__((noinline)) static void touch_pages(char *buf, size_t pages)
{
	for (size_t p = 0; p < pages; p++)
		buf[p * PAGE] = (char)p;	/* first write: a minor fault */
}

__attribute__((noinline)) static uint64_t random_walk(const char *buf, size_t pages, size_t steps)
{
	uint64_t x = 88172645463325252ull, sum = 0;

	for (size_t i = 0; i < steps; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum += (unsigned char)buf[(x % pages) * PAGE + (x & 63)];
	}
	return sum;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
	size_t passes = argc > 2 ? strtoul(argv[2], NULL, 10) : 4;
	size_t pages = mb * 1024 * 1024 / PAGE;
	char *buf = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t sum = 0;

	if (buf == MAP_FAILED || !pages) {
		perror("memwalk");
		return 1;
	}
	touch_pages(buf, pages);
	for (size_t p = 0; p < passes; p++)
		sum += random_walk(buf, pages, pages * 4);
	printf("memwalk: %zu pages touched, %zu random reads, checksum %llu\n", pages, passes * pages * 4,
	       (unsigned long long)sum);
	return 0;
}
