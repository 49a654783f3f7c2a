/* Sample keys (lib/profile/keys.c): sums and first places after the join,
 * checked against a plain array oracle (pieces' packed keys too), and the memory and load of a small table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/profile/keys.h"

#define NKEYS 3000
#define WORKERS 3

/* The oracle: per key index, its sums and its earliest place. */
struct want {
	uint64_t samples, period;
	struct vp_key first;
	int seen;
};

static struct vp_key make_key(unsigned id, unsigned sample)
{
	/* Keys differ in ip (which gives the id back), state, event and cpumode;
	 * places in mark, when and off. */
	return (struct vp_key){
		.ip = 0x400000 + (uint64_t)id * 16, .state = id % 5, .evsel = (uint16_t)(id % 3),
		.cpumode = (uint8_t)(1 + id % 2), .samples = 1 + sample % 3, .period = 100 + sample,
		.mark = (sample * 7919u) % 50, .when = sample % 11, .off = (uint64_t)sample * 8,
	};
}

#define PIECES 4

/* A piece counted in the scan (tally.c): its keys in states of its own
 * (the file's state + the piece's number, mod 5) and places from its own
 * start, packed for the join with the way back to the file's. */
struct piece {
	struct vp_keys t;
	struct vp_keys_pack pack;
	uint32_t st[5];
};

/* nkeys keys in 14 samples each, spread over the workers with runs of one
 * key (and over pieces, with pieces), joined; the result against the oracle. */
static void join_against_oracle(unsigned nkeys, int ring, int pieces)
{
	struct vp_keys t[WORKERS];
	struct piece pc[PIECES];
	struct vp_keys_pack packs[PIECES];
	struct want *want = calloc(nkeys, sizeof(*want));
	struct vp_key *out = NULL;
	size_t n = 0;
	unsigned nsamples = nkeys * 14;

	memset(t, 0, sizeof(t));
	memset(pc, 0, sizeof(pc));
	assert_non_null(want);
	for (unsigned s = 0; s < nsamples; s++) {
		unsigned id = (unsigned)((s / 3 * 2654435761ull) % nkeys);
		struct vp_key k = make_key(id, s);
		if (pieces && s % 7 >= 4) {
			unsigned i = s / 7 % PIECES;
			struct vp_key own = k;
			own.state = (k.state + i) % 5;
			pc[i].st[own.state] = k.state;
			k.mark += 20 * i;	/* where the piece's places start: */
			k.when += 1000 * (PIECES - i);	/* marks overlap, whens order */
			assert_int_equal(vp_keys_put(&pc[i].t, &own), 0);
		} else {
			if (pieces)	/* the pieces' first samples come first */
				k.when += 5000;
			assert_int_equal(vp_keys_put(&t[s % 7 % WORKERS], &k), 0);
		}
		struct want *w = &want[id];
		w->samples += k.samples;
		w->period += k.period;
		if (!w->seen || vp_key_earlier(&k, &w->first))
			w->first = k;
		w->seen = 1;
	}
	/* the path taken: keys queued in the ring, or taken at once */
	for (unsigned w = 0; w < WORKERS; w++)
		assert_int_equal(t[w].queued != 0, ring);
	for (unsigned i = 0; pieces && i < PIECES; i++) {
		assert_int_equal(vp_keys_pack(&pc[i].t, WORKERS, &pc[i].pack), 0);
		assert_true(vp_keys_pack_n(&pc[i].pack) > 0);
		/* the keys moved out: the table is empty for the next piece */
		assert_int_equal(pc[i].t.n, 0);
		for (size_t j = 0; j < pc[i].t.cap; j++)
			assert_int_equal(pc[i].t.e[j].samples, 0);
		pc[i].pack.st = pc[i].st;
		pc[i].pack.mark = 20 * i;
		pc[i].pack.when = 1000 * (PIECES - i);
		packs[i] = pc[i].pack;
	}
	assert_int_equal(vp_keys_join(t, WORKERS, packs, pieces ? PIECES : 0, &out, &n), 0);
	size_t distinct = 0;
	for (unsigned id = 0; id < nkeys; id++)
		distinct += want[id].seen;
	assert_int_equal(n, distinct);
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_true(vp_key_earlier(&out[i - 1], &out[i]));
		unsigned id = (unsigned)((out[i].ip - 0x400000) / 16);
		assert_true(id < nkeys && want[id].seen);
		struct vp_key k = make_key(id, 0);
		assert_int_equal(out[i].state, k.state);
		assert_int_equal(out[i].evsel, k.evsel);
		assert_int_equal(out[i].cpumode, k.cpumode);
		assert_int_equal(out[i].samples, want[id].samples);
		assert_int_equal(out[i].period, want[id].period);
		assert_int_equal(out[i].mark, want[id].first.mark);
		assert_int_equal(out[i].when, want[id].first.when);
		assert_int_equal(out[i].off, want[id].first.off);
	}
	for (unsigned w = 0; w < WORKERS; w++)
		vp_keys_free(&t[w]);
	for (unsigned i = 0; i < PIECES; i++) {
		vp_keys_pack_free(&pc[i].pack);
		vp_keys_free(&pc[i].t);
	}
	free(out);
	free(want);
}

