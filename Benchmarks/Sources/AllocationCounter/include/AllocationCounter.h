/*
 * AllocationCounter.h — how many allocations the process has made, for the
 * `compare` tool (see allocation_counter.c). Benchmark-only code.
 */
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * allocation_count — the number of calls to malloc, calloc, realloc,
 * posix_memalign, aligned_alloc and memalign so far (glibc), or -1 when they
 * are not counted on this platform. Read it before and after a loop to count
 * that loop's allocations, as package-benchmark's mallocCountTotal does.
 */
long long allocation_count(void);

#ifdef __cplusplus
}
#endif

#endif /* ALLOCATION_COUNTER_H */
