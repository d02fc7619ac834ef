/* main.c — runs every C test group and prints the closing "N passed, N failed" line. */
#include <stdio.h>
#include <string.h>

#include "check.h"

unsigned long check_passed;
unsigned long check_failed;

typedef struct group {
    const char *name;
    void (*run)(void);
} group;

int main(int argc, char **argv) {
    static const group groups[] = {
        {"status", test_status},
        {"validate", test_validate},
        {"build", test_build},
        {"classify", test_classify},
        {"text", test_text},
        {"differential", test_differential},
        {"check", test_check},
        {"sort", test_sort},
        {"front", test_front},
        {"version", test_version},
        {"languages", test_languages},
        {"language rule", test_language_rule},
        {"batch_paths", test_batch_paths},
        {"strings", test_strings},
    };
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        if (argc > 1 && strcmp(argv[1], groups[i].name) != 0) {
            continue;
        }
        unsigned long before_pass = check_passed, before_fail = check_failed;
        groups[i].run();
        printf("%s: %lu passed, %lu failed\n", groups[i].name, check_passed - before_pass, check_failed - before_fail);
    }
    printf("%lu passed, %lu failed\n", check_passed, check_failed);
    return check_failed == 0 && check_passed > 0 ? 0 : 1;
}
