/*
 * allocation_counter.c — counts the process's allocations
 * (allocation_count()), so that `compare` can check that a loop allocates
 * nothing. On glibc the allocation functions are interposed: each call
 * increments a counter and goes on to glibc's own allocator (__libc_malloc
 * and friends). Elsewhere nothing is interposed and allocation_count()
 * returns -1. Only `compare` links this target: in the package-benchmark
 * executable it would take the place of package-benchmark's own
 * MallocInterposer.
 */
#include <stddef.h>
/* A C library header: glibc's defines __GLIBC__, which <stddef.h> (the compiler's) does not. */
#include <limits.h>

#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <stdatomic.h>

static atomic_llong allocation__count;

/* glibc's allocator under its internal names. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static void allocation__add(void) {
    atomic_fetch_add_explicit(&allocation__count, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    allocation__add();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocation__add();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocation__add();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    allocation__add();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocation__add();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    allocation__add();
    void *p = __libc_memalign(alignment, size);
    if (!p && size != 0) {
        return ENOMEM;
    }
    *out = p;
    return 0;
}

long long allocation_count(void) {
    return atomic_load_explicit(&allocation__count, memory_order_relaxed);
}
#else
long long allocation_count(void) {
    return -1;
}
#endif
