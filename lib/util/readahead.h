/* A file's reads done ahead on a thread of their own, for a reader that
 * spends as long on what it read as the kernel spends producing it:
 * /proc/kallsyms is formatted by the kernel as it is read (35-45 ms here)
 * and parsed by vmprof (20-25 ms), one after the other on one thread. */
#ifndef VP_READAHEAD_H
#define VP_READAHEAD_H

#include <stddef.h>
#include <sys/types.h>

struct vp_readahead;

/* Starts reading fd from where it is, or NULL (no memory or no thread: the
 * caller reads fd itself). fd stays the caller's. */
struct vp_readahead *vp_readahead_start(int fd);
/* As read(2): up to n bytes, 0 at the end, -1 with errno on the error the
 * reads met (after the bytes read before it). */
ssize_t vp_readahead_read(struct vp_readahead *ra, void *buf, size_t n);
/* Stops the reads (at most one more block) and frees; NULL is a no-op. */
void vp_readahead_stop(struct vp_readahead *ra);

#endif