/* Few keys: tables small enough to take each key at once. */
static void join_few_keys_as_the_oracle(void **state)
{
	(void)state;
	join_against_oracle(NKEYS, 0, 0);
}

/* Tens of thousands: tables of 0.75-3 MiB a worker, in the cache, which take
 * each key at once on small pages or huge ones. */
static void join_cached_keys_as_the_oracle(void **state)
{
	(void)state;
	join_against_oracle(20000, 0, 0);
	join_against_oracle(40000, 0, 0);
}

/* Many keys: big tables, whose slots are fetched a ring of keys ahead. */
static void join_many_keys_as_the_oracle(void **state)
{
	(void)state;
	join_against_oracle(200000, 1, 0);
}

/* Keys of pieces counted in the scan, packed by partition before their
 * states and places are the file's, beside the workers' tables. */
static void join_pieces_as_the_oracle(void **state)
{
	(void)state;
	join_against_oracle(NKEYS, 0, 1);
	join_against_oracle(40000, 0, 1);
}

/* Resident memory of the process, kB. */
static long resident_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, res = 0;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld %ld", &size, &res), 2);
	fclose(f);
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A few thousand keys (what most profiles have) fill a few hundred kB: their
 * table must not hold a whole huge page per worker. (The growth of the
 * process's resident memory, not the table's mapping: a small mapping may
 * merge with its neighbours. Under AddressSanitizer tables are malloc'd,
 * and the one the table grew from waits in its quarantine, beside their
 * shadow: up to twice the table, still less than a huge page.) */
static void small_table_holds_small_memory(void **state)
{
	struct vp_keys t = { 0 };
	(void)state;

	long before = resident_kb();
	for (unsigned id = 0; id < NKEYS; id++) {
		struct vp_key k = make_key(id, id);
		assert_int_equal(vp_keys_put(&t, &k), 0);
	}
	long grown = resident_kb() - before;
	assert_non_null(t.e);
	size_t need_kb = t.cap * sizeof(struct vp_key) / 1024;
	if (getenv("VP_TEST_SHOW"))
		fprintf(stderr, "table of %zu slots (%zu kB): resident memory grew %ld kB\n", t.cap,
			need_kb, grown);
	if (grown > (long)(2 * need_kb) + 256)
		fail_msg("a table of %zu slots (%zu kB) grew resident memory by %ld kB", t.cap,
			 need_kb, grown);
	vp_keys_free(&t);
}

/* A table that stays in the cache is kept at most half full (keys.c): the
 * -g bench file's 2703 keys take 8192 slots, not 4096. */
static void small_table_at_most_half_full(void **state)
{
	struct vp_keys t = { 0 };
	(void)state;

	for (unsigned id = 0; id < 2703; id++) {
		struct vp_key k = make_key(id, id);
		assert_int_equal(vp_keys_put(&t, &k), 0);
		/* a key put twice is one key */
		assert_int_equal(vp_keys_put(&t, &k), 0);
	}
	assert_int_equal(t.queued, 0);	/* a small table takes its keys at once */
	assert_int_equal(t.n, 2703);
	assert_true(t.cap >= 2 * t.n);
	assert_int_equal(t.cap, 8192);
	vp_keys_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(join_few_keys_as_the_oracle),
		cmocka_unit_test(join_cached_keys_as_the_oracle),
		cmocka_unit_test(join_many_keys_as_the_oracle),
		cmocka_unit_test(join_pieces_as_the_oracle),
		cmocka_unit_test(small_table_holds_small_memory),
		cmocka_unit_test(small_table_at_most_half_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
