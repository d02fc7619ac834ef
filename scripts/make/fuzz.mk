# scripts/make/fuzz.mk — libFuzzer targets (fuzz/); included by the top-level Makefile.
#
#   make fuzz                     builds every target and fuzzes each for FUZZ_SECONDS (default 60)
#   make -j2 -k fuzz              two targets at a time, every one even after one fails (CI)
#   make fuzz FUZZ_SECONDS=300    longer runs
#   make fuzz FUZZ_TARGETS=classify_fuzz   only some targets
#   make fuzz-regress             runs each target once over its committed corpus (fast; for CI)
#   make fuzz-build               only builds build/fuzz/<target>
#   FUZZ_DIR=DIR                  binaries and scratch corpora elsewhere (default build/fuzz)
#   FUZZ_TIMEOUT=S                an input running longer than S seconds is a finding (default 10)
#
# Targets: build_fuzz and classify_fuzz (C, the core), envelope_fuzz (Swift, the envelope parser
# in Sources/SwiftErr/Envelope and errcat classify's chunk reader), catalog_fuzz (Swift, catalog
# files: reader, checks, C build and both generators). Each runs over a scratch copy of
# fuzz/corpus/<target> in build/fuzz/work/<target>, one process at a time, with
# -timeout=FUZZ_TIMEOUT and fuzz/<target>.dict when there is one; a crash, timeout or
# out-of-memory input is left there. Needs the Swift toolchain's clang (it ships libFuzzer) and
# swiftc.

FUZZ_TOOLCHAIN ?= $(patsubst %/swiftc,%,$(firstword $(wildcard /opt/swift/usr/bin/swiftc) $(shell command -v swiftc 2>/dev/null)))
FUZZ_CLANG ?= $(FUZZ_TOOLCHAIN)/clang
FUZZ_SWIFTC ?= $(FUZZ_TOOLCHAIN)/swiftc
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_DIR ?= build/fuzz
FUZZ_C_TARGETS := build_fuzz classify_fuzz strings_fuzz
FUZZ_SWIFT_TARGETS := envelope_fuzz catalog_fuzz
FUZZ_TARGETS ?= $(FUZZ_C_TARGETS) $(FUZZ_SWIFT_TARGETS)
FUZZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Wpedantic -Werror -g -O1 -fno-omit-frame-pointer \
  $(FUZZ_SAN) -fuse-ld=lld -Iinclude -Ifuzz -ITests/CErrCoreTests/c
