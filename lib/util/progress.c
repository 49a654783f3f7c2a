/* Progress counters (see progress.h). */
#include "progress.h"

static int64_t bytes, work, done;
static uint64_t samples, lost;
static int recording;

void vp_progress_add(int64_t b, int64_t w, int64_t d)
{
	__atomic_add_fetch(&bytes, b, __ATOMIC_RELAXED);
	__atomic_add_fetch(&work, w, __ATOMIC_RELAXED);
	__atomic_add_fetch(&done, d, __ATOMIC_RELAXED);
}

void vp_progress_expect(uint64_t b, unsigned passes)
{
	vp_progress_add((int64_t)b, (int64_t)b * passes, 0);
}

void vp_progress_advance(uint64_t w)
{
	__atomic_add_fetch(&done, (int64_t)w, __ATOMIC_RELAXED);
}

void vp_progress_record(uint64_t s, uint64_t l)
{
	__atomic_store_n(&samples, s, __ATOMIC_RELAXED);
	__atomic_store_n(&lost, l, __ATOMIC_RELAXED);
	__atomic_store_n(&recording, 1, __ATOMIC_RELAXED);
}

void vp_progress_get(struct vp_progress *p)
{
	p->bytes = __atomic_load_n(&bytes, __ATOMIC_RELAXED);
	p->work = __atomic_load_n(&work, __ATOMIC_RELAXED);
	p->done = __atomic_load_n(&done, __ATOMIC_RELAXED);
	p->samples = __atomic_load_n(&samples, __ATOMIC_RELAXED);
	p->lost = __atomic_load_n(&lost, __ATOMIC_RELAXED);
	p->recording = __atomic_load_n(&recording, __ATOMIC_RELAXED);
}
