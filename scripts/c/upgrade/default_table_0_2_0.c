/*
 * default_table_0_2_0.c — the built-in catalog as a 0.2.0 program reached it: with CErrCore.h
 * alone. errcore_default_table() is declared in errcore_default_catalog.h since 0.3.0; without
 * it C would declare the function implicitly as returning int, truncate the pointer and crash.
 * CErrCore.h makes the call a compile error naming the header instead, with any compiler flags.
 */
#include <stdio.h>

#include "CErrCore.h"

int main(void) {
    const errcore_table *table = errcore_default_table();
    printf("%zu entries\n", table->entry_count);
    return 0;
}
