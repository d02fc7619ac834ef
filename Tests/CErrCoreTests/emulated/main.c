/* main.c — make test-avx512-emulated: the batch-path and differential C tests with AVX-512 emulated. */
#include <stdio.h>

#include "check.h"

unsigned long check_passed;
unsigned long check_failed;

int main(void) {
    printf("AVX-512 pass 1 on SIMDe's portable intrinsics (not the CPU's AVX-512 instructions)\n");
    test_batch_paths();
    test_differential();
    printf("%lu passed, %lu failed\n", check_passed, check_failed);
    return check_failed == 0 && check_passed > 0 ? 0 : 1;
}
