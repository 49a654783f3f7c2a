/* Fixtures shared by the unit tests (see fixtures.c). */
#ifndef VP_TEST_FIXTURES_H
#define VP_TEST_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

/* The fixture directory, built on first call. Skips the calling cmocka test
 * when a tool the build needs is missing (build.sh exits 77), fails it when
 * the build breaks. */
const char *vp_test_elf_fixtures(void);
/* DIR/name in a static buffer (overwritten by the next call). */
char *vp_test_fixture(const char *name);

/* A fresh directory /tmp/vp-TAG-XXXXXX into dir (64 bytes); 0 or -1. */
int vp_test_mkdtemp(char *dir, const char *tag);
/* Remove it and what it holds; 0 on success. */
int vp_test_rmtree(const char *dir);

/* Write text to path (a test's small kallsyms or map file); fails the test
 * when it cannot. */
void vp_test_write_file(const char *path, const char *text);

struct vp_stack_tree;
/* Add samples (and period) of "comm;outer;...;leaf" to column col of t, the
 * names interned in its pool; fails the test when the tree refuses. */
void vp_test_stack_add(struct vp_stack_tree *t, size_t col, const char *spec, uint64_t samples,
		       uint64_t period);

struct vp_pdw;
struct perf_event_attr;
/* cpu-clock, period 1000, samples with IP, TID, TIME, CPU, PERIOD, and
 * sample_id_all: the attr the tests' files use. */
void vp_test_cpu_clock_attr(struct perf_event_attr *a);
/* A PERF_RECORD_SAMPLE of that attr into buf (48 bytes); its size. */
size_t vp_test_sample(void *buf, uint16_t misc, uint64_t ip, uint64_t time, uint32_t pid,
		      uint32_t cpu, uint64_t period);
/* The same with PERF_SAMPLE_CALLCHAIN added to the attr: nr, then chain[nr]
 * (leaf first, context markers included), into a buf of
 * VP_TEST_SAMPLE_CHAIN_SIZE(nr) bytes. */
#define VP_TEST_SAMPLE_CHAIN_SIZE(nr) (48 + 8 + 8 * (size_t)(nr))
size_t vp_test_sample_chain(void *buf, uint16_t misc, uint64_t ip, uint64_t time, uint32_t pid,
			    uint32_t cpu, uint64_t period, const uint64_t *chain, uint64_t nr);
/* One such sample (CPU 0, period 1000) for pid, written. */
void vp_test_put_sample(struct vp_pdw *w, uint16_t misc, uint64_t ip, uint64_t time,
			uint32_t pid);

#endif
