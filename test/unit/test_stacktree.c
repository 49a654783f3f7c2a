/* Stack trees: inclusive and self values, merging sides, the order of
 * children; and a recording's tree holds exactly its folded stacks (which
 * convert_folded judges against perf script). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "converters/formats.h"
#include "lib/profile/report.h"
#include "lib/profile/stacktree.h"
#include "fixtures.h"

#ifndef VP_SRCDIR
#define VP_SRCDIR "."
#endif


static int find(const struct vp_stack_tree *t, size_t parent, const char *name)
{
	for (uint32_t c = vp_stack_tree_node(t, parent)->child; c; c = vp_stack_tree_node(t, c)->next)
		if (!strcmp(vp_stack_tree_node(t, c)->name, name))
			return (int)c;
	return -1;
}

static void test_values_inclusive_and_self(void **state)
{
	(void)state;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_stack_tree *t = vp_stack_tree_new(1, pool);

	vp_test_stack_add(t, 0, "prog;main;f;g", 1, 10);
	vp_test_stack_add(t, 0, "prog;main;f", 2, 20);
	/* recursion is depth, not a second count: f under f is its own node */
	vp_test_stack_add(t, 0, "prog;main;f;f", 4, 40);
	int c = find(t, 0, "prog"), m = find(t, (size_t)c, "main"), f = find(t, (size_t)m, "f");
	int g = find(t, (size_t)f, "g"), ff = find(t, (size_t)f, "f");
	assert_true(c > 0 && m > 0 && f > 0 && g > 0 && ff > 0);
	assert_int_equal(vp_stack_tree_value(t, 0, 0)->samples, 7);
	assert_int_equal(vp_stack_tree_value(t, (size_t)f, 0)->samples, 7);
	assert_int_equal(vp_stack_tree_value(t, (size_t)f, 0)->period, 70);
	assert_int_equal(vp_stack_tree_value(t, (size_t)f, 0)->self_samples, 2);
	assert_int_equal(vp_stack_tree_value(t, (size_t)ff, 0)->self_period, 40);
	assert_int_equal(vp_stack_tree_value(t, (size_t)g, 0)->samples, 1);
	assert_int_equal(vp_stack_tree_node(t, (size_t)g)->depth, 4);
	assert_int_equal(vp_stack_tree_node(t, (size_t)g)->parent, (uint32_t)f);
	vp_stack_tree_free(t);
	vp_strpool_free(pool);
}

static void test_merge_two_sides_and_sort(void **state)
{
	(void)state;
	struct vp_strpool *pa = vp_strpool_new(), *pb = vp_strpool_new(), *pc = vp_strpool_new();
	struct vp_stack_tree *a = vp_stack_tree_new(1, pa), *b = vp_stack_tree_new(1, pb);
	struct vp_stack_tree *m = vp_stack_tree_new(2, pc);

	vp_test_stack_add(a, 0, "p;main;zeta", 3, 3);
	vp_test_stack_add(a, 0, "p;main;alpha", 1, 1);
	vp_test_stack_add(b, 0, "p;main;alpha", 5, 50);
	vp_test_stack_add(b, 0, "p;main;only_b", 2, 20);
	assert_int_equal(vp_stack_tree_merge(m, 0, a, 0), 0);
	assert_int_equal(vp_stack_tree_merge(m, 1, b, 0), 0);
	vp_stack_tree_sort(m);
	int p = find(m, 0, "p"), main = find(m, (size_t)p, "main");
	const struct vp_stack_node *mn = vp_stack_tree_node(m, (size_t)main);
	/* children in name order, whatever order they were seen in */
	assert_string_equal(vp_stack_tree_node(m, mn->child)->name, "alpha");
	assert_string_equal(vp_stack_tree_node(m, vp_stack_tree_node(m, mn->child)->next)->name, "only_b");
	int alpha = find(m, (size_t)main, "alpha"), only_b = find(m, (size_t)main, "only_b");
	int zeta = find(m, (size_t)main, "zeta");
	assert_int_equal(vp_stack_tree_value(m, (size_t)alpha, 0)->samples, 1);
	assert_int_equal(vp_stack_tree_value(m, (size_t)alpha, 1)->samples, 5);
	assert_int_equal(vp_stack_tree_value(m, (size_t)only_b, 0)->samples, 0);
	assert_int_equal(vp_stack_tree_value(m, (size_t)zeta, 1)->samples, 0);
	assert_int_equal(vp_stack_tree_value(m, 0, 0)->samples, 4);
	assert_int_equal(vp_stack_tree_value(m, 0, 1)->period, 70);
	/* names live in the merged tree's own pool */
	vp_stack_tree_free(a);
	vp_stack_tree_free(b);
	vp_strpool_free(pa);
	vp_strpool_free(pb);
	assert_string_equal(vp_stack_tree_node(m, (size_t)zeta)->name, "zeta");
	vp_stack_tree_free(m);
	vp_strpool_free(pc);
}

