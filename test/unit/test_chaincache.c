/* The loader's chain cache (chaincache.c) answers only for the very chain
 * it was given: the same table, process, command, sampled address, mode
 * and frames, while every space the frames and the address resolved in
 * keeps its maps, with the node, the row and the inclusive counts' rows it
 * was given; and a stack whose frames it could not vouch for is not kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixtures.h"
#include "lib/perfdata/perf_format.h"
#include "lib/perfdata/write.h"
#include "lib/profile/chaincache.h"
#include "lib/profile/report.h"
#include "lib/profile/stacktree.h"

static uint64_t chain[3] = { 0x401000, 0x402000, 0x403000 };

static struct vp_sample sample(uint32_t pid, uint64_t ip, uint64_t nr)
{
	struct vp_sample s;

	memset(&s, 0, sizeof(s));
	s.pid = s.tid = pid;
	s.ip = ip;
	s.misc = PERF_RECORD_MISC_USER;
	s.callchain = chain;
	s.nr_callchain = nr;
	return s;
}

/* The node a chain ended at, or -1; its row into *row. */
static int64_t get(struct vp_chain_cache *c, const void *table, const struct vp_sample *s,
		   const char *comm, uint32_t *row)
{
	struct vp_chain_hit hit;

	if (!vp_chain_cache_get(c, table, s, comm, &hit))
		return -1;
	*row = hit.row;
	return hit.leaf;
}

static void put(struct vp_chain_cache *c, const void *table, const struct vp_sample *s,
		const char *comm, uint32_t leaf, uint32_t row, const struct vp_stack_gens *g)
{
	const struct vp_chain_hit did = { leaf, row, NULL, 0 };

	vp_chain_cache_put(c, table, s, comm, &did, g);
}

static void answers_for_its_chain_only(void **state)
{
	(void)state;
	struct vp_chain_cache *c = vp_chain_cache_new();
	int tree, other_tree;
	uint32_t maps = 7, kernel = 3;
	struct vp_stack_gens g = { { &maps, &kernel }, { 7, 3 }, 2, 1 };
	struct vp_sample s = sample(42, 0x401000, 3), t;
	const char *comm = "prog", *other_comm = "prog2";
	uint32_t row;

	assert_non_null(c);
	assert_int_equal(get(c, &tree, &s, comm, &row), -1);
	put(c, &tree, &s, comm, 17, 1017, &g);
	assert_int_equal(get(c, &tree, &s, comm, &row), 17);
	assert_int_equal(row, 1017);	/* and the row it went in */

	assert_int_equal(get(c, &other_tree, &s, comm, &row), -1);
	assert_int_equal(get(c, &tree, &s, other_comm, &row), -1);
	t = sample(43, 0x401000, 3);
	assert_int_equal(get(c, &tree, &t, comm, &row), -1);
	t = sample(42, 0x401004, 3);
	assert_int_equal(get(c, &tree, &t, comm, &row), -1);
	t = sample(42, 0x401000, 2);
	assert_int_equal(get(c, &tree, &t, comm, &row), -1);
	t = sample(42, 0x401000, 3);
	t.misc = PERF_RECORD_MISC_KERNEL;
	assert_int_equal(get(c, &tree, &t, comm, &row), -1);
	uint64_t moved[3] = { 0x401000, 0x402000, 0x403008 };
	t = sample(42, 0x401000, 3);
	t.callchain = moved;
	assert_int_equal(get(c, &tree, &t, comm, &row), -1);

	/* a map change in any space the frames resolved in: no answer */
	maps = 8;
	assert_int_equal(get(c, &tree, &s, comm, &row), -1);
	maps = 7;
	assert_int_equal(get(c, &tree, &s, comm, &row), 17);
	kernel = 4;
	assert_int_equal(get(c, &tree, &s, comm, &row), -1);

	/* put again: the new answer, with the gens now */
	g.gen[1] = 4;
	put(c, &tree, &s, comm, 21, 1021, &g);
	assert_int_equal(get(c, &tree, &s, comm, &row), 21);
	assert_int_equal(row, 1021);

	/* frames it could not vouch for: not kept, and the old answer is gone */
	g.kept = 0;
	put(c, &tree, &s, comm, 23, 1023, &g);
	assert_int_equal(get(c, &tree, &s, comm, &row), -1);

	/* no callchain at all: the sampled address alone is the key */
	t = sample(42, 0x401000, 0);
	t.callchain = NULL;
	g.kept = 1;
	put(c, &tree, &t, comm, 5, 1005, &g);
	assert_int_equal(get(c, &tree, &t, comm, &row), 5);
	assert_int_equal(get(c, &tree, &s, comm, &row), -1);
	vp_chain_cache_free(c);
	vp_chain_cache_free(NULL);
}

