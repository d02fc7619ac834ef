# scripts/make/gen.mk — `make gen`: a catalog's C table for a C program's own build, written by
# errcat's generator; included by the top-level Makefile.
#
#   make gen CATALOG=path/to/catalog.json [OUT=DIR/NAME.c]
#       writes OUT (default build/gen/<catalog file name without .json>.c): the catalog as static
#       const data with the function errcore_<catalog name>_table(), and beside it NAME.h, which
#       declares that function. Both compile with -std=c11 -Wall -Wextra -Wpedantic -Werror against
#       the headers of include/ (an installed copy: pkg-config --cflags cerrcore); link with
#       libcerrcore. It is `errcat gen c CATALOG --output OUT --header NAME.h`, so the catalog is
#       checked as `errcat check` does: a catalog with problems prints FILE:LINE:COLUMN: error: ...
#       on stderr, writes nothing and fails. Builds errcat first (swift build -c release) unless
#       ERRCAT names an errcat to use.
#   make check-gen
#       part of `make check`: make gen of Examples/Shop's catalog into build/gen-check, compiled
#       with Examples/pkgconfig/own_catalog.c and build/libcerrcore.a by gcc and clang (-Werror),
#       run, its output compared with Examples/pkgconfig/own_catalog.expected; then the same
#       catalog with a duplicate code planted must fail with that problem's line and column and
#       write nothing. Uses the errcat of `swift build` (debug; built when missing) unless ERRCAT is
#       set.

GEN_OUT_DEFAULT = build/gen/$(basename $(notdir $(CATALOG))).c
OUT ?= $(GEN_OUT_DEFAULT)
GEN_CHECK_DIR := build/gen-check
GEN_CHECK_CATALOG := Examples/Shop/Sources/ShopErrors/catalog.json

.PHONY: gen check-gen

gen:
	@test -n "$(CATALOG)" || { echo "make gen: give CATALOG=path/to/catalog.json (and OUT=DIR/NAME.c)"; exit 2; }
	@case "$(OUT)" in *.c) ;; *) echo "make gen: OUT must name a .c file (its header is OUT with .h)"; exit 2;; esac
	@mkdir -p $(dir $(OUT))
	@errcat="$(ERRCAT)"; \
	if [ -z "$$errcat" ]; then \
	  swift build -c release --product errcat >&2 || exit 1; \
	  errcat=$$(swift build -c release --show-bin-path)/errcat; \
	fi; \
	"$$errcat" gen c "$(CATALOG)" --output "$(OUT)" --header "$(OUT:.c=.h)" && \
	echo "make gen: wrote $(OUT) and $(OUT:.c=.h) from $(CATALOG)"

check-gen: $(BUILD)/libcerrcore.a
	@rm -rf $(GEN_CHECK_DIR) && mkdir -p $(GEN_CHECK_DIR)
	@errcat="$(ERRCAT)"; [ -n "$$errcat" ] || errcat=$$(swift build --show-bin-path)/errcat; \
	[ -x "$$errcat" ] || swift build --product errcat || exit 1; \
	$(MAKE) --no-print-directory gen CATALOG=$(GEN_CHECK_CATALOG) OUT=$(GEN_CHECK_DIR)/shop_catalog.c ERRCAT="$$errcat" && \
	for cc in gcc clang; do \
	  $$cc $(CSTD) $(WARN) -O2 -Iinclude -I$(GEN_CHECK_DIR) Examples/pkgconfig/own_catalog.c \
	    $(GEN_CHECK_DIR)/shop_catalog.c $(BUILD)/libcerrcore.a -o $(GEN_CHECK_DIR)/own_catalog-$$cc || exit 1; \
	  ./$(GEN_CHECK_DIR)/own_catalog-$$cc > $(GEN_CHECK_DIR)/own_catalog-$$cc.out || exit 1; \
	  cmp -s $(GEN_CHECK_DIR)/own_catalog-$$cc.out Examples/pkgconfig/own_catalog.expected || \
	    { echo "check-gen: own_catalog ($$cc) output differs:"; \
	      diff Examples/pkgconfig/own_catalog.expected $(GEN_CHECK_DIR)/own_catalog-$$cc.out; exit 1; }; \
	done; \
	sed '42s/"code": 20002/"code": 20001/' $(GEN_CHECK_CATALOG) > $(GEN_CHECK_DIR)/broken.catalog.json; \
	if "$$errcat" gen c $(GEN_CHECK_DIR)/broken.catalog.json --output $(GEN_CHECK_DIR)/broken.c \
	    --header $(GEN_CHECK_DIR)/broken.h 2> $(GEN_CHECK_DIR)/broken.err; then \
	  echo "check-gen: a catalog with a duplicate code was generated"; exit 1; fi; \
	grep -q '^$(GEN_CHECK_DIR)/broken.catalog.json:42:19: error: duplicate code 20001' $(GEN_CHECK_DIR)/broken.err || \
	  { echo "check-gen: the broken catalog's error is not located at 42:19:"; cat $(GEN_CHECK_DIR)/broken.err; exit 1; }; \
	[ ! -e $(GEN_CHECK_DIR)/broken.c ] && [ ! -e $(GEN_CHECK_DIR)/broken.h ] || \
	  { echo "check-gen: a broken catalog left generated files"; exit 1; }; \
	echo "check-gen: make gen's table compiles and classifies with gcc and clang; a broken catalog fails at $$(cut -d: -f1-3 $(GEN_CHECK_DIR)/broken.err | head -1)"
