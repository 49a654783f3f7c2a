/* String interning: an arena of NUL-terminated copies and an open-addressing
 * hash set of pointers into it. */
#include "strpool.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

struct slot {
	const char *str;
	uint64_t hash;
	size_t len;
};

struct vp_strpool {
	struct chunk *chunks;
	struct slot *slots;
	size_t nslots, count;
};

uint64_t vp_hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	/* FNV-1a over 8-byte words then bytes: fast enough for names, stable across runs. */
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, b, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
		b += 8;
		n -= 8;
	}
	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return vp_hash_u64(h);
}

struct vp_strpool *vp_strpool_new(void)
{
	struct vp_strpool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nslots = 1024;
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return NULL;
	}
	return p;
}

void vp_strpool_free(struct vp_strpool *p)
{
	if (!p)
		return;
	for (struct chunk *c = p->chunks, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(p->slots);
	free(p);
}

size_t vp_strpool_count(const struct vp_strpool *p)
{
	return p->count;
}

static char *arena_copy(struct vp_strpool *p, const char *s, size_t len)
{
	struct chunk *c = p->chunks;
	char *dst;

	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > CHUNK_MIN ? len + 1 : CHUNK_MIN;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->next = p->chunks;
		p->chunks = c;
	}
	dst = c->data + c->used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	c->used += len + 1;
	return dst;
}

static int grow(struct vp_strpool *p)
{
	size_t n = p->nslots * 2;
	struct slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < p->nslots; i++) {
		if (!p->slots[i].str)
			continue;
		size_t j = p->slots[i].hash & (n - 1);
		while (s[j].str)
			j = (j + 1) & (n - 1);
		s[j] = p->slots[i];
	}
	free(p->slots);
	p->slots = s;
	p->nslots = n;
	return 0;
}

const char *vp_strpool_intern_n(struct vp_strpool *p, const char *s, size_t len)
{
	uint64_t h = vp_hash_bytes(s, len, 0);
	size_t i;

	if (p->count * 2 >= p->nslots && grow(p) < 0)
		return NULL;
	for (i = h & (p->nslots - 1); p->slots[i].str; i = (i + 1) & (p->nslots - 1)) {
		struct slot *sl = &p->slots[i];
		if (sl->hash == h && sl->len == len && memcmp(sl->str, s, len) == 0)
			return sl->str;
	}
	char *copy = arena_copy(p, s, len);
	if (!copy)
		return NULL;
	p->slots[i] = (struct slot){ copy, h, len };
	p->count++;
	return copy;
}

const char *vp_strpool_intern(struct vp_strpool *p, const char *s)
{
	return vp_strpool_intern_n(p, s, strlen(s));
}

int vp_strcmp_null(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}