/* The rows a chain's inclusive counts went to come back as they were
 * put, and a later put of the chain replaces them. */
static void keeps_the_inclusive_rows(void **state)
{
	(void)state;
	struct vp_chain_cache *c = vp_chain_cache_new();
	int table;
	uint32_t maps = 1;
	struct vp_stack_gens g = { { &maps }, { 1 }, 1, 1 };
	struct vp_sample s = sample(42, 0x401000, 3);
	uint32_t kids[4] = { 9, 4, 12, 0 }, more[5] = { 1, 2, 3, 4, 5 };
	struct vp_chain_hit did = { 17, 1017, kids, 4 }, hit;

	assert_non_null(c);
	vp_chain_cache_put(c, &table, &s, "p", &did, &g);
	kids[0] = 99;	/* copied when put */
	assert_int_equal(vp_chain_cache_get(c, &table, &s, "p", &hit), 1);
	assert_int_equal(hit.leaf, 17);
	assert_int_equal(hit.row, 1017);
	assert_int_equal(hit.nkids, 4);
	assert_int_equal(hit.kids[0], 9);
	assert_int_equal(hit.kids[2], 12);
	assert_int_equal(hit.kids[3], 0);
	did = (struct vp_chain_hit){ 18, 1018, more, 5 };
	vp_chain_cache_put(c, &table, &s, "p", &did, &g);
	assert_int_equal(vp_chain_cache_get(c, &table, &s, "p", &hit), 1);
	assert_int_equal(hit.nkids, 5);
	assert_int_equal(hit.kids[4], 5);
	did = (struct vp_chain_hit){ 19, 1019, NULL, 0 };
	vp_chain_cache_put(c, &table, &s, "p", &did, &g);
	assert_int_equal(vp_chain_cache_get(c, &table, &s, "p", &hit), 1);
	assert_int_equal(hit.nkids, 0);
	maps = 2;
	assert_int_equal(vp_chain_cache_get(c, &table, &s, "p", &hit), 0);
	vp_chain_cache_free(c);
}

/* Many chains: each answers with its own node or not at all (a slot holds
 * the last chain put there). */
static void many_chains(void **state)
{
	(void)state;
	struct vp_chain_cache *c = vp_chain_cache_new();
	int tree;
	uint32_t maps = 1;
	struct vp_stack_gens g = { { &maps }, { 1 }, 1, 1 };
	size_t hits = 0;
	const char *comm = "p";
	uint32_t row;

	for (uint32_t i = 0; i < 20000; i++) {
		struct vp_sample s = sample(100 + i % 7, 0x400000 + 16 * (uint64_t)i, 3);
		put(c, &tree, &s, comm, i + 1, i + 1001, &g);
	}
	for (uint32_t i = 0; i < 20000; i++) {
		struct vp_sample s = sample(100 + i % 7, 0x400000 + 16 * (uint64_t)i, 3);
		int64_t at = get(c, &tree, &s, comm, &row);
		assert_true(at == -1 || (at == (int64_t)i + 1 && row == i + 1001));
		hits += at >= 0;
	}
	assert_true(hits > 1000);
	vp_chain_cache_free(c);
}

/* A file of one process's samples of event, each with chain frames: 3
 * while libA is mapped at 0x400000, then 2 once libB is mapped there;
 * loaded with stacks. */
