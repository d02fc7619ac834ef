/* fixture.h — a small valid catalog definition that tests mutate into each invalid shape. */
#ifndef ERRCORE_TEST_FIXTURE_H
#define ERRCORE_TEST_FIXTURE_H

#include <stdalign.h>

#include "CErrCore.h"

/* Modules: 1 "alpha" owns [100, 199]; 2 "beta" owns [300, 399] and [500, 599]. */
typedef struct fixture {
    errcore_entry_def entries[6];
    errcore_module_def modules[2];
    errcore_range ranges[3];
    errcore_catalog_def def;
    alignas(8) unsigned char storage[4096];
    errcore_table table;
    errcore_diag diag;
} fixture;

/* Fills f with the valid catalog (entries deliberately unsorted). */
void fixture_init(fixture *f);
/* errcore_build() of f->def into f->storage / f->table / f->diag. */
errcore_status fixture_build(fixture *f);

#endif
