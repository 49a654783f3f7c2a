/* A run's value of a row and the event's total in a run, for any value,
 * own or inclusive: the one place shares, statistics and ranks read a
 * run's numbers by --value (model.c, judge.c). */
#include "compare.h"

uint64_t vp_cmp_run_value(const struct vp_cmp_row *r, size_t k, enum vp_value v)
{
	switch (v) {
	case VP_VALUE_SAMPLES: return r->run_samples[k];
	case VP_VALUE_CHILDREN: return r->run_children_period[k];
	case VP_VALUE_CHILDREN_SAMPLES: return r->run_children_samples[k];
	default: return r->run_period[k];
	}
}

uint64_t vp_cmp_run_total(const struct vp_cmp_event *e, size_t k, enum vp_value v)
{
	return vp_value_self(v) == VP_VALUE_SAMPLES ? e->run_total_samples[k] : e->run_total_period[k];
}
