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
#include <sys/resource.h>
#include <unistd.h>

static int on_huge;

int vp_heap_on_huge_pages(void)
{
	return on_huge;
}

/* The first bytes of a small file of the kernel's, NUL-ended; "" if none. */
static void read_setting(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : read(fd, buf, n - 1);

	if (fd >= 0)
		close(fd);
	buf[got > 0 ? got : 0] = '\0';
}

/* 1 when the heap may grow by the pad: the pad is address space that
 * counts against a data or address-space limit (a report under a 60 MB
 * RLIMIT_DATA ran out), and against the commit limit of strict overcommit;
 * and 1 unless the kernel gives no transparent huge pages. */
static int may_grow(void)
{
	struct rlimit data, as;
	char buf[128];

	if (getrlimit(RLIMIT_DATA, &data) || getrlimit(RLIMIT_AS, &as) ||
	    data.rlim_cur != RLIM_INFINITY || as.rlim_cur != RLIM_INFINITY)
		return 0;
	read_setting("/proc/sys/vm/overcommit_memory", buf, sizeof(buf));
	if (buf[0] == '2')
		return 0;
	read_setting("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	return buf[0] && !strstr(buf, "[never]");
}

void vp_heap_prefer_huge_pages(void)
{
	/* (arena: glibc made its heap before the call; its pages are what they are) */
	if (VP_ASAN || VP_TSAN || mallinfo2().arena || !may_grow())
		return;
	void *brk0 = sbrk(0);
	if (brk0 == (void *)-1)
		return;
	/* A 2 MiB range holds huge pages only if none of it was touched before
	 * the advice. glibc writes where the heap it grows begins (the heap's
	 * and the first chunk's headers, 80 bytes): that begins a page below a
	 * boundary, and the ranges from the boundary on stay untouched. */
	uintptr_t cur = (uintptr_t)brk0, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t bound = (cur + page + VP_HUGE_PAGE - 1) & ~(VP_HUGE_PAGE - 1);
	uintptr_t at = bound - page;
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
	uintptr_t end = (uintptr_t)sbrk(0) & ~(VP_HUGE_PAGE - 1);
	if (p && (uintptr_t)p < bound && end > bound)
		on_huge = madvise((void *)bound, end - bound, MADV_HUGEPAGE) == 0;
	free(p);
	if (!on_huge) {	/* refused: glibc's own settings (mallopt(3)'s defaults) */
		mallopt(M_ARENA_MAX, 0);
		mallopt(M_MMAP_THRESHOLD, 128 << 10);
		mallopt(M_TOP_PAD, 128 << 10);
		mallopt(M_TRIM_THRESHOLD, 128 << 10);
	}
}
