/*
 * malloc-count.c — an LD_PRELOAD library that counts the allocation calls of a whole process
 * (malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign, valloc) and, when the
 * process exits, writes the total to the file named by MALLOC_COUNT_FILE (or to stderr).
 *
 *   cc -O2 -shared -fPIC scripts/bench/malloc-count.c -o build/malloc-count.so -ldl
 *   MALLOC_COUNT_FILE=n.txt LD_PRELOAD=build/malloc-count.so PROGRAM ...
 *
 * Used by scripts/bench/errcat-allocations.sh; not part of the library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_ulong count;

/* dlsym itself may call calloc before the real one is known: serve those from a small static
   buffer that is never freed (free() ignores pointers into it). */
static unsigned char bootstrap[4096];
static size_t bootstrap_used;
static int resolving;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static void *(*real_aligned_alloc)(size_t, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);

static void resolve(void) {
    if (real_malloc || resolving) {
        return;
    }
    resolving = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
    real_valloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "valloc");
    resolving = 0;
}

static int in_bootstrap(const void *p) {
    return (const unsigned char *)p >= bootstrap && (const unsigned char *)p < bootstrap + sizeof bootstrap;
}

void *malloc(size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_malloc(size);
}

void *calloc(size_t n, size_t size) {
    if (!real_calloc) {
        resolve();
        if (!real_calloc) {
            size_t bytes = (n * size + 15) & ~(size_t)15;
            if (bytes > sizeof bootstrap - bootstrap_used) {
                return NULL;
            }
            void *p = bootstrap + bootstrap_used;
            bootstrap_used += bytes;
            return p; /* static storage is zeroed */
        }
    }
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    if (in_bootstrap(p)) {
        void *q = real_malloc(size);
        if (q) {
            memcpy(q, p, size);
        }
        return q;
    }
    return real_realloc(p, size);
}

void free(void *p) {
    if (p == NULL || in_bootstrap(p)) {
        return;
    }
    resolve();
    real_free(p);
}

void *aligned_alloc(size_t alignment, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_aligned_alloc(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_posix_memalign(out, alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_memalign(alignment, size);
}

void *valloc(size_t size) {
    resolve();
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return real_valloc(size);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    FILE *out = path ? fopen(path, "w") : stderr;
    if (out) {
        fprintf(out, "%lu\n", atomic_load(&count));
        if (out != stderr) {
            fclose(out);
        }
    }
}
