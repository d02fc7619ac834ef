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
#   make upgrade-check        a C program's 0.2.0 mistakes are compile errors under this version
#                             (scripts/c/upgrade-check.sh, with $(CC))
#   make gen CATALOG=FILE     your catalog's C table for your build: build/gen/<file>.c and .h
#                             (OUT=DIR/NAME.c elsewhere; scripts/make/gen.mk)
#   make cross                the core, freestanding, for Cortex-M4 and RV32 (scripts/make/cross.mk)
#   make test-avx512-emulated the batch's AVX-512 path on SIMDe's portable intrinsics, for a CPU
#                             without AVX-512 (needs libsimde-dev; scripts/make/emulated.mk)
#   make check                everything README's test command runs
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

ifeq ($(SANITIZE),1)
  CC := clang
  BUILD := build/sanitize
  SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
else
  BUILD := build
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

-include scripts/make/*.mk
