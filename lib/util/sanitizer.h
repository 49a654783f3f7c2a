/* Which sanitizer this build runs under (gcc says it one way, clang
 * another): under ASan or TSan malloc is the sanitizer's, not glibc's. */
#ifndef VP_SANITIZER_H
#define VP_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define VP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VP_ASAN 1
#endif
#endif
#ifndef VP_ASAN
#define VP_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define VP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VP_TSAN 1
#endif
#endif
#ifndef VP_TSAN
#define VP_TSAN 0
#endif

#endif
