/*
 * fuzz_catalog.h — decodes an errcore_catalog_def from fuzz input: up to
 * 8 modules, 16 ranges and 48 entries, as many as the bytes provide (the
 * counts passed to CErrCore are always the numbers actually decoded).
 * Names are sometimes NULL or empty, range modules sometimes 0 or
 * undeclared, ranges sometimes empty or overlapping, and entry codes are
 * drawn near the decoded ranges so that in-range, boundary and colliding
 * codes are common.
 */
#ifndef FUZZ_CATALOG_H
#define FUZZ_CATALOG_H

#include <stdint.h>
#include <string.h>

#include "CErrCore.h"
#include "fuzz_bytes.h"

#define MAX_MODULES 8
#define MAX_RANGES  16
#define MAX_ENTRIES 48
#define TEXT_CAP    8

typedef struct decoded_def {
    errcore_catalog_def def;
    errcore_module_def modules[MAX_MODULES];
    errcore_range ranges[MAX_RANGES];
    errcore_entry_def entries[MAX_ENTRIES];
    char module_text[MAX_MODULES][3][TEXT_CAP];
    char entry_text[MAX_ENTRIES][3][TEXT_CAP];
    /* Flattened for the reference. */
    int64_t codes[MAX_ENTRIES];
    uint16_t entry_module[MAX_ENTRIES];
} decoded_def;

/* A name: NULL (1 in 16), "" (1 in 16) or a short string from the input. */
static inline const char *decode_name(fz_reader *r, char *buf) {
    uint8_t choice = fz_u8(r) & 15u;
    if (choice == 0) {
        return NULL;
    }
    if (choice == 1) {
        return "";
    }
    fz_text(r, buf, TEXT_CAP);
    if (buf[0] == '\0') {
        buf[0] = 'n';
        buf[1] = '\0';
    }
    return buf;
}

/* An optional text: NULL (1 in 4) or a short string (possibly empty). */
static inline const char *decode_optional(fz_reader *r, char *buf) {
    return (fz_u8(r) & 3u) == 0 ? NULL : fz_text(r, buf, TEXT_CAP);
}

static inline int64_t add_saturating(int64_t a, int64_t b) {
    int64_t out;
    return __builtin_add_overflow(a, b, &out) ? (b < 0 ? INT64_MIN : INT64_MAX) : out;
}

/* Decodes as many modules, ranges and entries as the bytes provide (up to the caps). */
static inline void decode_def(fz_reader *r, decoded_def *d) {
    memset(d, 0, sizeof *d);
    d->def.success_code = fz_code(r);
    size_t want_m = fz_u8(r) % (MAX_MODULES + 1);
    size_t want_r = fz_u8(r) % (MAX_RANGES + 1);
    size_t want_n = fz_u8(r) % (MAX_ENTRIES + 1);
    size_t m = 0, nr = 0, n = 0;
    for (; m < want_m && fz_left(r) > 0; m++) {
        errcore_module_def *md = &d->modules[m];
        md->name = decode_name(r, d->module_text[m][0]);
        md->title_en = decode_optional(r, d->module_text[m][1]);
        md->title_zh = decode_optional(r, d->module_text[m][2]);
    }
    for (; nr < want_r && fz_left(r) > 0; nr++) {
        errcore_range *g = &d->ranges[nr];
        g->first = fz_code(r);
        uint8_t shape = fz_u8(r);
        g->last = (shape & 0x80u) ? fz_code(r) : add_saturating(g->first, (int64_t)(shape & 0x3Fu) - 2);
        g->module = (uint16_t)(fz_u8(r) % (m + 2)); /* 0 and m + 1 are undeclared */
    }
    for (; n < want_n && fz_left(r) > 0; n++) {
        errcore_entry_def *e = &d->entries[n];
        uint8_t how = fz_u8(r);
        if (nr > 0 && (how & 0x80u)) {
            /* Near a range (often inside it), usually claiming its module. */
            const errcore_range *g = &d->ranges[how % nr];
            e->code = add_saturating(g->first, (int64_t)(fz_u8(r) & 15u) - 1);
            e->module = (how & 0x40u) ? (uint16_t)(fz_u8(r) % (m + 2)) : g->module;
        } else {
            e->code = fz_code(r);
            e->module = (how & 0x40u) ? (uint16_t)(fz_u8(r) % (m + 2)) : 0;
        }
        e->flags = fz_u8(r);
        e->name = decode_name(r, d->entry_text[n][0]);
        e->message_en = decode_optional(r, d->entry_text[n][1]);
        e->message_zh = decode_optional(r, d->entry_text[n][2]);
        d->codes[n] = e->code;
        d->entry_module[n] = e->module;
    }
    d->def.modules = d->modules;
    d->def.module_count = m;
    d->def.ranges = d->ranges;
    d->def.range_count = nr;
    d->def.entries = d->entries;
    d->def.entry_count = n;
}

#endif /* FUZZ_CATALOG_H */
