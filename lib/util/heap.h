/* malloc's heap on huge pages. Each 4 KiB page a process touches first is a
 * page fault, and in a virtual machine that shadows the guest's page tables
 * each fault is an exit to the hypervisor (bulk.h has the numbers): a -g
 * report of 291 MB took 1,270 faults, most of them malloc's (the heap, and
 * the arenas glibc gives each thread). Called first thing in main. */
#ifndef VP_HEAP_H
#define VP_HEAP_H

/* From here on malloc takes its memory from one heap (every thread), grown
 * and kept VP_HEAP_PAD bytes at a time from a huge page's boundary, which
 * the kernel may back with huge pages (MADV_HUGEPAGE: where transparent
 * huge pages are "madvise" or "always"). Nothing is done where it cannot
 * or should not be: "never", a sanitizer's malloc, a heap made before the
 * call, a data or address-space limit (ulimit -d, -v) or strict overcommit
 * (the pad is address space they count); where the kernel refuses the
 * growth all the same, malloc's settings go back to glibc's. */
void vp_heap_prefer_huge_pages(void);

/* 1 when the heap was so advised: then an array under 2 MiB costs less
 * from malloc than in a mapping of its own (bulk.c). */
int vp_heap_on_huge_pages(void);

/* A transparent huge page (x86-64's PMD): what the heap's ranges and
 * bulk.c's mappings are aligned to and sized in. */
#define VP_HUGE_PAGE (2ul << 20)

/* The heap's growth step: address space, not memory; only what is touched
 * is, in whole huge pages. */
#define VP_HEAP_PAD (64ul << 20)

#endif
