/* malloc's heap on huge pages (see heap.h). glibc grows the heap with brk;
 * the kernel keeps MADV_HUGEPAGE on the part of the heap it was given for,
 * so the heap is first grown by a whole VP_HEAP_PAD next to a huge page's
 * boundary and the part from the boundary on advised. Under a sanitizer
 * malloc is not glibc's: nothing is done. */
#include "heap.h"
#include "sanitizer.h"

#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE (2ul << 20)

static int on_huge;

int vp_heap_on_huge_pages(void)
{
	return on_huge;
}

/* 1 unless the kernel gives no transparent huge pages ("never", or none). */
static int thp_possible(void)
{
	char buf[128];
	int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return !strstr(buf, "[never]");
}

void vp_heap_prefer_huge_pages(void)
{
	/* glibc made a heap before main: its pages are what they are */
	if (VP_ASAN || VP_TSAN || mallinfo2().arena || !thp_possible())
		return;
	void *brk0 = sbrk(0);
	if (brk0 == (void *)-1)
		return;
	/* A 2 MiB range holds huge pages only if none of it was touched before
	 * the advice. glibc writes where the heap it grows begins (the heap's
	 * and the first chunk's headers, 80 bytes): that begins a page below a
	 * boundary, and the ranges from the boundary on stay untouched. */
	uintptr_t cur = (uintptr_t)brk0, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t bound = (cur + page + HUGE - 1) & ~(HUGE - 1), at = bound - page;
	/* glibc takes a break moved under it as another user's and goes on from it */
	if (at > cur && sbrk((intptr_t)(at - cur)) == (void *)-1)
		return;
	/* One arena: a thread's own arena is a mapping glibc grows a few pages
	 * at a time, which no advice reaches (a -g report's workers took 400
	 * faults in theirs). What the workers allocate is made once per object
	 * or per piece, never per sample, so they do not queue on its lock. */
	mallopt(M_ARENA_MAX, 1);
	/* Up to 32 MiB from the heap (glibc's own most), not a mapping of small
	 * pages each; grown by the pad, and given back only past twice it. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TOP_PAD, VP_HEAP_PAD);
	mallopt(M_TRIM_THRESHOLD, 2 * VP_HEAP_PAD);
	/* the first allocation grows the heap from at by the pad */
	void *p = malloc(64);
	uintptr_t end = (uintptr_t)sbrk(0) & ~(HUGE - 1);
	if (p && (uintptr_t)p < bound && end > bound)
		on_huge = madvise((void *)bound, end - bound, MADV_HUGEPAGE) == 0;
	free(p);
}
