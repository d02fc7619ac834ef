/*
 * batch_avx512.c — pass 1 of the front's batch with AVX-512 (the path
 * ERRCORE_BATCH_PATH_AVX512, x86-64 only; batch.c runs it when the CPU has
 * AVX-512 F and DQ, and POPCNT). Eight codes per step, one 512-bit
 * register each:
 *
 *   - one vpmullq (AVX-512 DQ) multiplies all eight codes, a shift and a
 *     mask (or, with buckets, a displacement per code) give the slot
 *     offsets, which are stored once and read back as addresses;
 *   - each slot (key and class, 16 bytes) is one 128-bit load into a
 *     quarter of a register, no gather (gathers are slow on AMD Zen, and
 *     on Intel since the Gather Data Sampling microcode); unpacking two
 *     such registers gives eight keys and eight classes in code order;
 *   - one compare into a mask register, one store of the classes, and the
 *     mask appends the positions of the step's misses with one 8-byte
 *     store (errcore__miss_places8) and a popcount.
 *
 * The functions carry target("avx512f,avx512dq,popcnt"): the rest of the
 * library is built without -march and runs on any x86-64.
 */
#include "internal.h"

#if defined(ERRCORE__X86_PATHS)

#include <immintrin.h>
#include <string.h>

/* A test build that runs this file on emulated intrinsics (make test-avx512-emulated) defines it empty. */
#ifndef ERRCORE__AVX512
#define ERRCORE__AVX512 __attribute__((target("avx512f,avx512dq,popcnt")))
#endif

/* The slot at byte offset o as 128 bits. */
#define ERRCORE__AVX512_SLOT(o) _mm_loadu_si128((const __m128i *)(const void *)(slots + (o)))

/* Slots at offsets o[a], o[a + 2], o[a + 4], o[a + 6] in the four quarters of one register. */
#define ERRCORE__AVX512_FOUR(o, a)                                                                                     \
    _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(ERRCORE__AVX512_SLOT((o)[(a)])),   \
                                                             ERRCORE__AVX512_SLOT((o)[(a) + 2]), 1),                   \
                                          ERRCORE__AVX512_SLOT((o)[(a) + 4]), 2),                                      \
                       ERRCORE__AVX512_SLOT((o)[(a) + 6]), 3)

ERRCORE__AVX512 size_t errcore__front_pass_avx512(const errcore_front *f, const int64_t *restrict codes,
                                                  errcore_class *restrict out, unsigned char *restrict miss, size_t n) {
    const unsigned char *slots = (const unsigned char *)f->slots;
    const uint32_t *buckets = f->buckets;
    uint64_t mask = (uint64_t)f->slot_mask << 4;  /* byte offsets of 16-byte slots */
    unsigned bucket_shift = f->bucket_shift + 4u; /* applied to h >> 28: at most 36 */
    bool direct = f->bucket_shift == 32;
    __m512i multiplier = _mm512_set1_epi64((long long)f->multiplier);
    /* A direct front's one displacement; with buckets each code gets its own below. */
    __m512i d = _mm512_set1_epi64(direct ? (long long)((uint64_t)buckets[0] << 4) : 0);
    __m512i slot_mask = _mm512_set1_epi64(direct ? (long long)mask : -1);
    _Alignas(64) uint64_t o[8];
    size_t k = 0, m = 0;
    uint64_t places = 0; /* k in every byte */
    for (; n - k >= 8; k += 8, places += 0x0808080808080808u) {
        __m512i c = _mm512_loadu_si512((const void *)(codes + k));
        __m512i h = _mm512_srli_epi64(_mm512_mullo_epi64(c, multiplier), 28);
        _mm512_store_si512((void *)o, _mm512_and_si512(_mm512_xor_si512(h, d), slot_mask));
        if (!direct) {
            for (int l = 0; l < 8; l++) {
                o[l] = (o[l] ^ ((uint64_t)buckets[o[l] >> bucket_shift] << 4)) & mask;
            }
        }
        /* Quarter j of r0 holds slot 2j, of r1 slot 2j + 1: unpacking gives codes 0 ... 7 in order. */
        __m512i r0 = ERRCORE__AVX512_FOUR(o, 0), r1 = ERRCORE__AVX512_FOUR(o, 1);
        _mm512_storeu_si512((void *)(out + k), _mm512_unpackhi_epi64(r0, r1));
        unsigned misses = (unsigned)(__mmask8)~_mm512_cmpeq_epi64_mask(_mm512_unpacklo_epi64(r0, r1), c);
        uint64_t at = errcore__miss_places8[misses] + places;
        memcpy(miss + m, &at, sizeof at);
        m += (size_t)__builtin_popcount(misses);
    }
    return errcore__front_tail(f, codes, out, miss, k, n, m);
}

#else
/* x86-64 with gcc or clang only: nothing here elsewhere (ISO C wants a declaration). */
typedef int errcore__no_avx512_path;
#endif
