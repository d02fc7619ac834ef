/*
 * fuzz_bytes.h — reads fuzzer input as a stream of small decisions.
 *
 * Every read is bounded by the bytes actually left; once the input is used
 * up every read returns 0, so a decoder never invents data it was not given
 * and always terminates. Codes are drawn mostly from a small neighbourhood
 * so that collisions (duplicates, overlaps, boundary hits) are common, with
 * the int64 extremes and raw 64-bit values mixed in.
 */
#ifndef FUZZ_BYTES_H
#define FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fz_reader {
    const uint8_t *data;
    size_t size;
    size_t pos;
} fz_reader;

static inline fz_reader fz_make(const uint8_t *data, size_t size) {
    fz_reader r = {data, size, 0};
    return r;
}

static inline size_t fz_left(const fz_reader *r) {
    return r->size - r->pos;
}

static inline uint8_t fz_u8(fz_reader *r) {
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

static inline uint16_t fz_u16(fz_reader *r) {
    uint16_t hi = fz_u8(r);
    return (uint16_t)((hi << 8) | fz_u8(r));
}

static inline uint64_t fz_u64(fz_reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v = (v << 8) | fz_u8(r);
    }
    return v;
}

/* Codes worth hitting on purpose: the int64 edges and values around 2^32. */
static const int64_t fz_edge_codes[8] = {
    INT64_MIN,        INT64_MIN + 1,          INT64_MAX,           INT64_MAX - 1, -1,
    (int64_t)1 << 32, ((int64_t)1 << 32) + 1, -((int64_t)1 << 32),
};

/* A code: small (-8 ... 55), near 1000 (1000 ... 1255), an edge value, or raw. */
static inline int64_t fz_code(fz_reader *r) {
    uint8_t b = fz_u8(r);
    switch (b >> 6) {
    case 0: return (int64_t)(b & 63) - 8;
    case 1: return 1000 + (int64_t)fz_u8(r);
    case 2: return fz_edge_codes[b & 7];
    default: return (int64_t)fz_u64(r);
    }
}

/* Fills buf (capacity cap >= 1) with a NUL-terminated string of up to 7 bytes from the input. */
static inline const char *fz_text(fz_reader *r, char *buf, size_t cap) {
    size_t n = fz_u8(r) & 7u;
    if (n >= cap) {
        n = cap - 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n && fz_left(r) > 0; i++) {
        char c = (char)fz_u8(r);
        if (c == '\0') {
            break;
        }
        buf[k++] = c;
    }
    buf[k] = '\0';
    return buf;
}

#endif /* FUZZ_BYTES_H */
