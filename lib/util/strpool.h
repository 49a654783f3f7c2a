/* Interned strings: one copy of each distinct string, compared by pointer.
 * Symbol and dso names repeat millions of times in a profile; rows hold
 * pointers into the pool, so a key compare is a pointer compare. */
#ifndef VP_STRPOOL_H
#define VP_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct vp_strpool;

struct vp_strpool *vp_strpool_new(void);
void vp_strpool_free(struct vp_strpool *pool);
/* Returns the pool's copy of s (len bytes, need not be NUL-terminated), NULL on ENOMEM. */
const char *vp_strpool_intern_n(struct vp_strpool *pool, const char *s, size_t len);
const char *vp_strpool_intern(struct vp_strpool *pool, const char *s);
size_t vp_strpool_count(const struct vp_strpool *pool);
/* strcmp for names that may be NULL (a key field a table does not keep):
 * NULL first. */
int vp_strcmp_null(const char *a, const char *b);

uint64_t vp_hash_bytes(const void *p, size_t n, uint64_t seed);
static inline uint64_t vp_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
