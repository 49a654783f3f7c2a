/* Memory for large arrays, its pages made present in one call. In a virtual
 * machine that shadows the guest's page tables, the first touch of each
 * 4 KiB page is an exit to the hypervisor: 12 us a page on the 2-CPU
 * machine of `make bench` (2026-12-02), 6.6 us when populated in one
 * madvise, 0.37 us on a populated huge page. A kernel symbol table of 122k
 * lines touched 3,000 pages: 36 ms of a report's CPU. */
#ifndef VP_BULK_H
#define VP_BULK_H

#include <stddef.h>

/* bytes of zeroed memory; NULL when out of memory. Under VP_BULK_MIN, or
 * under 2 MiB when malloc's heap is on huge pages (heap.h), it is plain
 * calloc; from 2 MiB on, whole huge pages where the system gives them.
 * Free with vp_bulk_free and the same size. */
void *vp_bulk_alloc(size_t bytes);

/* The same for a buffer whose bytes are written before they are read: not
 * zeroed under ASan (calloc cleared a 2 MiB read buffer per worker and
 * load, most of a fuzz replay's time), otherwise as vp_bulk_alloc. */
void *vp_bulk_buffer(size_t bytes);

/* p (old bytes) made new bytes long, its content kept up to the shorter;
 * what is added is zeroed. NULL when out of memory, p then untouched. */
void *vp_bulk_resize(void *p, size_t old, size_t bytes);

void vp_bulk_free(void *p, size_t bytes);

/* Below this, malloc's pages (mostly reused ones) are cheaper than a
 * mapping of their own; on a heap of huge pages, below 2 MiB (a -g report
 * of 291 MB populated 7.7 MB of small pages in 39 mappings from 64 KiB to
 * 1 MiB: 157 -> 136 ms on 2 CPUs once they came from the heap, with the
 * heap itself). */
#define VP_BULK_MIN (64u << 10)

#endif