static void test_bad_child_and_side_refused(void **state)
{
	(void)state;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_stack_tree *t = vp_stack_tree_new(2, pool);
	struct vp_stack_step step = { vp_strpool_intern(pool, "f"), NULL, '.' };

	assert_true(vp_stack_tree_child(t, 5, vp_strpool_intern(pool, "x"), NULL, '.') < 0);
	assert_true(vp_stack_tree_add(t, 2, vp_strpool_intern(pool, "p"), &step, 1, 1, 1) < 0);
	int c = vp_stack_tree_child(t, 0, vp_strpool_intern(pool, "p"), NULL, 0);
	assert_true(c > 0);
	assert_int_equal(vp_stack_tree_child(t, 0, vp_strpool_intern(pool, "p"), NULL, 0), c);
	vp_stack_tree_free(t);
	vp_strpool_free(pool);
}

/* The folded lines a tree holds: "comm;a;b COUNT" for every node with self samples. */
static void tree_lines(const struct vp_stack_tree *t, size_t node, char *prefix, size_t len, FILE *out)
{
	const struct vp_stack_node *n = vp_stack_tree_node(t, node);
	size_t l = len;

	if (node) {
		l += (size_t)snprintf(prefix + len, 8192 - len, "%s%s", len ? ";" : "", n->name);
		if (vp_stack_tree_value(t, node, 0)->self_samples)
			fprintf(out, "%s %llu\n", prefix,
				(unsigned long long)vp_stack_tree_value(t, node, 0)->self_samples);
	}
	for (uint32_t c = n->child; c; c = vp_stack_tree_node(t, c)->next)
		tree_lines(t, c, prefix, l, out);
	prefix[len] = 0;
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lines of text, sorted as the folded writer sorts them (by stack). */
static char *sorted(char *text)
{
	char *lines[4096], *out = calloc(1, strlen(text) + 2), *save = NULL;
	size_t n = 0;

	for (char *l = strtok_r(text, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(l, ' ');
		*sp = '\t';	/* the stack alone decides the order */
		lines[n++] = l;
	}
	qsort(lines, n, sizeof(*lines), line_cmp);
	for (size_t i = 0; i < n; i++) {
		*strrchr(lines[i], '\t') = ' ';
		strcat(strcat(out, lines[i]), "\n");
	}
	return out;
}

static void test_recording_tree_holds_its_folded_stacks(void **state)
{
	(void)state;
	const char *file = VP_SRCDIR "/test/fixtures/callchain.data";
	struct vp_load_opts lo;
	struct vp_folded_opts fo;
	struct vp_error err = { 0 };
	struct vp_profile *p = NULL;
	struct vp_folded *f = NULL;
	char *want = NULL, *got = NULL, prefix[8192] = "";
	size_t wlen = 0, glen = 0;

	vp_load_opts_init(&lo);
	lo.symfs = VP_SRCDIR "/test/fixtures/symfs";
	lo.kallsyms = VP_SRCDIR "/test/fixtures/kallsyms";
	lo.stacks = 1;
	lo.threads = 1;
	vp_folded_opts_init(&fo);
	assert_int_equal(vp_folded_from_perfdata(file, &lo, &fo, &f, &err), 0);
	assert_int_equal(vp_profile_from_perfdata(file, &lo, &p, &err), 0);
	FILE *w = open_memstream(&want, &wlen), *g = open_memstream(&got, &glen);
	vp_folded_write(w, f);
	fclose(w);
	const struct vp_event_table *t = p->tables[0];
	assert_non_null(t->stacks);
	tree_lines(t->stacks, 0, prefix, 0, g);
	fclose(g);
	char *gs = sorted(got);
	assert_true(strlen(want) > 0);
	assert_string_equal(gs, want);
	/* the root holds every sample of the event */
	assert_int_equal(vp_stack_tree_value(t->stacks, 0, 0)->samples, t->total_samples);
	assert_int_equal(vp_stack_tree_value(t->stacks, 0, 0)->period, t->total_period);
	free(gs);
	free(want);
	free(got);
	vp_folded_free(f);
	vp_profile_free(p);
}

/* Adding at a path's leaf is adding the path again (the loader's chain
 * cache takes that shortcut for a chain it met before). */
static void test_add_at_leaf_is_the_path_again(void **state)
{
	(void)state;
	struct vp_strpool *pool = vp_strpool_new();
	struct vp_stack_tree *a = vp_stack_tree_new(1, pool), *b = vp_stack_tree_new(1, pool);
	struct vp_stack_step steps[3];
	const char *names[3] = { "main", "f", "g" };
	uint32_t leaf = 0, leaf2 = 0;

	for (size_t i = 0; i < 3; i++)
		steps[i] = (struct vp_stack_step){ vp_strpool_intern(pool, names[i]), NULL, 'u' };
	const char *comm = vp_strpool_intern(pool, "prog");
	vp_test_stack_add(a, 0, "prog;main;h", 5, 50);
	vp_test_stack_add(b, 0, "prog;main;h", 5, 50);
	assert_int_equal(vp_stack_tree_add_leaf(a, 0, comm, steps, 3, 1, 10, &leaf), 0);
	assert_int_equal(vp_stack_tree_add_leaf(b, 0, comm, steps, 3, 1, 10, &leaf2), 0);
	assert_int_equal(leaf, leaf2);
	assert_string_equal(vp_stack_tree_node(a, leaf)->name, "g");
	assert_int_equal(vp_stack_tree_add_at(a, 0, leaf, 3, 30), 0);
	assert_int_equal(vp_stack_tree_add(b, 0, comm, steps, 3, 3, 30), 0);
	assert_int_equal(vp_stack_tree_count(a), vp_stack_tree_count(b));
	for (size_t i = 0; i < vp_stack_tree_count(a); i++)
		assert_memory_equal(vp_stack_tree_value(a, i, 0), vp_stack_tree_value(b, i, 0),
				    sizeof(struct vp_stack_value));
	assert_int_equal(vp_stack_tree_value(a, 0, 0)->samples, 9);
	assert_int_equal(vp_stack_tree_value(a, leaf, 0)->self_samples, 4);
	/* the root and nodes past the end are no leaf */
	assert_true(vp_stack_tree_add_at(a, 0, 0, 1, 1) < 0);
	assert_true(vp_stack_tree_add_at(a, 0, (uint32_t)vp_stack_tree_count(a), 1, 1) < 0);
	assert_true(vp_stack_tree_add_at(a, 1, leaf, 1, 1) < 0);
	vp_stack_tree_free(a);
	vp_stack_tree_free(b);
	vp_strpool_free(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_at_leaf_is_the_path_again),
		cmocka_unit_test(test_values_inclusive_and_self),
		cmocka_unit_test(test_merge_two_sides_and_sort),
		cmocka_unit_test(test_bad_child_and_side_refused),
		cmocka_unit_test(test_recording_tree_holds_its_folded_stacks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
