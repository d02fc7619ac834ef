/*
 * table_build.c — turns a generated synthetic catalog into an errcore_table
 * with errcore_build(), the way an application builds one at run time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CBaselines.h"

/* Longest generated name: "e" + 20 digits + NUL. */
#define CBL_NAME_SIZE 24

int cbl_table_build(size_t total, cbl_built_table *out, char *err, size_t err_size) {
    if (err_size > 0) {
        err[0] = '\0';
    }
    const cbl_synthetic_catalog *cat = cbl_synthetic_catalog_for(total);
    if (!cat) {
        if (err_size > 0) {
            snprintf(err, err_size, "no synthetic table with %zu codes (256 or 4096)", total);
        }
        return -1;
    }
    const cbl_synthetic_entry *src = cat->entries;
    const errcore_range *ranges = cat->ranges;
    size_t entry_count = cat->entry_count;
    size_t range_count = cat->range_count;
    size_t module_count = cat->module_count;
    memset(out, 0, sizeof *out);
    errcore_entry_def *defs = calloc(entry_count, sizeof *defs);
    errcore_module_def *mods = calloc(module_count, sizeof *mods);
    out->names = calloc(entry_count + module_count, CBL_NAME_SIZE);
    if (!defs || !mods || !out->names) {
        free(defs);
        free(mods);
        free(out->names);
        out->names = NULL;
        if (err_size > 0) {
            snprintf(err, err_size, "out of memory building the %zu-code table", total);
        }
        return -1;
    }
    for (size_t i = 0; i < entry_count; i++) {
        char *name = out->names + i * CBL_NAME_SIZE;
        snprintf(name, CBL_NAME_SIZE, "e%lld", (long long)src[i].code);
        defs[i].code = src[i].code;
        defs[i].module = src[i].module;
        defs[i].flags = src[i].flags;
        defs[i].name = name;
        defs[i].message_en = name;
        defs[i].message_zh = NULL;
    }
    for (size_t m = 0; m < module_count; m++) {
        char *name = out->names + (entry_count + m) * CBL_NAME_SIZE;
        snprintf(name, CBL_NAME_SIZE, "m%zu", m + 1);
        mods[m].name = name;
    }
    errcore_catalog_def def = {0, defs, entry_count, mods, module_count, ranges, range_count, NULL, 0};
    errcore_diag diag;
    size_t size = 0;
    errcore_status status = errcore_build_size(&def, &size, &diag);
    if (status == ERRCORE_OK) {
        out->storage = aligned_alloc(8, (size + 7) & ~(size_t)7);
        if (!out->storage) {
            free(defs);
            free(mods);
            cbl_table_free(out);
            if (err_size > 0) {
                snprintf(err, err_size, "out of memory for %zu bytes of table storage", size);
            }
            return -1;
        }
        status = errcore_build(&def, out->storage, size, &out->table, &diag);
    }
    free(defs);
    free(mods);
    if (status != ERRCORE_OK) {
        if (err_size > 0) {
            errcore_diag_format(&diag, err, err_size);
        }
        cbl_table_free(out);
        return (int)status;
    }
    return 0;
}

void cbl_table_free(cbl_built_table *table) {
    if (!table) {
        return;
    }
    free(table->storage);
    free(table->names);
    table->storage = NULL;
    table->names = NULL;
}
