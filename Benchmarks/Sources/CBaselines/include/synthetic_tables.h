/*
 * synthetic_tables.h — the generated 256- and 4,096-code catalogs
 * (synthetic_tables.c, written by Benchmarks/tools/generate-tables.py).
 * Module m owns [20,000,000 + m*10,000, 20,000,000 + m*10,000 + 9,999];
 * entry 0 is the success code 0; base codes lie in [1,000, 99,999].
 */
#ifndef CBASELINES_SYNTHETIC_TABLES_H
#define CBASELINES_SYNTHETIC_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "CErrCore.h"

/* One generated code: its module id (0 = base tier or success) and flags. */
typedef struct cbl_synthetic_entry {
    int64_t code;
    uint16_t module;
    uint8_t flags;
} cbl_synthetic_entry;

/* A generated catalog: entries ascending by code, ranges ascending, module ids 1 ... module_count. */
typedef struct cbl_synthetic_catalog {
    const cbl_synthetic_entry *entries;
    size_t entry_count;
    const errcore_range *ranges;
    size_t range_count;
    size_t module_count;
} cbl_synthetic_catalog;

/* The generated catalog with `total` codes (256 or 4096), or NULL for any other count. */
const cbl_synthetic_catalog *cbl_synthetic_catalog_for(size_t total);

#endif /* CBASELINES_SYNTHETIC_TABLES_H */
