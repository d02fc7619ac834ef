# scripts/make/cross.mk — the C core compiled freestanding for microcontrollers, and a
# host-side check that the freestanding configuration classifies exactly as
# the regular build. Included by the top-level Makefile; run from the
# repository root.
#
#   make cross            compile Sources/CErrCore/*.c and the built-in catalog's
#                         table (Sources/CErrDefaultCatalog/default_catalog.c)
#                         for every CROSS_TARGETS triple into build/cross/<target>/, print the
#                         .text/.rodata/.data/.bss table, the external symbols,
#                         the stack use of each public function (from
#                         -fstack-usage and the call graph) and the linked
#                         footprint of a classify-only firmware; fails if the
#                         core has any .data/.bss, needs anything beyond
#                         <string.h> functions and compiler helpers,
#                         recurses, or the classify-only Cortex-M4 firmware
#                         has more than CROSS_CLASSIFY_TEXT_MAX (3072) bytes
#                         of text, or with errcore_classify_string() too more
#                         than CROSS_STRINGS_TEXT_MORE (1024) bytes more
#   make cross-size-check only that last check
#   make cross-swift-check  scripts/embedded/swift-check.sh: the SwiftErrCore
#                         target (its files from swift package describe) as
#                         Embedded Swift with CErrCore for armv7em and rv32,
#                         a firmware-style probe linked against it, the sizes
#                         of the linked firmware; fails if the target imports
#                         Foundation (after proving on a copy that the check
#                         catches such an import), if a classify-only
#                         firmware links the Unicode tables, or if on armv7em
#                         it has more than 8 KiB of text or of rodata beyond
#                         the built-in catalog
#   make cross-host-test  build the core freestanding (-ffreestanding -Os,
#                         same headers) with host gcc and clang, link both
#                         next to a regular -O2 build and compare them
#                         (last line: N passed, N failed)
#   make cross-clean      remove build/cross

# The Swift toolchain's clang (it has the ARM and RISC-V back ends and lld).
CROSS_CC ?= $(or $(wildcard /opt/swift/usr/bin/clang),clang)
CROSS_LD ?= $(or $(wildcard $(dir $(CROSS_CC))ld.lld),ld.lld)
CROSS_NM ?= $(or $(wildcard $(dir $(CROSS_CC))llvm-nm),llvm-nm)
CROSS_OBJDUMP ?= $(or $(wildcard $(dir $(CROSS_CC))llvm-objdump),llvm-objdump)
CROSS_READELF ?= readelf
CROSS_BUILD_DIR ?= build/cross
CROSS_TARGETS ?= thumbv7em-none-eabi riscv32-unknown-elf

# Per-target code generation: a Cortex-M4 (Thumb-2; the core has no floating
# point, so the float ABI only matters for linking: pick your firmware's) and
# an RV32IMAC core.
CROSS_TARGET_FLAGS_thumbv7em-none-eabi ?= --target=thumbv7em-none-eabi -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
CROSS_TARGET_FLAGS_riscv32-unknown-elf ?= --target=riscv32-unknown-elf -march=rv32imac -mabi=ilp32

# Embedded/freestanding supplies the <string.h> that bare-metal clang lacks
# (declarations routed to the compiler's builtins; see that header).
CROSS_CPPFLAGS ?= -isystem Embedded/freestanding -Iinclude
CROSS_CFLAGS ?= -std=c11 -ffreestanding -Os -Wall -Wextra -Wpedantic -Werror \
                -ffunction-sections -fdata-sections -fstack-usage

