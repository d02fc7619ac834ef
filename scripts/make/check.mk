# check.mk — `make check`: every test README promises, in one command.
#   C tests with gcc and clang (-Werror), under ASan+UBSan; the shared library's exports
#   (exactly the public API, for each compiler); a 0.2.0 program's mistakes as compile errors
#   (make upgrade-check, for each compiler); the pkg-config example against an
#   installed copy, linked shared and static (readelf -d proves which needs libcerrcore.so);
#   the freestanding cross build (sizes, host equivalence, Embedded Swift), `swift test`, and
#   `make gen`'s table for a catalog of one's own compiled and run (check-gen, scripts/make/gen.mk).

CHECK_PREFIX := $(CURDIR)/build/check-install

.PHONY: check check-c check-swift
check: check-c check-swift check-gen

check-c:
	$(MAKE) clean
	$(MAKE) test CC=gcc
	$(MAKE) check-exports CC=gcc
	$(MAKE) upgrade-check CC=gcc
	$(MAKE) clean
	$(MAKE) test CC=clang
	$(MAKE) check-exports CC=clang
	$(MAKE) upgrade-check CC=clang
	$(MAKE) test SANITIZE=1
	$(MAKE) install PREFIX=$(CHECK_PREFIX)
	$(MAKE) example PREFIX=$(CHECK_PREFIX)
	$(MAKE) cross
	$(MAKE) cross-host-test
	$(MAKE) cross-swift-check

# Swift Testing records a backtrace of every error thrown in the test process; the simulated-time
# scenarios (DefaultsOverTimeTests) throw one for each of millions of refused and failed requests,
# which made them about 30 % slower. A failing test still reports where it failed.
check-swift:
	swift build
	SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 swift test
