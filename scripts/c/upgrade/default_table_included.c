/*
 * default_table_included.c — the built-in catalog reached as 0.3.0 documents it, with
 * errcore_default_catalog.h included after CErrCore.h (UPGRADE_HEADERS_REVERSED: before it).
 * Must compile under -Wall -Wextra -Wpedantic -Werror in both orders and find 11001.
 */
#include <stdio.h>

#ifdef UPGRADE_HEADERS_REVERSED
#include "errcore_default_catalog.h"
#include "CErrCore.h"
#else
#include "CErrCore.h"
#include "errcore_default_catalog.h"
#endif

int main(void) {
    const errcore_table *table = errcore_default_table();
    int ok = errcore_class_tier(errcore_classify(table, 11001)) == ERRCORE_TIER_BASE;
    puts(ok ? "classified" : "WRONG");
    return ok ? 0 : 1;
}
