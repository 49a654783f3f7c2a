/* Reads done ahead on a thread (see readahead.h): the thread fills a ring
 * of blocks, the reader empties them in order. The thread's last block
 * carries the end or the error, so a reader waiting for a block always
 * gets one. */
#include "readahead.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK	(128u << 10)
#define NBLOCKS	8	/* 1 MiB read ahead at most */

struct block {
	size_t len;
	int err;	/* errno of the read that ended the file's reads, or 0 */
	int last;	/* no block comes after this one (end of file or err) */
	char data[BLOCK];
};

struct vp_readahead {
	int fd;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct block *ring;	/* one allocation: one mapping made and given back */
	size_t filled;		/* blocks ready and not yet emptied */
	size_t put, take;	/* the thread's next block, the reader's */
	size_t off;		/* the reader's place in ring[take] */
	int stop;
};

static void fill(int fd, struct block *b)
{
	ssize_t n;

	b->len = 0;
	b->err = 0;
	b->last = 0;
	while (b->len < BLOCK) {
		n = read(fd, b->data + b->len, BLOCK - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			b->err = n < 0 ? errno : 0;
			b->last = 1;
			return;
		}
		b->len += (size_t)n;
	}
}

static void *reader(void *arg)
{
	struct vp_readahead *ra = arg;
	int last = 0;

	while (!last) {
		pthread_mutex_lock(&ra->mu);
		while (ra->filled == NBLOCKS && !ra->stop)
			pthread_cond_wait(&ra->cv, &ra->mu);
		int stop = ra->stop;
		pthread_mutex_unlock(&ra->mu);
		if (stop)
			break;
		struct block *b = &ra->ring[ra->put % NBLOCKS];	/* the reader is not in it */
		fill(ra->fd, b);
		last = b->last;
		pthread_mutex_lock(&ra->mu);
		ra->put++;
		ra->filled++;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	return NULL;
}

static void release(struct vp_readahead *ra)
{
	free(ra->ring);
	pthread_cond_destroy(&ra->cv);
	pthread_mutex_destroy(&ra->mu);
	free(ra);
}

struct vp_readahead *vp_readahead_start(int fd)
{
	struct vp_readahead *ra = calloc(1, sizeof(*ra));

	if (!ra)
		return NULL;
	if (pthread_mutex_init(&ra->mu, NULL) != 0) {
		free(ra);
		return NULL;
	}
	if (pthread_cond_init(&ra->cv, NULL) != 0) {
		pthread_mutex_destroy(&ra->mu);
		free(ra);
		return NULL;
	}
	ra->fd = fd;
	ra->ring = malloc(NBLOCKS * sizeof(*ra->ring));
	if (!ra->ring || pthread_create(&ra->thread, NULL, reader, ra) != 0) {
		release(ra);
		return NULL;
	}
	return ra;
}

ssize_t vp_readahead_read(struct vp_readahead *ra, void *buf, size_t n)
{
	for (;;) {
		pthread_mutex_lock(&ra->mu);
		while (ra->filled == 0)
			pthread_cond_wait(&ra->cv, &ra->mu);
		pthread_mutex_unlock(&ra->mu);
		struct block *b = &ra->ring[ra->take % NBLOCKS];	/* the thread is not in it */
		if (ra->off < b->len) {
			size_t k = b->len - ra->off < n ? b->len - ra->off : n;
			memcpy(buf, b->data + ra->off, k);
			ra->off += k;
			return (ssize_t)k;
		}
		if (b->last) {	/* stays: every later call ends here too */
			if (!b->err)
				return 0;
			errno = b->err;
			return -1;
		}
		pthread_mutex_lock(&ra->mu);
		ra->take++;
		ra->filled--;
		ra->off = 0;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
}

void vp_readahead_stop(struct vp_readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	pthread_join(ra->thread, NULL);
	release(ra);
}
