/* lib/profile/, the tabulate stage: a perf.data file walked into per-event
 * tables (report.h), and the tables themselves (this header).
 *
 * The data model: a profile is metadata plus one table per event; a table's
 * rows are keyed by (symbol, dso, domain) and optionally comm and pid, and
 * carry sample counts and summed periods. Everything downstream (converters,
 * compare, render) works on these structures. */
#ifndef VP_PROFILE_H
#define VP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/strpool.h"

/* Domains: the letters perf prints in front of a symbol. */
enum vp_domain {
	VP_DOM_USER = '.',		/* host user */
	VP_DOM_KERNEL = 'k',		/* host kernel */
	VP_DOM_GUEST_USER = 'u',
	VP_DOM_GUEST_KERNEL = 'g',
	VP_DOM_HYPERVISOR = 'H',
};

/* Which row fields identify a row (a table's key). */
enum vp_keyfield {
	VP_KEY_SYM = 1u << 0,
	VP_KEY_DSO = 1u << 1,
	VP_KEY_DOMAIN = 1u << 2,
	VP_KEY_COMM = 1u << 3,
	VP_KEY_PID = 1u << 4,
};
/* perf's `--sort sym` keys a symbol within its dso: two functions of one name
 * in different objects stay apart. This is the finest default grain. */
#define VP_KEY_DEFAULT (VP_KEY_SYM | VP_KEY_DSO | VP_KEY_DOMAIN)

enum vp_value { VP_VALUE_PERIOD = 0, VP_VALUE_SAMPLES = 1 };

/* A row's symbol is the demangled name WITH its parameter list (C++:
 * "ns::f(int const&) const", template return types dropped; Rust: without the
 * hash; C: as in the object). It is the join key: overloads stay apart and
 * CSV/XML round trips keep it. Tables and charts show it as perf does, without
 * the parameter list (vp_symbol_display_len), unless --full-names. */
struct vp_row {
	const char *symbol;	/* interned; "[unknown]" when unresolved; NULL if not keyed */
	const char *dso;	/* interned; as recorded (full path, [kernel.kallsyms]...) */
	const char *comm;	/* interned; NULL unless keyed by comm */
	int32_t pid;		/* -1 unless keyed by pid */
	char domain;		/* enum vp_domain, 0 if not keyed */
	uint64_t samples;
	uint64_t period;
};

struct vp_event_table {
	const char *name;	/* interned, as perf names the event ("cpu-clock", "sched:sched_switch") */
	uint32_t attr_type;	/* perf_event_attr.type/config when known, else ~0 */
	uint64_t attr_config;
	unsigned key;		/* enum vp_keyfield mask */
	const char *weight;	/* interned field name when period sums a tracepoint field, else NULL */
	const char *group;	/* interned field name when rows are that field's values, else NULL */
	uint64_t total_samples;	/* over every sample of the event, even rows not kept */
	uint64_t total_period;
	uint64_t lost_samples;
	struct vp_row *rows;
	size_t nrows, cap;
	/* open-addressing index over rows (row number + 1; 0 = empty) */
	uint32_t *index;
	size_t index_cap;
};

/* Metadata; NULL strings and negative numbers mean unknown. */
struct vp_profile_meta {
	const char *label;	/* side label ("host", "guest") when stored */
	const char *source;	/* the file this profile was read from */
	const char *hostname;
	const char *osrelease;
	const char *arch;
	const char *cpudesc;
	const char *cmdline;
	const char *perf_version;	/* the recorder's version string */
	const char *vmprof_version;	/* set when vmprof recorded the file */
	const char *hypervisor;	/* "none" on bare metal, NULL when unknown */
	int nr_cpus;
	int64_t start_time;	/* unix seconds */
	double duration;	/* seconds */
	double cpu_time;	/* seconds of CPU used by the recorded command */
	double steal_time;	/* seconds stolen by the host over the recording */
	uint64_t lost_samples;
};

struct vp_profile {
	struct vp_strpool *pool;
	struct vp_profile_meta meta;
	struct vp_event_table **tables;
	size_t ntables;
};

/* The command a recording ran, without the recorder's own options ("perf
 * record -g -- ./a" -> "./a"); NULL when the metadata has no command line. */
const char *vp_meta_workload(const struct vp_profile_meta *m);

struct vp_profile *vp_profile_new(void);
void vp_profile_free(struct vp_profile *p);
void vp_profile_meta_init(struct vp_profile_meta *m);
const char *vp_profile_intern(struct vp_profile *p, const char *s);

/* Find or create the table for an event name. NULL on ENOMEM. */
struct vp_event_table *vp_profile_table(struct vp_profile *p, const char *name, unsigned key);
struct vp_event_table *vp_profile_find(const struct vp_profile *p, const char *name);
/* Drop every table whose event is not in the NULL-terminated names (NULL keeps all). */
void vp_profile_keep_events(struct vp_profile *p, const char *const *names);

/* Add samples/period to the row matching r's key fields (strings must be
 * interned in the table's profile), creating it as needed; totals follow.
 * Returns the row's index, or a negative code. */
int vp_table_add(struct vp_event_table *t, const struct vp_row *r);
/* Find the row for a key, NULL if absent. */
struct vp_row *vp_table_lookup(struct vp_event_table *t, const struct vp_row *key);

/* Sort rows, largest first by value, ties by symbol, dso, domain, comm, pid:
 * the same input always gives the same order. */
void vp_table_sort(struct vp_event_table *t, enum vp_value by);
/* Keep the first n rows (0 keeps all); totals are unchanged. */
void vp_table_truncate(struct vp_event_table *t, size_t n);
/* Aggregate src into a new table of dst keyed by key (fields outside the key
 * are dropped: set to NULL/-1/0). */
struct vp_event_table *vp_table_regroup(struct vp_profile *dst, const struct vp_event_table *src,
					unsigned key);

double vp_row_share(const struct vp_event_table *t, const struct vp_row *r, enum vp_value by);
uint64_t vp_row_value(const struct vp_row *r, enum vp_value by);

/* The letter perf prints for a domain, and the domain for a sample's cpumode
 * (PERF_RECORD_MISC_CPUMODE_MASK bits of perf_event_header.misc). */
char vp_domain_from_cpumode(unsigned cpumode);
int vp_domain_valid(char d);
/* Last path component, as perf's short dso name ("libc.so.6"); bracketed names as-is. */
const char *vp_dso_short_name(const char *dso);

/* Length of the prefix of a symbol perf would print: the name without a
 * trailing parameter list, cv/ref qualifiers and clone suffixes ("f(int) const"
 * -> 1, "f(int) [clone .cold]" -> 1); thunks, vtables and other special names
 * keep their inner parameter list ("non-virtual thunk to A::f(int)" whole).
 * Names that were never demangled but end in a parameter list (a JIT map's
 * "foo(int)") are cut too, though perf prints them whole. */
size_t vp_symbol_display_len(const char *symbol);

/* Parse "sym", "dso,sym", "sym,dso,domain", "comm", "pid"... into a key mask,
 * literally (report widens "sym" to perf's symbol-within-dso itself). */
int vp_key_parse(const char *spec, unsigned *key);
/* Compare two rows by the fields of key (strcmp on names): for sorting. */
int vp_row_cmp_key(const struct vp_row *a, const struct vp_row *b, unsigned key);

#endif
