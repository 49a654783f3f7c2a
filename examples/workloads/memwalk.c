/* Page-fault and TLB-heavy memory walker (the dTLB experiment): each round
 * maps a fresh region, touches every page once (one minor fault per page,
 * huge pages refused) and then reads one word per page in a scattered order
 * so nearly every access needs a new TLB entry. Without a hardware PMU the
 * software events page-faults/minor-faults and cpu-clock stand in for the
 * dTLB counters. Usage: memwalk [MiB] [ROUNDS]   Prints the pages touched. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) static long touch_pages(char *p, size_t pages, size_t pagesz)
{
	for (size_t i = 0; i < pages; i++)
		p[i * pagesz] = (char)i;
	return (long)pages;
}

/* Page order i*stride mod pages, stride odd and large: a permutation that
 * jumps far on every step (pages is a power of two). */
__attribute__((noinline)) static uint64_t walk_pages(const char *p, size_t pages, size_t pagesz, int passes)
{
	uint64_t sum = 0;
	size_t stride = 4099;
	for (int k = 0; k < passes; k++)
		for (size_t i = 0; i < pages; i++)
			sum += (unsigned char)p[((i * stride) & (pages - 1)) * pagesz + (size_t)k % 64];
	return sum;
}

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 64;
	int rounds = argc > 2 ? atoi(argv[2]) : 4;
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE);
	if (mib < 1 || mib > 4096 || rounds < 1) {
		fprintf(stderr, "usage: memwalk [MiB (1-4096)] [ROUNDS]\n");
		return 2;
	}
	size_t pages = (size_t)mib * 1024 * 1024 / pagesz;
	while (pages & (pages - 1))	/* round down to a power of two */
		pages &= pages - 1;
	long touched = 0;
	uint64_t sum = 0;
	for (int r = 0; r < rounds; r++) {
		char *p = mmap(NULL, pages * pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("memwalk: mmap");
			return 1;
		}
		madvise(p, pages * pagesz, MADV_NOHUGEPAGE);
		touched += touch_pages(p, pages, pagesz);
		sum += walk_pages(p, pages, pagesz, 4);
		munmap(p, pages * pagesz);
	}
	printf("memwalk: touch_pages touched %ld pages of %zu bytes in %d rounds (sum %llu)\n",
	       touched, pagesz, rounds, (unsigned long long)sum);
	return 0;
}
