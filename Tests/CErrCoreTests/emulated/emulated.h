/*
 * emulated.h — what the C tests call instead of the library's path
 * functions in the build of make test-avx512-emulated (check.h): the same
 * as errcore_classify_batch_using() and errcore_batch_path_available(),
 * except that ERRCORE_BATCH_PATH_AVX512 is always available and runs the
 * AVX-512 pass 1 of Sources/CErrCore/batch_avx512.c compiled on SIMDe's
 * portable versions of its intrinsics (avx512_emulated.c).
 */
#ifndef ERRCORE_TEST_EMULATED_H
#define ERRCORE_TEST_EMULATED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "CErrCore.h"

bool emulated_batch_using(const errcore_table *table, const int64_t *codes, errcore_class *out, size_t count,
                          errcore_batch_path path);
bool emulated_path_available(errcore_batch_path path);

#define CHECK_BATCH_USING    emulated_batch_using
#define CHECK_PATH_AVAILABLE emulated_path_available

#endif
