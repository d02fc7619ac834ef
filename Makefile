# Makefile — builds and tests CErrCore as a plain C library (no Swift needed).
#
#   make                      build/libcerrcore.a and build/libcerrcore.so
#   make test                 C tests (last line: "N passed, N failed")
#   make test SANITIZE=1      the same under AddressSanitizer + UndefinedBehaviorSanitizer (clang)
#   make test CC=clang        any compiler; both gcc and clang must stay -Werror clean
#   make install PREFIX=DIR   headers, both libraries, cerrcore.pc and cerrcore-static.pc
#   make example PREFIX=DIR   builds Examples/pkgconfig against the installed copy via pkg-config,
#                             shared and static, runs both and checks their output and NEEDED entries
#                             (the shared one needs exactly the soname below)
#   make version              prints the version and the soname
#   make check-exports        build/libcerrcore.so exports exactly the functions of include/*.h,
#                             and so does a plain -shared build of the sources without any flags
#   make check-header-links   SwiftPM's header folders link include/*.h, each header once, no copies
#                             (scripts/c/header-links.sh, and its self-test)
#   make upgrade-check        a C program's 0.2.0 mistakes are compile errors under this version
#                             (scripts/c/upgrade-check.sh, with $(CC))
#   make gen CATALOG=FILE     your catalog's C table for your build: build/gen/<file>.c and .h
#                             (OUT=DIR/NAME.c elsewhere; scripts/make/gen.mk)
#   make cross                the core, freestanding, for Cortex-M4 and RV32 (scripts/make/cross.mk)
#   make test-portable-multiply the string hash's 32-bit targets' multiplication, tested here
#   make test-avx512-emulated the batch's AVX-512 path on SIMDe's portable intrinsics, for a CPU
#                             without AVX-512 (needs libsimde-dev)
#   make check                everything README's test command runs (below, "make check")
#   make bench-quick          a quick C timing of the classifier (a benchmark, not a test)
#
# Version: written once, in include/errcore_version.h (ERRCORE_VERSION_MAJOR/MINOR/PATCH);
# scripts/c/version.sh reads it (and fails the build when the header is inconsistent) for
# both .pc files and the shared library's names. Semantic versioning; the soname moves with
# every breaking change of the ABI:
#   before 1.0.0  soname libcerrcore.so.MAJOR.MINOR  (0.3.0: libcerrcore.so.0.3; a minor bump breaks)
#   from 1.0.0    soname libcerrcore.so.MAJOR        (1.2.3: libcerrcore.so.1)
# installed as lib/libcerrcore.so.MAJOR.MINOR.PATCH, with the soname and libcerrcore.so as
# symlinks to it. scripts/compat-check.sh checks that a breaking change came with such a bump.
#
# Linking an installed copy through pkg-config:
#   shared  cc app.c $(pkg-config --cflags --libs cerrcore)          -> -lcerrcore (libcerrcore.so)
#   static  cc app.c $(pkg-config --cflags --libs cerrcore-static)   -> <libdir>/libcerrcore.a
# (pkg-config --static --libs cerrcore still says -lcerrcore, which the linker resolves to the
# .so when both are installed; cerrcore-static names the archive itself.)

CC ?= cc
PREFIX ?= /usr/local
# MAJOR.MINOR.PATCH and the soname, from include/errcore_version.h (see the top of this file).
VERSION := $(shell sh scripts/c/version.sh)
ifeq ($(VERSION),)
  $(error cannot read the version from include/errcore_version.h (scripts/c/version.sh says why, above))
endif
SONAME := $(shell sh scripts/c/version.sh --soname)
WARN := -Wall -Wextra -Wpedantic -Werror
CSTD := -std=c11
OPT ?= -O2

# BUILD: where objects and libraries go (make check builds each compiler in a folder of its own).
ifeq ($(SANITIZE),1)
  CC := clang
  BUILD := build/sanitize
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
else
  BUILD ?= build
  SANFLAGS :=
endif

