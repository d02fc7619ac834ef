/*
 * batch_neon.c — pass 1 of the front's batch with NEON (the path
 * ERRCORE_BATCH_PATH_NEON: ARM64, where every CPU has NEON, so batch.c
 * always takes it there). Eight codes per step:
 *
 *   - each code's slot offset from a scalar 64-bit multiply (NEON has no
 *     64-bit multiply), a shift and a mask;
 *   - each slot (key and class, 16 bytes) is one 128-bit load; zipping two
 *     slots gives two keys and two classes in code order;
 *   - the keys are compared with the codes two at a time, the classes
 *     stored two at a time, the eight compare results narrowed to one byte
 *     each and summed with the weights 1, 2, ..., 128 into the miss mask,
 *     which appends the positions of the step's misses with one 8-byte
 *     store (errcore__miss_places8) and a popcount.
 */
#include "internal.h"

#if defined(ERRCORE__NEON_PATH)

#include <arm_neon.h>
#include <string.h>

/* The slot at byte offset o as two 64-bit lanes: key, class. */
#define ERRCORE__NEON_SLOT(o) vld1q_u64((const uint64_t *)(const void *)(slots + (o)))

/*
 * Steps of eight codes while eight are left; OFFSET(c) is the byte offset of
 * code c's slot.
 */
#define ERRCORE__NEON_STEPS(OFFSET)                                                                                    \
    for (; n - k >= 8; k += 8, places += 0x0808080808080808u) {                                                        \
        uint64x2_t s[8];                                                                                               \
        for (int l = 0; l < 8; l++) {                                                                                  \
            s[l] = ERRCORE__NEON_SLOT(OFFSET(codes[k + (size_t)l]));                                                   \
        }                                                                                                              \
        uint64x2_t eq[4];                                                                                              \
        for (int p = 0; p < 4; p++) {                                                                                  \
            uint64x2_t c = vreinterpretq_u64_s64(vld1q_s64(codes + k + 2 * (size_t)p));                                \
            eq[p] = vceqq_u64(vzip1q_u64(s[2 * p], s[2 * p + 1]), c);                                                  \
            vst1q_u64(out + k + 2 * (size_t)p, vzip2q_u64(s[2 * p], s[2 * p + 1]));                                    \
        }                                                                                                              \
        uint32x4_t eq03 = vuzp1q_u32(vreinterpretq_u32_u64(eq[0]), vreinterpretq_u32_u64(eq[1]));                      \
        uint32x4_t eq47 = vuzp1q_u32(vreinterpretq_u32_u64(eq[2]), vreinterpretq_u32_u64(eq[3]));                      \
        uint8x8_t eq8 = vmovn_u16(vuzp1q_u16(vreinterpretq_u16_u32(eq03), vreinterpretq_u16_u32(eq47)));               \
        unsigned misses = (unsigned)vaddv_u8(vand_u8(vmvn_u8(eq8), weights));                                          \
        uint64_t at = errcore__miss_places8[misses] + places;                                                          \
        memcpy(miss + m, &at, sizeof at);                                                                              \
        m += (size_t)__builtin_popcount(misses);                                                                       \
    }

/* The product's bits 28 and up: (hi << 4) plus four low bits the slot mask clears. */
static inline uint64_t errcore__neon_h(int64_t code, uint64_t multiplier) {
    return ((uint64_t)code * multiplier) >> 28;
}

static inline uint64_t errcore__neon_bucketed(int64_t code, uint64_t multiplier, const uint32_t *buckets,
                                              unsigned bucket_shift, uint64_t mask) {
    uint64_t h = errcore__neon_h(code, multiplier);
    return (h ^ ((uint64_t)buckets[h >> bucket_shift] << 4)) & mask;
}

#define ERRCORE__NEON_DIRECT(c)    (errcore__neon_h((c), multiplier) & mask)
#define ERRCORE__NEON_DISPLACED(c) ((errcore__neon_h((c), multiplier) ^ d) & mask)
#define ERRCORE__NEON_BUCKETED(c)  errcore__neon_bucketed((c), multiplier, buckets, bucket_shift, mask)

size_t errcore__front_pass_neon(const errcore_front *f, const int64_t *restrict codes, errcore_class *restrict out,
                                unsigned char *restrict miss, size_t n) {
    static const uint8_t weight_bytes[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x8_t weights = vld1_u8(weight_bytes);
    const unsigned char *slots = (const unsigned char *)f->slots;
    const uint32_t *buckets = f->buckets;
    uint64_t multiplier = f->multiplier;
    uint64_t mask = (uint64_t)f->slot_mask << 4;  /* byte offsets of 16-byte slots */
    unsigned bucket_shift = f->bucket_shift + 4u; /* applied to h >> 28: at most 36 */
    uint64_t d = (uint64_t)buckets[0] << 4;
    size_t k = 0, m = 0;
    uint64_t places = 0; /* k in every byte */
    if (f->bucket_shift == 32 && d == 0) {
        ERRCORE__NEON_STEPS(ERRCORE__NEON_DIRECT)
    } else if (f->bucket_shift == 32) {
        ERRCORE__NEON_STEPS(ERRCORE__NEON_DISPLACED)
    } else {
        ERRCORE__NEON_STEPS(ERRCORE__NEON_BUCKETED)
    }
    return errcore__front_tail(f, codes, out, miss, k, n, m);
}

#else
/* ARM64 with gcc or clang only: nothing here elsewhere (ISO C wants a declaration). */
typedef int errcore__no_neon_path;
#endif
