/*
 * Embedded/freestanding/string.h — the <string.h> of the freestanding cross
 * build (make cross, make cross-host-test). Not used by the regular build.
 *
 * Why it exists: clang's resource directory ships the freestanding headers
 * (<stdint.h>, <stddef.h>, <stdbool.h>) but no <string.h>, and a bare-metal
 * target has no C library headers at all. The C core needs a handful of
 * string functions, so this header declares them with their C11 prototypes
 * and routes each call through the compiler's builtin: constant-size copies
 * and lengths of string literals are then expanded inline even under
 * -ffreestanding (which otherwise turns builtins off), and every other call
 * becomes an ordinary external call to the function of the same name, which
 * the firmware's C runtime (newlib, picolibc, or its own few lines) provides.
 * `make cross` lists the external symbols the core needs; nothing else.
 *
 * Only the functions below exist here: a core source that starts using any
 * other <string.h> function fails the cross build (implicit declaration under
 * -Werror) instead of silently pulling in more of a C library.
 */
#ifndef SWIFTERR_FREESTANDING_STRING_H
#define SWIFTERR_FREESTANDING_STRING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#define memcpy(dst, src, n)  __builtin_memcpy((dst), (src), (n))
#define memmove(dst, src, n) __builtin_memmove((dst), (src), (n))
#define memset(dst, c, n)    __builtin_memset((dst), (c), (n))
#define memcmp(a, b, n)      __builtin_memcmp((a), (b), (n))
#define strlen(s)            __builtin_strlen((s))
#define strcmp(a, b)         __builtin_strcmp((a), (b))
#define strncmp(a, b, n)     __builtin_strncmp((a), (b), (n))

#ifdef __cplusplus
}
#endif

#endif /* SWIFTERR_FREESTANDING_STRING_H */
