/* fixture.c — the shared valid catalog for the C tests. */
#include <string.h>

#include "fixture.h"

void fixture_init(fixture *f) {
    memset(f, 0, sizeof *f);
    const errcore_entry_def entries[6] = {
        {550, 2, ERRCORE_FLAG_RETRYABLE, "betaLate", "Beta late", "贝塔晚", NULL},
        {10, 0, ERRCORE_FLAG_REAUTH, "expired", "Session expired", "会话过期", NULL},
        {150, 1, 0, "alphaOne", "Alpha one", NULL, NULL},
        {0, 0, 0, "success", "OK", "成功", NULL},
        {350, 2, ERRCORE_FLAG_SHOW_USER | 0x80u, "betaEarly", "Beta early", "贝塔早", NULL},
        {11, 0, 0, "limited", "Rate limited", "请求过多", NULL},
    };
    const errcore_module_def modules[2] = {
        {"alpha", "Alpha", "阿尔法", NULL},
        {"beta", NULL, NULL, NULL},
    };
    const errcore_range ranges[3] = {{500, 599, 2}, {100, 199, 1}, {300, 399, 2}};
    memcpy(f->entries, entries, sizeof entries);
    memcpy(f->modules, modules, sizeof modules);
    memcpy(f->ranges, ranges, sizeof ranges);
    f->def.success_code = 0;
    f->def.entries = f->entries;
    f->def.entry_count = 6;
    f->def.modules = f->modules;
    f->def.module_count = 2;
    f->def.ranges = f->ranges;
    f->def.range_count = 3;
}

errcore_status fixture_build(fixture *f) {
    return errcore_build(&f->def, f->storage, sizeof f->storage, &f->table, &f->diag);
}
