/*
 * own_catalog.c — a C program that classifies with its own catalog: the shop catalog of
 * Examples/Shop, whose table `make gen` writes for the program's build.
 *
 *   make gen CATALOG=Examples/Shop/Sources/ShopErrors/catalog.json OUT=build/gen/shop_catalog.c
 *   cc -Ibuild/gen own_catalog.c build/gen/shop_catalog.c $(pkg-config --cflags --libs cerrcore) -o own_catalog
 *   ./own_catalog 401 20001 20999
 *
 * `make check-gen` builds it with gcc and clang and compares its output with own_catalog.expected.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <CErrCore.h>

#include "shop_catalog.h"

static int print_code(const errcore_table *table, const char *arg) {
    char *end = NULL;
    errno = 0;
    long long value = strtoll(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0') {
        fprintf(stderr, "not a 64-bit integer code: \"%s\"\n", arg);
        return 1;
    }
    errcore_class c = errcore_classify(table, (int64_t)value);
    char message[256];
    errcore_describe(table, (int64_t)value, ERRCORE_LANG_EN, message, sizeof message);
    const char *module = errcore_module_name(table, errcore_class_module(c));
    const char *name = errcore_entry_name(table, errcore_class_entry(c));
    printf("%lld\t%s\t%s\t%s\t%s%s\n", value, errcore_tier_name(errcore_class_tier(c)), module ? module : "-",
           name ? name : "-", message, (errcore_class_flags(c) & ERRCORE_FLAG_REAUTH) ? "\t(sign in again)" : "");
    return 0;
}

int main(int argc, char **argv) {
    const errcore_table *table = errcore_shop_table();
    errcore_diag diag;
    if (errcore_validate(table, &diag) != ERRCORE_OK) {
        char why[160];
        errcore_diag_format(&diag, why, sizeof why);
        fprintf(stderr, "shop table invalid: %s\n", why);
        return 1;
    }
    if (argc > 1) {
        int status = 0;
        for (int i = 1; i < argc; i++) {
            status |= print_code(table, argv[i]);
        }
        return status;
    }
    static const char *const codes[] = {"0", "401", "429", "20001", "20999", "30002", "11001"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        print_code(table, codes[i]);
    }
    printf("module payment is id %u\n", (unsigned)errcore_module_find(table, "payment"));
    return 0;
}
