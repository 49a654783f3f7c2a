/* The workloads' own system calls: on x86_64 the syscall instruction inline
 * in the calling function, so that a syscall tracepoint's sample, or the
 * stack of a thread blocked in the call, has that function itself as its
 * first user frame (with frame-pointer callchains the direct caller of a
 * libc wrapper, built without frame pointers, is not in the chain).
 * Elsewhere libc's syscall(). Failures return -errno, as the kernel does. */
#ifndef INLINE_SYSCALL_H
#define INLINE_SYSCALL_H

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long sys3(long nr, long a, long b, long c)
{
#if defined(__x86_64__)
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long ret = syscall(nr, a, b, c);
	return ret < 0 ? -errno : ret;
#endif
}

#define do_read(fd, buf, n) sys3(SYS_read, (fd), (long)(buf), (long)(n))
#define do_write(fd, buf, n) sys3(SYS_write, (fd), (long)(buf), (long)(n))

#endif
