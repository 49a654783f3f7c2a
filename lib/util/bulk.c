/* Large arrays in mappings populated in one call (see bulk.h). Under
 * AddressSanitizer everything is calloc'd, so its checks see every byte;
 * under ThreadSanitizer too, which does not follow mremap: a table grown in
 * place on one thread, where another's mapping was, was taken for a race
 * (two threads reading objects' symbols, 2026-12-03). */
#include "bulk.h"
#include "heap.h"
#include "sanitizer.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define PLAIN_ONLY (VP_ASAN || VP_TSAN)

static int plain_small(size_t bytes)
{
	return bytes < (vp_heap_on_huge_pages() ? VP_HUGE_PAGE : VP_BULK_MIN);
}

static int plain(size_t bytes)
{
	return PLAIN_ONLY || plain_small(bytes);
}

/* whole pages: huge ones from 2 MiB on */
static size_t mapped_bytes(size_t bytes)
{
	size_t page = bytes >= VP_HUGE_PAGE ? VP_HUGE_PAGE : 4096;

	return (bytes + page - 1) / page * page;
}

void *vp_bulk_alloc(size_t bytes)
{
	if (plain(bytes))
		return calloc(1, bytes ? bytes : 1);
	size_t len = mapped_bytes(bytes);
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (len >= VP_HUGE_PAGE)
		madvise(m, len, MADV_HUGEPAGE);
	/* Present now, in one call: a page first read maps the zero page, and
	 * the write that replaces it flushes every other CPU's TLB. Where the
	 * kernel cannot (before 5.14), pages fault in as they are touched. */
	madvise(m, len, MADV_POPULATE_WRITE);
	return m;
}

void *vp_bulk_buffer(size_t bytes)
{
	if (PLAIN_ONLY && !plain_small(bytes))
		return malloc(bytes);
	return vp_bulk_alloc(bytes);
}

void vp_bulk_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (plain(bytes))
		free(p);
	else
		munmap(p, mapped_bytes(bytes));
}

void *vp_bulk_resize(void *p, size_t old, size_t bytes)
{
	if (!p)
		return vp_bulk_alloc(bytes);
	if (plain(old) && plain(bytes)) {
		void *q = realloc(p, bytes ? bytes : 1);
		if (q && bytes > old)
			memset((char *)q + old, 0, bytes - old);
		return q;
	}
	if (!plain(old) && !plain(bytes) && mapped_bytes(old) == mapped_bytes(bytes)) {
		if (bytes < old)	/* the next growth expects zeros */
			memset((char *)p + bytes, 0, old - bytes);
		return p;
	}
	if (!plain(old) && !plain(bytes) && bytes > old) {
		/* The pages move with their mapping: nothing copied, nothing made
		 * present again but the new tail (a 122k-symbol table grown by
		 * doubling spent a fifth of its load copying and populating). */
		size_t from = mapped_bytes(old), to = mapped_bytes(bytes);
		void *q = mremap(p, from, to, MREMAP_MAYMOVE);
		if (q != MAP_FAILED) {
			if (to >= VP_HUGE_PAGE)
				madvise(q, to, MADV_HUGEPAGE);
			madvise((char *)q + from, to - from, MADV_POPULATE_WRITE);
			return q;
		}
	}
	void *q = vp_bulk_alloc(bytes);
	if (!q)
		return NULL;
	memcpy(q, p, old < bytes ? old : bytes);
	vp_bulk_free(p, old);
	return q;
}