FUZZ_CORE_SRCS := $(sort $(wildcard Sources/CErrCore/*.c))
FUZZ_C_DEPS := $(FUZZ_CORE_SRCS) $(wildcard include/*.h) Sources/CErrCore/internal.h $(wildcard fuzz/*.h) \
  Tests/CErrCoreTests/c/reference.h
FUZZ_ENVELOPE_SRCS := $(sort $(wildcard Sources/SwiftErr/Envelope/*.swift)) Sources/SwiftErr/JSON/JSONScanner.swift \
  Sources/SwiftErr/JSON/UTF8SequenceShape.swift \
  Sources/ErrcatKit/Classify/LineReader.swift Tests/ErrcatKitTests/Support/EnvelopeReference.swift \
  fuzz/envelope_fuzz.swift
# catalog_fuzz: three modules over the C core (objects instrumented; only the last links libFuzzer's
# main), as SwiftPM builds them: SwiftErrCore; SwiftErr holding only the JSON scanner (and the
# file that re-exports SwiftErrCore); and SwiftErrCatalogFile holding the catalog reader, the
# generators and the target (the generators' `import SwiftErrCatalogFile` is then the module itself:
# swiftc warns that it ignores it). One package name, so `package` declarations are shared.
# ReloadableCatalog+File.swift is left out: it extends SwiftErr's ReloadableCatalog, which that
# small SwiftErr does not hold, and adds no parsing (it calls the reader the target fuzzes).
FUZZ_CATALOG_DIR := $(FUZZ_DIR)/catalog
FUZZ_CORE_SWIFT_SRCS := $(sort $(shell find Sources/SwiftErrCore -name '*.swift' 2>/dev/null))
FUZZ_JSON_SRCS := Sources/SwiftErr/SwiftErr.swift $(sort $(wildcard Sources/SwiftErr/JSON/*.swift)) \
  Sources/SwiftErr/Envelope/JSONValueKind.swift $(sort $(wildcard Sources/SwiftErr/Shapes/*.swift))
FUZZ_CATALOG_SRCS := $(sort $(filter-out Sources/SwiftErrCatalogFile/ReloadableCatalog+File.swift, \
  $(wildcard Sources/SwiftErrCatalogFile/*.swift Sources/SwiftErrCatalogFile/JSON/*.swift \
  Sources/ErrcatKit/Generate/*.swift))) fuzz/catalog_fuzz.swift
FUZZ_CORE_OBJS := $(patsubst Sources/CErrCore/%.c,$(FUZZ_CATALOG_DIR)/core/%.o,$(FUZZ_CORE_SRCS))
FUZZ_SWIFT_MODULE_FLAGS := -parse-as-library -O -g -package-name SwiftErr -Iinclude \
  -Xcc -fmodule-map-file=$(FUZZ_CATALOG_DIR)/module.modulemap

.PHONY: fuzz fuzz-regress fuzz-build

fuzz-build: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))

# classify_fuzz without comparison tracing: its comparisons are between codes and hashes the
# harness computes from the input, which tracing cannot steer, and tracing them made it 3.5x
# slower (744 against 2,580 executions/s, the same coverage after 25 s).
FUZZ_EXTRA_classify := -fno-sanitize-coverage=trace-cmp

$(FUZZ_DIR)/%_fuzz: fuzz/%_fuzz.c $(FUZZ_C_DEPS)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $(FUZZ_EXTRA_$*) $< $(FUZZ_CORE_SRCS) -o $@

$(FUZZ_DIR)/envelope_fuzz: $(FUZZ_ENVELOPE_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_SWIFTC) -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld -package-name SwiftErr \
	  -module-name EnvelopeFuzz $(FUZZ_ENVELOPE_SRCS) -o $@

$(FUZZ_CATALOG_DIR)/module.modulemap:
	@mkdir -p $(dir $@)
	printf 'module CErrCore {\n    umbrella header "%s"\n    export *\n}\n' "$(CURDIR)/Sources/CErrCore/include/CErrCore.h" > $@

$(FUZZ_CATALOG_DIR)/core/%.o: Sources/CErrCore/%.c $(FUZZ_C_DEPS)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) -std=c11 -Wall -Wextra -Wpedantic -Werror -g -O1 -fno-omit-frame-pointer \
	  -fsanitize=fuzzer-no-link,address -Iinclude -c $< -o $@

$(FUZZ_CATALOG_DIR)/SwiftErrCore.o: $(FUZZ_CORE_SWIFT_SRCS) $(FUZZ_CATALOG_DIR)/module.modulemap $(wildcard include/*.h)
	$(FUZZ_SWIFTC) -sanitize=fuzzer,address $(FUZZ_SWIFT_MODULE_FLAGS) -module-name SwiftErrCore -wmo \
	  -emit-module -emit-module-path $(FUZZ_CATALOG_DIR)/SwiftErrCore.swiftmodule -c $(FUZZ_CORE_SWIFT_SRCS) -o $@

$(FUZZ_CATALOG_DIR)/SwiftErr.o: $(FUZZ_JSON_SRCS) $(FUZZ_CATALOG_DIR)/SwiftErrCore.o
	$(FUZZ_SWIFTC) -sanitize=fuzzer,address $(FUZZ_SWIFT_MODULE_FLAGS) -module-name SwiftErr -wmo \
	  -I $(FUZZ_CATALOG_DIR) -emit-module -emit-module-path $(FUZZ_CATALOG_DIR)/SwiftErr.swiftmodule \
	  -c $(FUZZ_JSON_SRCS) -o $@

$(FUZZ_DIR)/catalog_fuzz: $(FUZZ_CATALOG_SRCS) $(FUZZ_CATALOG_DIR)/SwiftErr.o $(FUZZ_CATALOG_DIR)/SwiftErrCore.o \
  $(FUZZ_CORE_OBJS)
	$(FUZZ_SWIFTC) -sanitize=fuzzer,address $(FUZZ_SWIFT_MODULE_FLAGS) -use-ld=lld -module-name SwiftErrCatalogFile \
	  -I $(FUZZ_CATALOG_DIR) $(FUZZ_CATALOG_SRCS) $(FUZZ_CATALOG_DIR)/SwiftErr.o $(FUZZ_CATALOG_DIR)/SwiftErrCore.o \
	  $(FUZZ_CORE_OBJS) -o $@

# One rule per target, so that `make -j2 -k fuzz` fuzzes two targets at a time (each libFuzzer
# process uses one core) and runs every target even after one fails.
.PHONY: $(addprefix fuzz-run-,$(FUZZ_TARGETS)) $(addprefix fuzz-regress-,$(FUZZ_TARGETS))
fuzz: $(addprefix fuzz-run-,$(FUZZ_TARGETS))
fuzz-regress: $(addprefix fuzz-regress-,$(FUZZ_TARGETS))

$(addprefix fuzz-run-,$(FUZZ_TARGETS)): fuzz-run-%: $(FUZZ_DIR)/%
	@scripts/fuzz/run.sh $< fuzz/corpus/$* $(FUZZ_DIR)/work/$* $(FUZZ_SECONDS) $(FUZZ_TIMEOUT) || \
	  { echo "fuzz: $* crashed or hung (inputs under $(FUZZ_DIR)/work/$*)"; exit 1; }

$(addprefix fuzz-regress-,$(FUZZ_TARGETS)): fuzz-regress-%: $(FUZZ_DIR)/%
	@scripts/fuzz/run.sh $< fuzz/corpus/$* $(FUZZ_DIR)/work/$* regress $(FUZZ_TIMEOUT) || \
	  { echo "fuzz-regress: a corpus input of $* fails"; exit 1; }
