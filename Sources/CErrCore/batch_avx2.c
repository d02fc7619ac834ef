/*
 * batch_avx2.c — pass 1 of the front's batch with AVX2 (the path
 * ERRCORE_BATCH_PATH_AVX2, x86-64 only; batch.c runs it when the CPU has
 * AVX2 and POPCNT). Eight codes per step:
 *
 *   - each code's slot offset from a scalar 64-bit multiply, a shift and a
 *     mask (AVX2 has no 64-bit multiply: three vpmuludq per four codes and
 *     moving the offsets back to general registers took more instructions,
 *     and clang rebuilds the emulation with a fourth multiply);
 *   - each slot (key and class, 16 bytes) is one 128-bit load, no gather
 *     (two vpgatherqq per four codes ran 1.3-1.6 times slower on AMD Zen 3:
 *     docs/performance.md); two slots share one 256-bit register, and
 *     unpacking two such registers gives four keys and four classes in
 *     code order;
 *   - the keys are compared with the codes four at a time, the classes
 *     stored four at a time, and the eight-bit miss mask appends the
 *     positions of the step's misses with one 8-byte store
 *     (errcore__miss_places8) and a popcount.
 *
 * The multiplies go through ERRCORE__LOADED so that no compiler turns them
 * back into vector code. The functions carry target("avx2,popcnt"): the
 * rest of the library is built without -march and runs on any x86-64.
 */
#include "internal.h"

#if defined(ERRCORE__X86_PATHS)

#include <immintrin.h>
#include <string.h>

#define ERRCORE__AVX2 __attribute__((target("avx2,popcnt")))

/* Slots at byte offsets oa and ob in the low and high 128 bits of one register. */
#define ERRCORE__AVX2_TWO(oa, ob)                                                                                      \
    _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(slots + (oa)))),    \
                            _mm_loadu_si128((const __m128i *)(const void *)(slots + (ob))), 1)

/*
 * Four codes from codes[j]: their classes stored to out[j ...], their hit
 * mask (bit l: code j + l found its key) into `hits`. OFFSET(c) is the byte
 * offset of code c's slot. r02 holds slots 0 and 2, r13 slots 1 and 3, so
 * unpacking their low and high 64-bit halves gives keys 0 1 2 3 and
 * classes 0 1 2 3. (Four at a time, not eight: eight offsets at once do not
 * fit the general registers next to the bucketed hash's.)
 */
#define ERRCORE__AVX2_FOUR(OFFSET, j, hits)                                                                            \
    do {                                                                                                               \
        uint64_t o0 = OFFSET(codes[(j)]), o1 = OFFSET(codes[(j) + 1]);                                                 \
        uint64_t o2 = OFFSET(codes[(j) + 2]), o3 = OFFSET(codes[(j) + 3]);                                             \
        __m256i r02 = ERRCORE__AVX2_TWO(o0, o2), r13 = ERRCORE__AVX2_TWO(o1, o3);                                      \
        _mm256_storeu_si256((__m256i *)(void *)(out + (j)), _mm256_unpackhi_epi64(r02, r13));                          \
        __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(codes + (j)));                                  \
        __m256i keys = _mm256_unpacklo_epi64(r02, r13);                                                                \
        hits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(keys, c)));                         \
    } while (0)

/* Steps of eight codes while eight are left: the eight-bit miss mask appends the step's misses. */
#define ERRCORE__AVX2_STEPS(OFFSET)                                                                                    \
    for (; n - k >= 8; k += 8, places += 0x0808080808080808u) {                                                        \
        unsigned low, high;                                                                                            \
        ERRCORE__AVX2_FOUR(OFFSET, k, low);                                                                            \
        ERRCORE__AVX2_FOUR(OFFSET, k + 4, high);                                                                       \
        unsigned misses = (low | high << 4) ^ 0xFFu;                                                                   \
        uint64_t at = errcore__miss_places8[misses] + places;                                                          \
        memcpy(miss + m, &at, sizeof at);                                                                              \
        m += (size_t)__builtin_popcount(misses);                                                                       \
    }

/* The product's bits 28 and up: (hi << 4) plus four low bits the slot mask clears. */
ERRCORE__AVX2 static inline uint64_t errcore__avx2_h(int64_t code, uint64_t multiplier) {
    uint64_t product = (uint64_t)code * multiplier;
    ERRCORE__LOADED(product);
    return product >> 28;
}

#define ERRCORE__AVX2_DIRECT(c)    (errcore__avx2_h((c), multiplier) & mask)
#define ERRCORE__AVX2_DISPLACED(c) ((errcore__avx2_h((c), multiplier) ^ d) & mask)
#define ERRCORE__AVX2_BUCKETED(c)  errcore__avx2_bucketed((c), multiplier, buckets, bucket_shift, mask)

ERRCORE__AVX2 static inline uint64_t errcore__avx2_bucketed(int64_t code, uint64_t multiplier, const uint32_t *buckets,
                                                            unsigned bucket_shift, uint64_t mask) {
    uint64_t h = errcore__avx2_h(code, multiplier);
    return (h ^ ((uint64_t)buckets[h >> bucket_shift] << 4)) & mask;
}

ERRCORE__AVX2 size_t errcore__front_pass_avx2(const errcore_front *f, const int64_t *restrict codes,
                                              errcore_class *restrict out, unsigned char *restrict miss, size_t n) {
    const unsigned char *slots = (const unsigned char *)f->slots;
    const uint32_t *buckets = f->buckets;
    uint64_t multiplier = f->multiplier;
    uint64_t mask = (uint64_t)f->slot_mask << 4;  /* byte offsets of 16-byte slots */
    unsigned bucket_shift = f->bucket_shift + 4u; /* applied to h >> 28: at most 36 */
    uint64_t d = (uint64_t)buckets[0] << 4;
    size_t k = 0, m = 0;
    uint64_t places = 0; /* k in every byte */
    if (f->bucket_shift == 32 && d == 0) {
        ERRCORE__AVX2_STEPS(ERRCORE__AVX2_DIRECT)
    } else if (f->bucket_shift == 32) {
        ERRCORE__AVX2_STEPS(ERRCORE__AVX2_DISPLACED)
    } else {
        ERRCORE__AVX2_STEPS(ERRCORE__AVX2_BUCKETED)
    }
    return errcore__front_tail(f, codes, out, miss, k, n, m);
}

#else
/* x86-64 with gcc or clang only: nothing here elsewhere (ISO C wants a declaration). */
typedef int errcore__no_avx2_path;
#endif