CFLAGS_ALL := $(CSTD) $(WARN) $(OPT) $(SANFLAGS) -Iinclude $(CFLAGS)
# The library exports only what the headers mark ERRCORE_API (make check-exports proves it).
LIB_CFLAGS := -fvisibility=hidden
LIB_LDFLAGS := -Wl,--version-script=scripts/c/exports.map
# The core, and the built-in catalog's table (errcore_default_table(), include/errcore_default_catalog.h;
# in SwiftPM the CErrDefaultCatalog target), which the C library carries too.
DEFAULT_CATALOG_DIR := Sources/CErrDefaultCatalog
CORE_SRCS := $(sort $(wildcard Sources/CErrCore/*.c)) $(DEFAULT_CATALOG_DIR)/default_catalog.c
CORE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(notdir $(CORE_SRCS)))
PIC_OBJS := $(patsubst %.c,$(BUILD)/pic/%.o,$(notdir $(CORE_SRCS)))
TEST_DIR := Tests/CErrCoreTests/c
TEST_SRCS := $(sort $(wildcard $(TEST_DIR)/*.c))
TEST_OBJS := $(patsubst $(TEST_DIR)/%.c,$(BUILD)/test/%.o,$(TEST_SRCS))
HEADERS := $(wildcard include/*.h)

.PHONY: all test install example check-exports upgrade-check check clean version
all: $(BUILD)/libcerrcore.a $(BUILD)/libcerrcore.so

$(BUILD)/obj/%.o: Sources/CErrCore/%.c $(HEADERS) Sources/CErrCore/internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/pic/%.o: Sources/CErrCore/%.c $(HEADERS) Sources/CErrCore/internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIB_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/obj/%.o: $(DEFAULT_CATALOG_DIR)/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/pic/%.o: $(DEFAULT_CATALOG_DIR)/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIB_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/libcerrcore.a: $(CORE_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/libcerrcore.so: $(PIC_OBJS) scripts/c/exports.map
	$(CC) $(SANFLAGS) -shared -Wl,-soname,$(SONAME) $(LIB_LDFLAGS) -o $@ $(PIC_OBJS)

# The same library without -fvisibility=hidden or the version script, as SwiftPM or a consumer's
# own build compiles the sources: only ERRCORE__INTERNAL keeps the internals out of it.
PLAIN_OBJS := $(patsubst %.c,$(BUILD)/plain/%.o,$(notdir $(CORE_SRCS)))

$(BUILD)/plain/%.o: Sources/CErrCore/%.c $(HEADERS) Sources/CErrCore/internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -c $< -o $@

$(BUILD)/plain/%.o: $(DEFAULT_CATALOG_DIR)/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -c $< -o $@

$(BUILD)/plain/libcerrcore.so: $(PLAIN_OBJS)
	$(CC) $(SANFLAGS) -shared -o $@ $^

$(BUILD)/test/%.o: $(TEST_DIR)/%.c $(HEADERS) $(wildcard $(TEST_DIR)/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(TEST_DIR) -c $< -o $@

$(BUILD)/c-tests: $(TEST_OBJS) $(BUILD)/libcerrcore.a
	$(CC) $(SANFLAGS) -o $@ $(TEST_OBJS) $(BUILD)/libcerrcore.a

test: $(BUILD)/c-tests
	./$(BUILD)/c-tests

# The string hash's multiplication as 32-bit targets do it (four 32-bit products, no 128-bit
# integers), built and checked on this machine: its pinned hashes must come out the same.
.PHONY: test-portable-multiply
test-portable-multiply:
	$(MAKE) BUILD=$(BUILD)/portable-multiply CFLAGS="$(CFLAGS) -DERRCORE__PORTABLE_MULTIPLY" \
	    $(BUILD)/portable-multiply/c-tests
	./$(BUILD)/portable-multiply/c-tests strings

install: $(BUILD)/libcerrcore.a $(BUILD)/libcerrcore.so
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/CErrCore.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/errcore_*.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/libcerrcore.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libcerrcore.so $(DESTDIR)$(PREFIX)/lib/libcerrcore.so.$(VERSION)
	ln -sf libcerrcore.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libcerrcore.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' cerrcore.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/cerrcore.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' cerrcore-static.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/cerrcore-static.pc

# Builds the example exactly as a consumer would: only pkg-config knows where CErrCore is.
example:
	@test -f $(PREFIX)/lib/pkgconfig/cerrcore.pc || { echo "no cerrcore.pc under $(PREFIX): run make install PREFIX=$(PREFIX) first"; exit 1; }
	$(MAKE) -C Examples/pkgconfig clean
	$(MAKE) -C Examples/pkgconfig PKG_CONFIG_PATH=$(abspath $(PREFIX))/lib/pkgconfig SONAME=$(SONAME) run run-static check

check-exports: $(BUILD)/libcerrcore.so $(BUILD)/plain/libcerrcore.so
	sh scripts/c/check-exports.sh $(BUILD)/libcerrcore.so $(HEADERS)
	sh scripts/c/check-exports.sh --linker-symbols $(BUILD)/plain/libcerrcore.so $(HEADERS)

upgrade-check: $(BUILD)/libcerrcore.a
	CC="$(CC)" sh scripts/c/upgrade-check.sh $(BUILD)/libcerrcore.a

version:
	@echo "$(VERSION) $(SONAME)"

clean:
	rm -rf build

# ---- the AVX-512 path on emulated intrinsics ------------------------------------------------------
# The AVX-512 path of errcore_classify_batch() on a CPU without AVX-512 (Tests/CErrCoreTests/emulated):
# Sources/CErrCore/batch_avx512.c compiled on SIMDe's portable intrinsics (Debian: libsimde-dev;
# SIMDE_INCLUDE=DIR elsewhere), run by the batch-path and differential C tests as
# ERRCORE_BATCH_PATH_AVX512 next to every path the CPU has (last line: N passed, N failed). It proves
# the path's logic, not the CPU's AVX-512 instructions: on a CPU that has them, `make test` runs the
# real path.
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

.PHONY: bench-quick
bench-quick: $(BUILD)/libcerrcore.a
	$(CC) $(CSTD) $(WARN) -O2 -Iinclude Benchmarks/tools/quick_bench.c $(BUILD)/libcerrcore.a -o $(BUILD)/quick_bench
	./$(BUILD)/quick_bench

# ---- make check: every test README promises ----------------------------------------------------
# 1. The C library, four chains side by side (make -j2, output grouped per chain):
#    - gcc (build/gcc): the C tests, the shared library's exports (exactly the public API), a 0.2.0
#      program's mistakes as compile errors (upgrade-check);
#    - clang (build/clang): the same, the AVX-512 path on emulated intrinsics, then installed into
#      build/check-install and the pkg-config example linked against it, shared and static
#      (readelf -d proves which needs libcerrcore.so);
#    - the C tests under ASan+UBSan (clang, build/sanitize);
#    - the freestanding cross build (sizes, stack, host equivalence) and the Embedded Swift check.
# 2. `swift test`, but the simulated-time suite (DefaultsOverTimeTests), which then runs alone so
#    that its time is its own.
# 3. make gen's table for a catalog of one's own (Examples/Shop's), compiled and run (check-gen).
# Each part prints its seconds. Swift Testing records a backtrace of every error thrown in the test
# process; the simulated-time suite throws one for each of millions of refused and failed requests,
# which makes it about 30 % slower, so both runs turn that off (a failing test still says where).
CHECK_PREFIX := $(CURDIR)/build/check-install
SWIFT_TEST := SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 swift test
timed = t0=$$(date +%s); $(1); status=$$?; echo "make check: $(2) took $$(( $$(date +%s) - t0 )) s"; exit $$status

.PHONY: check check-c check-gcc check-clang check-sanitize check-cross check-swift check-over-time check-header-links
check:
	@$(call timed,$(MAKE) -j2 --output-sync=target check-c,the C library)
	@$(call timed,$(MAKE) check-swift,swift test)
	@$(call timed,$(MAKE) check-over-time,the simulated-time suite alone)
	@$(call timed,$(MAKE) check-gen,make gen's table)

check-c: check-header-links check-gcc check-clang check-sanitize check-cross
check-header-links:
	sh scripts/c/header-links.sh --self-test
	sh scripts/c/header-links.sh
check-gcc:
	$(MAKE) CC=gcc BUILD=build/gcc test check-exports upgrade-check test-portable-multiply
check-clang:
	$(MAKE) CC=clang BUILD=build/clang test check-exports upgrade-check test-avx512-emulated
	$(MAKE) CC=clang BUILD=build/clang install PREFIX=$(CHECK_PREFIX)
	$(MAKE) CC=clang BUILD=build/clang example PREFIX=$(CHECK_PREFIX)
check-sanitize:
	$(MAKE) test SANITIZE=1
check-cross:
	$(MAKE) cross cross-host-test
	sh scripts/embedded/swift-check.sh

check-swift:
	swift build --build-tests
	$(SWIFT_TEST) --skip-build --skip DefaultsOverTimeTests

check-over-time:
	$(SWIFT_TEST) --skip-build --filter DefaultsOverTimeTests

-include scripts/make/*.mk
