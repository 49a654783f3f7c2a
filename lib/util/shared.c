/* Things loaded once per process (see shared.h): a list, as they are few
 * (the kernels and the objects of the recordings being read). */
#include "shared.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	const struct vp_shared_kind *kind;
	char *key;
	void *v;		/* NULL while loading */
	int loading, refs;
	struct entry *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t loaded = PTHREAD_COND_INITIALIZER;
static struct entry *list;
static int held;

static struct entry *by_key(const struct vp_shared_kind *k, const char *key)
{
	for (struct entry *e = list; e; e = e->next)
		if (e->kind == k && !strcmp(e->key, key))
			return e;
	return NULL;
}

static struct entry *by_value(const struct vp_shared_kind *k, const void *v)
{
	for (struct entry *e = list; e; e = e->next)
		if (e->kind == k && !e->loading && e->v == v)
			return e;
	return NULL;
}

static void unlink_entry(struct entry *e)
{
	for (struct entry **p = &list; *p; p = &(*p)->next)
		if (*p == e) {
			*p = e->next;
			break;
		}
	free(e->key);
	free(e);
}

int vp_shared_get(const struct vp_shared_kind *k, const char *key,
		  int (*load)(void *ctx, void **out, struct vp_error *err), void *ctx, void **out,
		  struct vp_error *err)
{
	struct entry *e;
	int rc;

	*out = NULL;
	pthread_mutex_lock(&mu);
	while ((e = by_key(k, key)) && e->loading)
		pthread_cond_wait(&loaded, &mu);	/* another thread loads it */
	if (e) {
		e->refs++;
		*out = e->v;
		pthread_mutex_unlock(&mu);
		return 0;
	}
	if ((e = calloc(1, sizeof(*e))) && !(e->key = strdup(key))) {
		free(e);
		e = NULL;
	}
	if (e) {
		e->kind = k;
		e->loading = 1;
		e->next = list;
		list = e;
	}
	pthread_mutex_unlock(&mu);
	if (!e)
		return vp_errorf(err, -ENOMEM, "out of memory");

	rc = load(ctx, out, err);
	pthread_mutex_lock(&mu);
	if (rc < 0 || !*out) {
		unlink_entry(e);	/* a waiter loads for itself and gets its own error */
	} else {
		e->v = *out;
		e->loading = 0;
		e->refs = 1;
	}
	pthread_cond_broadcast(&loaded);
	pthread_mutex_unlock(&mu);
	return rc;
}

void vp_shared_put(const struct vp_shared_kind *k, void *v)
{
	struct entry *e;

	if (!v)
		return;
	pthread_mutex_lock(&mu);
	if ((e = by_value(k, v))) {
		if (--e->refs > 0 || held)
			v = NULL;	/* still used, or kept */
		else
			unlink_entry(e);
	}
	pthread_mutex_unlock(&mu);
	if (v)
		k->free(v);
}

void vp_shared_hold(void)
{
	pthread_mutex_lock(&mu);
	held++;
	pthread_mutex_unlock(&mu);
}

void vp_shared_release(void)
{
	struct entry *unused = NULL;

	pthread_mutex_lock(&mu);
	if (held > 0 && --held == 0) {
		for (struct entry **p = &list; *p;) {
			struct entry *e = *p;
			if (!e->loading && e->refs == 0) {
				*p = e->next;
				e->next = unused;
				unused = e;
			} else {
				p = &e->next;
			}
		}
	}
	pthread_mutex_unlock(&mu);
	while (unused) {
		struct entry *e = unused;
		unused = e->next;
		e->kind->free(e->v);
		free(e->key);
		free(e);
	}
}