static struct vp_profile *remapped_as(const char *dir, const char *event, uint16_t misc,
				      const uint64_t *frames, uint64_t nframes, int children)
{
	static uint64_t ids[1] = { 7 };
	struct vp_pdw_event ev = { .name = event, .ids = ids, .nids = 1 };
	struct vp_pdw_features feat = { .nr_cpus_avail = 1, .nr_cpus_online = 1 };
	struct vp_error err = { 0 };
	struct vp_pdw *w;
	uint8_t smp[VP_TEST_SAMPLE_CHAIN_SIZE(4)];
	size_t size = vp_test_sample_chain(smp, misc, 0x401000, 0, 42, 0, 1000, frames, nframes);
	char path[128];

	assert_true(nframes <= 4);
	snprintf(path, sizeof(path), "%s/remap.data", dir);
	vp_test_cpu_clock_attr(&ev.attr);
	ev.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;	/* after PERIOD, as the fixture writes it */
	/* every record at time 0: delivered in the file's order */
	assert_int_equal(vp_pdw_open(path, &ev, 1, &w, &err), 0);
	assert_int_equal(vp_pdw_comm(w, 42, 42, "prog"), 0);
	assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_USER, 42, 42, 0x400000, 0x10000, 0, 5, 2,
				      "/nonexistent/libA.so"), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(vp_pdw_write(w, smp, size), 0);
	assert_int_equal(vp_pdw_mmap2(w, PERF_RECORD_MISC_USER, 42, 42, 0x400000, 0x10000, 0, 5, 2,
				      "/nonexistent/libB.so"), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(vp_pdw_write(w, smp, size), 0);
	assert_int_equal(vp_pdw_finished_round(w), 0);
	assert_int_equal(vp_pdw_finish(w, &feat, &err), 0);

	struct vp_load_opts lo;
	struct vp_profile *p = NULL;
	vp_load_opts_init(&lo);
	lo.stacks = 1;
	lo.children = children;
	lo.threads = 1;
	assert_int_equal(vp_profile_from_perfdata(path, &lo, &p, &err), 0);
	return p;
}

static struct vp_profile *remapped(const char *dir, const char *event, uint16_t misc,
				   const uint64_t *frames, uint64_t nframes)
{
	return remapped_as(dir, event, misc, frames, nframes, 0);
}

/* The samples of the table's rows whose object is named so. */
static uint64_t row_samples(const struct vp_event_table *t, const char *dso)
{
	uint64_t n = 0;

	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].dso && strstr(t->rows[i].dso, dso))
			n += t->rows[i].samples;
	return n;
}

/* The nodes of libA's and libB's paths, under the process's node. */
static void lib_nodes(const struct vp_stack_tree *t, uint32_t *a, uint32_t *b)
{
	uint32_t prog = vp_stack_tree_node(t, 0)->child;

	assert_string_equal(vp_stack_tree_node(t, prog)->name, "prog");
	*a = vp_stack_tree_node(t, prog)->child;
	*b = vp_stack_tree_node(t, *a)->next;
	assert_string_equal(vp_stack_tree_node(t, *a)->name, "[libA.so]");
	assert_string_equal(vp_stack_tree_node(t, *b)->name, "[libB.so]");
}

/* End to end: one chain sampled before and after its process maps another
 * object where the first was. The loader's tree and rows must name the
 * frames and the address by each object in turn: a cache that outlived the
 * map would put the second sample on the first's path and row. */
static void a_remap_is_a_new_path(void **state)
{
	(void)state;
	static const uint64_t frames[3] = { PERF_CONTEXT_USER, 0x401000, 0x402000 };
	char dir[64];

	assert_int_equal(vp_test_mkdtemp(dir, "chains"), 0);
	struct vp_profile *p = remapped(dir, "cpu-clock", PERF_RECORD_MISC_USER, frames, 3);
	const struct vp_stack_tree *t = p->tables[0]->stacks;
	assert_non_null(t);
	/* root, prog, and per object the chain's two frames */
	assert_int_equal(vp_stack_tree_count(t), 6);
	uint32_t a, b;
	lib_nodes(t, &a, &b);
	assert_int_equal(vp_stack_tree_value(t, a, 0)->samples, 3);
	assert_int_equal(vp_stack_tree_value(t, b, 0)->samples, 2);
	uint32_t leaf_b = vp_stack_tree_node(t, b)->child;
	assert_int_equal(vp_stack_tree_value(t, leaf_b, 0)->self_samples, 2);
	assert_int_equal(row_samples(p->tables[0], "libA.so"), 3);
	assert_int_equal(row_samples(p->tables[0], "libB.so"), 2);
	vp_profile_free(p);
	assert_int_equal(vp_test_rmtree(dir), 0);
}

/* The same with inclusive counts (--children): every row of a sample's
 * frames gains it once, so each of libA's rows counts its 3 samples and
 * each of libB's its 2. A cached chain's rows that outlived the remap
 * would give libA's rows all 5; cached rows not counted again, 1 and 1. */