CROSS_SRC_DIR ?= Sources/CErrCore
# The built-in catalog's table (the CErrDefaultCatalog target), linked into the
# classify-only firmware as the table it classifies with.
CROSS_CATALOG_DIR ?= Sources/CErrDefaultCatalog
CROSS_SRCS := $(sort $(wildcard $(CROSS_SRC_DIR)/*.c)) $(CROSS_CATALOG_DIR)/default_catalog.c
CROSS_DEPS := $(wildcard include/*.h include/errcore/*.h $(CROSS_SRC_DIR)/*.h) \
              Embedded/freestanding/string.h scripts/make/cross.mk
CROSS_OBJS_OF = $(patsubst %.c,$(CROSS_BUILD_DIR)/$(1)/%.o,$(notdir $(CROSS_SRCS)))

define CROSS_TARGET_RULES
$(CROSS_BUILD_DIR)/$(1)/%.o: $(CROSS_SRC_DIR)/%.c $(CROSS_DEPS)
	@mkdir -p $$(@D)
	$$(CROSS_CC) $$(CROSS_TARGET_FLAGS_$(1)) $$(CROSS_CFLAGS) $$(CROSS_CPPFLAGS) -c $$< -o $$@

$(CROSS_BUILD_DIR)/$(1)/%.o: $(CROSS_CATALOG_DIR)/%.c $(CROSS_DEPS)
	@mkdir -p $$(@D)
	$$(CROSS_CC) $$(CROSS_TARGET_FLAGS_$(1)) $$(CROSS_CFLAGS) $$(CROSS_CPPFLAGS) -c $$< -o $$@

# A firmware that only classifies with the built-in table: everything else is
# dropped by --gc-sections. External helpers (memcpy, ...) are left unresolved
# on purpose: this measures the core alone.
$(CROSS_BUILD_DIR)/$(1)/classify-only.elf: $(call CROSS_OBJS_OF,$(1))
	$$(CROSS_LD) -static -z norelro --gc-sections --unresolved-symbols=ignore-all \
	    -e errcore_classify -u errcore_default_table -o $$@ $$^

# The same with string codes looked up too (errcore_classify_string).
$(CROSS_BUILD_DIR)/$(1)/classify-strings.elf: $(call CROSS_OBJS_OF,$(1))
	$$(CROSS_LD) -static -z norelro --gc-sections --unresolved-symbols=ignore-all \
	    -e errcore_classify -u errcore_classify_string -u errcore_default_table -o $$@ $$^
endef
$(foreach t,$(CROSS_TARGETS),$(eval $(call CROSS_TARGET_RULES,$(t))))

CROSS_ALL_OBJS := $(foreach t,$(CROSS_TARGETS),$(call CROSS_OBJS_OF,$(t)))
CROSS_ELFS := $(foreach t,$(CROSS_TARGETS),$(CROSS_BUILD_DIR)/$(t)/classify-only.elf \
                $(CROSS_BUILD_DIR)/$(t)/classify-strings.elf)

.PHONY: cross cross-host-test cross-swift-check cross-clean

cross: $(CROSS_ALL_OBJS) $(CROSS_ELFS)
	@test -f $(CROSS_CATALOG_DIR)/default_catalog.c || \
	    { echo "cross: $(CROSS_CATALOG_DIR)/default_catalog.c is missing (the default catalog must be in the build)"; exit 1; }
	@echo "== C core, freestanding -Os, per object (bytes)"
	@READELF="$(CROSS_READELF)" NM="$(CROSS_NM)" sh scripts/embedded/section-sizes.sh $(CROSS_BUILD_DIR) $(CROSS_TARGETS)
	@for t in $(CROSS_TARGETS); do \
	    echo; echo "== $$t: stack use in bytes (own frame; worst chain through the core, an upper bound)"; \
	    OBJDUMP="$(CROSS_OBJDUMP)" sh scripts/embedded/stack-usage.sh $(CROSS_BUILD_DIR)/$$t || exit 1; \
	done
	@echo
	@echo "== linked with --gc-sections, only errcore_classify + errcore_default_table kept (bytes)"
	@READELF="$(CROSS_READELF)" sh scripts/embedded/section-sizes.sh --linked $(CROSS_ELFS)
	@$(MAKE) --no-print-directory cross-size-check

# The classify-only Cortex-M4 firmware stays within CROSS_CLASSIFY_TEXT_MAX bytes of text, and with
# the string lookup too within 1 KiB more.
CROSS_CLASSIFY_TEXT_MAX ?= 3072
CROSS_STRINGS_TEXT_MORE ?= 1024
.PHONY: cross-size-check
cross-size-check: $(CROSS_BUILD_DIR)/thumbv7em-none-eabi/classify-only.elf $(CROSS_BUILD_DIR)/thumbv7em-none-eabi/classify-strings.elf
	@READELF="$(CROSS_READELF)" sh scripts/embedded/section-sizes.sh --linked $^ | \
	    awk -v max=$(CROSS_CLASSIFY_TEXT_MAX) -v more=$(CROSS_STRINGS_TEXT_MORE) ' \
	        NR == 1 { only = $$3; if (only > max) { print "cross: classify-only text " only " bytes, over " max; exit 1 } \
	                  print "cross: classify-only text " only " bytes (at most " max ")" } \
	        NR == 2 { if ($$3 > only + more) { print "cross: with string codes text " $$3 " bytes, over " only " + " more; exit 1 } \
	                  print "cross: with string codes text " $$3 " bytes (" $$3 - only " more; at most " more ")" }'

# ---- host-side equivalence of the freestanding configuration ----------------

CROSS_HOST_DIR := $(CROSS_BUILD_DIR)/host
# The reference: the same sources, regular headers, normal optimisation.
CROSS_HOST_REF_CC ?= gcc
CROSS_HOST_REF_CFLAGS ?= -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror
# The freestanding configuration of `make cross`, minus --target and the
# per-target code generation flags, built by each of these host compilers.
CROSS_HOST_FS_CCS ?= gcc clang
CROSS_HOST_FS_CFLAGS ?= -std=c11 -ffreestanding -Os -Wall -Wextra -Wpedantic -Werror
CROSS_HOST_OBJCOPY ?= objcopy

CROSS_HOST_REF_OBJS := $(patsubst %.c,$(CROSS_HOST_DIR)/ref/%.o,$(notdir $(CROSS_SRCS)))

$(CROSS_HOST_DIR)/ref/%.o: $(CROSS_SRC_DIR)/%.c $(CROSS_DEPS)
	@mkdir -p $(@D)
	$(CROSS_HOST_REF_CC) $(CROSS_HOST_REF_CFLAGS) -Iinclude -c $< -o $@

$(CROSS_HOST_DIR)/ref/%.o: $(CROSS_CATALOG_DIR)/%.c $(CROSS_DEPS)
	@mkdir -p $(@D)
	$(CROSS_HOST_REF_CC) $(CROSS_HOST_REF_CFLAGS) -Iinclude -c $< -o $@

# Each freestanding build is partially linked into one object whose global
# symbols get the prefix fs_<cc>_ (errcore_classify -> fs_gcc_errcore_classify),
# so all builds live side by side in one test program.
define CROSS_HOST_FS_RULES
$(CROSS_HOST_DIR)/fs-$(1)/%.o: $(CROSS_SRC_DIR)/%.c $(CROSS_DEPS)
	@mkdir -p $$(@D)
	$(1) $$(CROSS_HOST_FS_CFLAGS) $$(CROSS_CPPFLAGS) -c $$< -o $$@

$(CROSS_HOST_DIR)/fs-$(1)/%.o: $(CROSS_CATALOG_DIR)/%.c $(CROSS_DEPS)
	@mkdir -p $$(@D)
	$(1) $$(CROSS_HOST_FS_CFLAGS) $$(CROSS_CPPFLAGS) -c $$< -o $$@

$(CROSS_HOST_DIR)/fs-$(1).o: $(patsubst %.c,$(CROSS_HOST_DIR)/fs-$(1)/%.o,$(notdir $(CROSS_SRCS)))
	$(1) -r -nostdlib -o $$@.partial $$^
	nm -g --defined-only $$@.partial | awk 'NF >= 3 { print $$$$3, "fs_$(1)_" $$$$3 }' > $$@.syms
	$$(CROSS_HOST_OBJCOPY) --redefine-syms=$$@.syms $$@.partial $$@
	rm -f $$@.partial
endef
$(foreach c,$(CROSS_HOST_FS_CCS),$(eval $(call CROSS_HOST_FS_RULES,$(c))))

CROSS_HOST_FS_OBJS := $(foreach c,$(CROSS_HOST_FS_CCS),$(CROSS_HOST_DIR)/fs-$(c).o)

$(CROSS_HOST_DIR)/host_equivalence: Embedded/Tests/host_equivalence.c $(CROSS_HOST_REF_OBJS) $(CROSS_HOST_FS_OBJS)
	$(CROSS_HOST_REF_CC) $(CROSS_HOST_REF_CFLAGS) -Iinclude \
	    $(foreach c,$(CROSS_HOST_FS_CCS),-DEMBEDDED_FS_$(c)) \
	    -o $@ Embedded/Tests/host_equivalence.c $(CROSS_HOST_REF_OBJS) $(CROSS_HOST_FS_OBJS)

cross-host-test: $(CROSS_HOST_DIR)/host_equivalence
	$(CROSS_HOST_DIR)/host_equivalence

cross-swift-check:
	sh scripts/embedded/swift-check.sh

cross-clean:
	rm -rf $(CROSS_BUILD_DIR)
