#!/usr/bin/env bash
# compat-check.sh — CI stage: does the version say what changed since the last release?
#
# Compares this tree with the baseline release recorded in scripts/compat/baseline
# (a commit and the version it is recorded as) and applies the version rule to what
# it finds. The version is the one of include/errcore_version.h (scripts/c/version.sh).
#
# The rule (semantic versioning; "from 1.0" means the baseline is 1.0.0 or later):
#   - a breaking change needs a major bump from 1.0 on, a minor (or major) bump
#     before 1.0 (the soname, libcerrcore.so.MAJOR.MINOR before 1.0 and
#     libcerrcore.so.MAJOR after, moves with it);
#   - an addition needs a minor bump from 1.0 on, at least a patch bump before 1.0;
#   - CHANGELOG.md has a heading for the version ("## [X.Y.Z]").
# When it holds, the stage prints every finding as "admitted by X → Y" and exits
# 0; otherwise it exits 1 naming each break (symbol, member, product, Swift
# declaration) that the version does not admit.
#
# What counts (helpers in scripts/compat/):
#   C ABI       c-check.sh + abi.py: libcerrcore.so of the baseline (built from its own
#               tree, `git archive` into build/compat/baseline/src, with its own
#               Makefile and CFLAGS=-g) against this tree's, by libabigail's abidiff
#               with both include/ directories as the public headers: a removed or
#               changed function or variable, or a public struct whose layout changed,
#               is a break; an added function an addition. abidiff's default
#               suppression of harmless changes stays on (it hides added enumerators,
#               which the header check reports as additions).
#   C headers   headers.py: both include/ directories through clang's JSON AST and
#               -dM: removed functions, types, typedefs, enumerators or macros,
#               changed prototypes, renumbered enumerators, changed macro values
#               (but ERRCORE_VERSION_*), any struct member added, removed, retyped or
#               moved, a changed static inline body: breaks; anything new: additions.
#               An added enumerator is an addition: C code must handle values it does
#               not know (errcore_status_string() says "unknown status").
#   C behaviour the baseline's C tests, compiled against its headers, run against this
#               tree's shared library (an old program on the new library) when the
#               checks above found no break: each failing check is a break.
#   Swift API   swift-check.sh: `swift package diagnose-api-breaking-changes` against
#               the baseline commit, for every library product in both manifests; a
#               library product of the baseline that is gone is a break. The tool
#               reports breaks only: additions to the Swift API ask for no bump here.
#   self-test   self-test.sh: on a scratch copy, a member added to errcore_table with
#               the version unchanged must fail the C checks by name, an unchanged
#               copy must pass, and the header check must name a changed macro, a
#               renumbered enumerator, a changed prototype, a removed function and a
#               changed static inline body. The Swift part is too slow to prove this on
#               every run: README ("Checking compatibility") shows how to by hand.
#
# Environment:
#   COMPAT_BASELINE_COMMIT   compare with this commit instead of the recorded one
#                            (any commit-ish: a hash, HEAD~1, a branch)
#   COMPAT_BASELINE_VERSION  ... recorded as this version (with the commit above, to
#                            check a change against a commit of your own: the version
#                            of that commit, e.g. the one include/errcore_version.h says)
#   COMPAT_PARTS             the parts to run, of "c self-test swift" (default: all)
#   COMPAT_WORK              C scratch (default build/compat; `make clean` removes it)
#   COMPAT_SWIFT_SCRATCH     SwiftPM scratch path (default .build-compat; kept, so a
#                            second run reuses the builds and the baseline's API)
#   COMPAT_MAKE_ARGS         extra make arguments for both C library builds (e.g. WARN= to
#                            try a header change before the sources that use it compile
#                            with -Werror)
# Needs git, make, cc, python3, clang (CLANG, default /opt/swift/usr/bin/clang), swift,
# and abidiff, which it installs from Debian (abigail-tools) when missing.
# The baseline commit must be in the local history: in a shallow clone the script
# runs `git fetch --unshallow` when there is a remote, and fails saying so otherwise.
# Exit status: 0 the version admits every change; 1 it does not; 2 a step could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
    echo "compat: $*" >&2
    exit 2
}

# ---- the baseline -------------------------------------------------------------------------
baseline_file=scripts/compat/baseline
value_of() {
    sed -n "s/^$1=\\([^[:space:]#]*\\)[[:space:]]*\\(#.*\\)\\{0,1\\}\$/\\1/p" "$baseline_file" | tail -1
}
[ -r "$baseline_file" ] || die "cannot read $baseline_file"
commit=${COMPAT_BASELINE_COMMIT:-$(value_of commit)}
base_version=${COMPAT_BASELINE_VERSION:-$(value_of version)}
[ -n "$commit" ] || die "$baseline_file has no commit=<hash>"
[ -n "$base_version" ] || die "$baseline_file has no version=<X.Y.Z>"

if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
        if [ -n "$(git remote)" ]; then
            echo "compat: the baseline commit $commit is not in this shallow clone: git fetch --unshallow"
            git fetch --quiet --unshallow || die "git fetch --unshallow failed"
        else
            die "the baseline commit $commit is not in this shallow clone, which has no remote to fetch it" \
                "from: clone with full history (no --depth)"
        fi
    fi
    git cat-file -e "$commit^{commit}" 2>/dev/null ||
        die "the baseline commit $commit is not in this repository's history"
fi
commit=$(git rev-parse --verify "$commit^{commit}")
version=$(sh scripts/c/version.sh) || die "cannot read the version (scripts/c/version.sh)"
echo "compat: baseline ${commit:0:12} recorded as $base_version; this tree: $version (include/errcore_version.h)"

parts=${COMPAT_PARTS:-c self-test swift}
work=${COMPAT_WORK:-build/compat}
swift_scratch=${COMPAT_SWIFT_SCRATCH:-.build-compat}
for p in $parts; do
    case $p in c | self-test | swift) ;; *) die "COMPAT_PARTS: unknown part '$p' (c, self-test, swift)" ;; esac
done
has_part() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if (has_part c || has_part self-test) && ! command -v abidiff >/dev/null; then
    echo "compat: installing abidiff (Debian abigail-tools)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq abigail-tools >/dev/null ||
        die "cannot install abigail-tools"
fi

base_tree=$work/baseline/src
rm -rf "$base_tree"
mkdir -p "$base_tree"
git archive "$commit" | tar -x -C "$base_tree" || die "git archive $commit failed"

findings=$work/findings.tsv
: >"$findings"
seconds() { date +%s; }

# ---- the parts ----------------------------------------------------------------------------
if has_part c; then
    t0=$(seconds)
    bash scripts/compat/c-check.sh "$base_tree" . "$work/c" >>"$findings" || die "the C check could not run"
    echo "compat: C checks took $(($(seconds) - t0)) s"
fi
if has_part self-test; then
    t0=$(seconds)
    set +e
    bash scripts/compat/self-test.sh "$work/self-test"
    status=$?
    set -e
    [ "$status" -eq 0 ] || { echo "compat: FAIL: the self-test (exit $status)"; exit "$status"; }
    echo "compat: self-test took $(($(seconds) - t0)) s"
fi
if has_part swift; then
    t0=$(seconds)
    bash scripts/compat/swift-check.sh "$commit" "$base_tree" "$swift_scratch" >>"$findings" ||
        die "the Swift check could not run"
    echo "compat: Swift check took $(($(seconds) - t0)) s"
fi

# ---- the verdict --------------------------------------------------------------------------
python3 scripts/compat/verdict.py "$findings" "$base_version" "$version" CHANGELOG.md
