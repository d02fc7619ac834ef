/* build_bytes.h — errcore_build()'s output as a function of the definition alone. */
#ifndef ERRCORE_TEST_BUILD_BYTES_H
#define ERRCORE_TEST_BUILD_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "CErrCore.h"

/*
 * Builds def into three heap storages of errcore_build_size() bytes and 64 more, filled first with
 * 0x00, 0xFF and random bytes (from *state), and returns whether each build succeeded, the first
 * errcore_build_size() bytes are the same in all three, the table's arrays lie at the same offsets,
 * and the 64 bytes after them kept their fill. On false, why[] says what differed.
 */
bool build_bytes_agree(const errcore_catalog_def *def, uint64_t *state, char *why, size_t why_size);

#endif
