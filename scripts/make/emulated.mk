# scripts/make/emulated.mk — `make test-avx512-emulated`: the AVX-512 path of errcore_classify_batch()
# on a CPU without AVX-512 (Tests/CErrCoreTests/emulated). Sources/CErrCore/batch_avx512.c is
# compiled on SIMDe's portable intrinsics (Debian: apt-get install libsimde-dev; SIMDE_INCLUDE=DIR
# elsewhere) and the batch-path and differential C tests run it as ERRCORE_BATCH_PATH_AVX512 next to
# every path the CPU has (last line: N passed, N failed). It proves the path's logic, not the CPU's
# AVX-512 instructions: on a CPU that has them, `make test` runs the real path.

SIMDE_INCLUDE ?= /usr/include
EMU_DIR := $(BUILD)/emulated
EMU_TESTS := $(TEST_DIR)/test_batch_paths.c $(TEST_DIR)/test_differential.c $(TEST_DIR)/build_bytes.c
EMU_FLAGS := $(CSTD) $(WARN) $(OPT) $(SANFLAGS) -Iinclude -I$(TEST_DIR) -include Tests/CErrCoreTests/emulated/emulated.h

.PHONY: test-avx512-emulated
test-avx512-emulated: $(BUILD)/libcerrcore.a $(EMU_DIR)/avx512_emulated.o
	@test -f $(SIMDE_INCLUDE)/simde/x86/avx512.h || \
	    { echo "test-avx512-emulated: no SIMDe headers in $(SIMDE_INCLUDE) (apt-get install libsimde-dev)"; exit 1; }
	@mkdir -p $(EMU_DIR)
	$(CC) $(EMU_FLAGS) -o $(EMU_DIR)/tests Tests/CErrCoreTests/emulated/main.c $(EMU_TESTS) $(BUILD)/libcerrcore.a \
	    $(EMU_DIR)/avx512_emulated.o
	./$(EMU_DIR)/tests

# SIMDe's headers are not -Wpedantic clean: this one file is compiled without -Werror, and without
# clang's notes that 512-bit values passed without AVX-512 enabled take another ABI (-Wno-psabi:
# they never leave this file).
$(EMU_DIR)/avx512_emulated.o: Tests/CErrCoreTests/emulated/avx512_emulated.c Sources/CErrCore/batch_avx512.c \
  Sources/CErrCore/internal.h Tests/CErrCoreTests/emulated/emulated.h $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -Wno-psabi $(OPT) $(SANFLAGS) -Iinclude -I$(SIMDE_INCLUDE) -c $< -o $@
