/*
 * classify.c — a plain C consumer of an installed CErrCore: classifies the
 * codes given on the command line (or a built-in list) with the default
 * catalog and prints tier, module, name and message, in English or Chinese.
 *
 *   cc classify.c $(pkg-config --cflags --libs cerrcore) -o classify                 (shared)
 *   cc classify.c $(pkg-config --cflags --libs cerrcore-static) -o classify-static   (static)
 *   ./classify 11001 11210005 11219999 4294978297
 *   ./classify --zh 11001
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CErrCore.h>
#include <errcore_default_catalog.h>

static int print_code(const errcore_table *table, const char *arg, errcore_lang lang) {
    char *end = NULL;
    errno = 0;
    long long value = strtoll(arg, &end, 10);
    if (errno != 0 || end == arg || *end != '\0') {
        fprintf(stderr, "not a 64-bit integer code: \"%s\"\n", arg);
        return 1;
    }
    errcore_class c = errcore_classify(table, (int64_t)value);
    char message[256];
    errcore_describe(table, (int64_t)value, lang, message, sizeof message);
    const char *module = errcore_module_name(table, errcore_class_module(c));
    const char *name = errcore_entry_name(table, errcore_class_entry(c));
    printf("%lld\t%s\t%s\t%s\t%s\n", value, errcore_tier_name(errcore_class_tier(c)), module ? module : "-",
           name ? name : "-", message);
    return 0;
}

/*
 * The library the loader found must be one these headers describe: the same
 * MAJOR.MINOR before 1.0.0 (the same MAJOR from 1.0.0 on), and not older.
 */
static int library_matches_headers(void) {
    int lib = errcore_version();
    int same = ERRCORE_VERSION_MAJOR == 0 ? lib / 1000 == ERRCORE_VERSION_NUMBER / 1000
                                          : lib / 1000000 == ERRCORE_VERSION_NUMBER / 1000000;
    if (!same || lib < ERRCORE_VERSION_NUMBER) {
        fprintf(stderr, "built for CErrCore %s, running with %s\n", ERRCORE_VERSION_STRING, errcore_version_string());
        return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    if (!library_matches_headers()) {
        return 1;
    }
    const errcore_table *table = errcore_default_table();
    errcore_diag diag;
    if (errcore_validate(table, &diag) != ERRCORE_OK) {
        char why[160];
        errcore_diag_format(&diag, why, sizeof why);
        fprintf(stderr, "default table invalid: %s\n", why);
        return 1;
    }
    errcore_lang lang = ERRCORE_LANG_EN;
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--zh") == 0) {
        lang = ERRCORE_LANG_ZH_HANS;
        first = 2;
    }
    static const char *const defaults[] = {"0", "11001", "11210005", "11219999", "4294978297"};
    int failures = 0;
    if (first >= argc) {
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
            failures += print_code(table, defaults[i], lang);
        }
    }
    for (int i = first; i < argc; i++) {
        failures += print_code(table, argv[i], lang);
    }
    return failures == 0 ? 0 : 1;
}
