#!/usr/bin/env bash
# format-check.sh — CI stage: the C sources are formatted as .clang-format says.
#
# Usage: scripts/format-check.sh          check (clang-format --dry-run -Werror); exit 1 on a difference
#        scripts/format-check.sh --fix    reformat the files in place
#        scripts/format-check.sh --list   print the files it covers
#
# The files: every C source and header of the core (Sources/CErrCore, include/), the C tests
# (Tests/CErrCoreTests/c, and Tests/CErrCoreTests/emulated for the AVX-512 emulation), the fuzz targets (fuzz/), the embedded sources (Embedded/), the
# C measurement tools (Benchmarks/tools/*.c, *.h), the upgrade check's programs (scripts/c/upgrade/)
# and the pkg-config examples
# (Examples/pkgconfig/*.c), as git lists them, each once (symbolic links are skipped). Left out: Sources/CErrDefaultCatalog/default_catalog.c,
# which `errcat gen c` writes from catalog/default.json and a test compares byte for byte with the
# generator's output, so its layout is the generator's (edit the generator, not the file); and the
# Benchmarks package's C baselines, which are measured code kept as measured.
#
# clang-format is pinned: CLANG_FORMAT_VERSION (21.1.8), the PyPI wheel `clang-format`, installed
# with pip into .build-tools/clang-format-<version>/ (git-ignored) when it is not there yet; a
# different version formats differently, so no other clang-format on the machine is used.
# Environment: CLANG_FORMAT (a clang-format binary to use instead; its version must match).
. "$(dirname "$0")/lib.sh"

CLANG_FORMAT_VERSION=21.1.8
mode=check
case "${1:-}" in
"") ;;
--fix) mode=fix ;;
--list) mode=list ;;
*) echo "usage: $0 [--fix|--list]" >&2; exit 2 ;;
esac

files=()
while IFS= read -r f; do
    # A symbolic link (SwiftPM's view of include/) is formatted as the file it names: clang-format
    # -i would replace the link with a formatted copy.
    [ -L "$f" ] || files+=("$f")
done < <(git ls-files -- 'Sources/CErrCore/*.c' 'Sources/CErrCore/*.h' 'include/*.h' \
    'Tests/CErrCoreTests/c/*.c' 'Tests/CErrCoreTests/c/*.h' 'Tests/CErrCoreTests/emulated/*.c' \
    'Tests/CErrCoreTests/emulated/*.h' 'fuzz/*.c' 'fuzz/*.h' \
    'Embedded/*.c' 'Embedded/*.h' 'Benchmarks/tools/*.c' 'Benchmarks/tools/*.h' 'scripts/c/upgrade/*.c' 'Examples/pkgconfig/*.c' |
    grep -vx 'Sources/CErrDefaultCatalog/default_catalog.c')
if [ ${#files[@]} -eq 0 ]; then
    echo "format-check: no files to check (is this a git checkout?)" >&2
    exit 2
fi
if [ "$mode" = list ]; then
    printf '%s\n' "${files[@]}"
    exit 0
fi

tool_dir=.build-tools/clang-format-$CLANG_FORMAT_VERSION
if [ -z "${CLANG_FORMAT:-}" ]; then
    CLANG_FORMAT=$tool_dir/clang_format/data/bin/clang-format
    if [ ! -x "$CLANG_FORMAT" ]; then
        echo "format-check: installing clang-format $CLANG_FORMAT_VERSION (PyPI) into $tool_dir"
        rm -rf "$tool_dir"
        python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target "$tool_dir" \
            "clang-format==$CLANG_FORMAT_VERSION" || {
            echo "format-check: pip could not install clang-format==$CLANG_FORMAT_VERSION" >&2
            exit 2
        }
    fi
fi
found=$("$CLANG_FORMAT" --version) || { echo "format-check: $CLANG_FORMAT does not run" >&2; exit 2; }
case "$found" in
*"version $CLANG_FORMAT_VERSION"*) ;;
*) echo "format-check: $CLANG_FORMAT is '$found', not $CLANG_FORMAT_VERSION" >&2; exit 2 ;;
esac

if [ "$mode" = fix ]; then
    "$CLANG_FORMAT" -i --style=file "${files[@]}"
    echo "format-check: formatted ${#files[@]} files with clang-format $CLANG_FORMAT_VERSION"
    exit 0
fi

bad=()
for f in "${files[@]}"; do
    if ! "$CLANG_FORMAT" --dry-run -Werror --style=file "$f" 2>/dev/null; then
        bad+=("$f")
    fi
done
if [ ${#bad[@]} -ne 0 ]; then
    for f in "${bad[@]}"; do
        echo "== $f"
        "$CLANG_FORMAT" --style=file "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - | head -40 || true
    done
    echo "format-check: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says" \
        "(clang-format $CLANG_FORMAT_VERSION): run scripts/format-check.sh --fix"
    exit 1
fi
echo "format-check: ${#files[@]} files formatted as .clang-format says (clang-format $CLANG_FORMAT_VERSION)"