static void a_remap_moves_the_inclusive_rows(void **state)
{
	(void)state;
	static const uint64_t frames[3] = { PERF_CONTEXT_USER, 0x401000, 0x402000 };
	char dir[64];

	assert_int_equal(vp_test_mkdtemp(dir, "chains"), 0);
	struct vp_profile *p = remapped_as(dir, "cpu-clock", PERF_RECORD_MISC_USER, frames, 3, 1);
	const struct vp_event_table *e = p->tables[0];
	size_t a = 0, b = 0;
	assert_true(e->children);
	for (size_t i = 0; i < e->nrows; i++) {
		const struct vp_row *r = &e->rows[i];
		assert_non_null(r->dso);
		if (strstr(r->dso, "libA.so")) {
			assert_int_equal(r->children_samples, 3);
			assert_int_equal(r->children_period, 3000);
			a++;
		} else {
			assert_non_null(strstr(r->dso, "libB.so"));
			assert_int_equal(r->children_samples, 2);
			assert_int_equal(r->children_period, 2000);
			b++;
		}
	}
	assert_true(a > 0 && b > 0);
	assert_int_equal(row_samples(e, "libA.so"), 3);
	assert_int_equal(row_samples(e, "libB.so"), 2);
	/* and the stacks beside them */
	uint32_t na, nb;
	lib_nodes(e->stacks, &na, &nb);
	assert_int_equal(vp_stack_tree_value(e->stacks, na, 0)->samples, 3);
	assert_int_equal(vp_stack_tree_value(e->stacks, nb, 0)->samples, 2);
	vp_profile_free(p);
	assert_int_equal(vp_test_rmtree(dir), 0);
}

/* The same with a chain read as the kernel's whose frame is the sampled
 * user address: the chain's frame resolves in the kernel's space, which
 * the remap leaves alone, and the row by the process's maps, which it
 * changes. The row must follow the remap. */
static void a_remap_moves_the_row_of_a_kernel_chain(void **state)
{
	(void)state;
	static const uint64_t frames[2] = { PERF_CONTEXT_KERNEL, 0x401000 };
	char dir[64];

	assert_int_equal(vp_test_mkdtemp(dir, "chains"), 0);
	struct vp_profile *p = remapped(dir, "cpu-clock", PERF_RECORD_MISC_USER, frames, 2);
	assert_non_null(p->tables[0]->stacks);
	assert_int_equal(row_samples(p->tables[0], "libA.so"), 3);
	assert_int_equal(row_samples(p->tables[0], "libB.so"), 2);
	vp_profile_free(p);
	assert_int_equal(vp_test_rmtree(dir), 0);
}

/* The same chain as off-CPU time, whose rows go to the program's own
 * frame (not the sampled address): the chain cache gives the stack's end
 * but not the row, and the samples it answers for must count in the tree
 * once each. */
static void a_cached_chain_with_its_own_row(void **state)
{
	(void)state;
	static const uint64_t frames[3] = { PERF_CONTEXT_USER, 0x401000, 0x402000 };
	char dir[64];

	assert_int_equal(vp_test_mkdtemp(dir, "chains"), 0);
	struct vp_profile *p = remapped(dir, "offcpu-time", PERF_RECORD_MISC_USER, frames, 3);
	const struct vp_event_table *e = p->tables[0];
	assert_true(e->own_frame);
	const struct vp_stack_tree *t = e->stacks;
	assert_non_null(t);
	uint32_t a, b;
	lib_nodes(t, &a, &b);
	/* 2 of libA's 3 samples and 1 of libB's 2 come from the cache */
	assert_int_equal(vp_stack_tree_value(t, a, 0)->samples, 3);
	assert_int_equal(vp_stack_tree_value(t, b, 0)->samples, 2);
	assert_int_equal(e->total_samples, 5);
	vp_profile_free(p);
	assert_int_equal(vp_test_rmtree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(answers_for_its_chain_only),
		cmocka_unit_test(keeps_the_inclusive_rows),
		cmocka_unit_test(many_chains),
		cmocka_unit_test(a_remap_is_a_new_path),
		cmocka_unit_test(a_remap_moves_the_inclusive_rows),
		cmocka_unit_test(a_remap_moves_the_row_of_a_kernel_chain),
		cmocka_unit_test(a_cached_chain_with_its_own_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
