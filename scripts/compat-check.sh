#!/usr/bin/env bash
# compat-check.sh — CI stage: does the version say what changed since the last release, and does
# CHANGELOG.md name every break?
#
# Compares this tree with the baseline release recorded in scripts/compat/baseline (a commit and
# the version it is recorded as) and applies the version rule of scripts/compat/verdict.py to what
# it finds; the version is the one of include/errcore_version.h (scripts/c/version.sh).
#
# The rule (semantic versioning; "from 1.0" means the baseline is 1.0.0 or later):
#   - a breaking change needs a major bump from 1.0 on, a minor (or major) bump before 1.0 (the
#     soname, libcerrcore.so.MAJOR.MINOR before 1.0 and libcerrcore.so.MAJOR after, moves with it);
#   - an addition needs a minor bump from 1.0 on, at least a patch bump before 1.0;
#   - CHANGELOG.md has a section for the version ("## [X.Y.Z]"), and when the version moved, that
#     section names each break by what users write: the C identifier, `Type.member`, or the type.
# When it holds, it prints every finding as "admitted by X → Y" and exits 0; otherwise it exits 1
# naming each break (symbol, member, Swift declaration) that the version does not admit or the
# CHANGELOG does not name.
#
# What counts (helpers in scripts/compat/):
#   C ABI       c-check.sh + abi.py: libcerrcore.so of the baseline (built from its own tree, `git
#               archive` into build/compat/baseline/src, with its own Makefile and CFLAGS=-g)
#               against this tree's, by libabigail's abidiff with both include/ directories as the
#               public headers: a removed or changed function or variable, or a public struct whose
#               layout changed, is a break; an added function an addition. abidiff's default
#               suppression of harmless changes stays on (it hides added enumerators, which the
#               header check reports as additions).
#   C headers   headers.py: both include/ directories through clang's JSON AST and -dM: removed
#               functions, types, typedefs, enumerators or macros, changed prototypes, renumbered
#               enumerators, changed macro values (but ERRCORE_VERSION_*), any struct member added,
#               removed, retyped or moved, a changed static inline body: breaks; anything new:
#               additions. An added enumerator is an addition: C code must handle values it does
#               not know (errcore_status_string() says "unknown status").
#   C behaviour the baseline's C tests, compiled against its headers, run against this tree's
#               shared library (an old program on the new library) when the checks above found no
#               break: each failing check is a break.
#   Swift API   api.py: the public API of every library product of the root package and of each
#               package under Integrations/, from their symbol graphs, against the recorded
#               release's (scripts/compat/api.txt, written by `api.py record`): removed or changed
#               declarations, removed conformances, cases added to public enums and requirements
#               without a default added to protocols are breaks, everything new an addition. It
#               reads the builds of the earlier stages: the root's debug build in .build, the
#               Integrations' release builds in .build-services (built when missing).
#   self-tests  self-test.sh: on a scratch copy, a member added to errcore_table with the version
#               unchanged fails the C checks by name, an unchanged copy passes, the header check
#               names a changed macro, a renumbered enumerator, a changed prototype, a removed
#               function and a changed static inline body, and a version raised with a CHANGELOG
#               section that does not name errcore_table fails. api.py --self-test: in a fixture
#               package, a removed function, a changed signature, a case added to an enum and a new
#               protocol requirement each fail by name, a new function is an addition, the tree
#               against its own HEAD has no change, a scratch commit that makes a public function
#               internal with the version raised fails while its CHANGELOG section does not name it
#               and passes once it does, and a baseline that does not load (four broken listings, a
#               commit that does not build, twice) stops the check saying so and caches nothing.
#
# Options:
#   --baseline COMMIT VERSION   compare with this commit, recorded as VERSION, instead of the
#                               recorded release (your uncommitted change against your last commit:
#                               --baseline HEAD "$(sh scripts/c/version.sh)")
#   --only PARTS                the parts to run, of "c swift self-test" (default: all)
# Needs git, make, cc, python3, the toolchain's clang, swift, and abidiff (Debian abigail-tools,
# installed when missing). The baseline commit must be in the local history: a shallow clone is
# deepened with `git fetch --unshallow` when it has a remote. Exit status: 0 the version admits
# every change; 1 it does not; 2 a step could not run.
. "$(dirname "$0")/lib.sh"

commit= base_version= parts="c swift self-test"
while [ $# -gt 0 ]; do
    case $1 in
    --baseline) commit=$2 base_version=$3 && shift 2 ;;
    --only) parts=$2 && shift ;;
    *) die "unknown option $1 (see the header of $0)" ;;
    esac
    shift
done
cannot() {
    echo "compat: $*" >&2
    exit 2
}
has_part() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# ---- the baseline -------------------------------------------------------------------------
baseline_file=scripts/compat/baseline
value_of() {
    sed -n "s/^$1=\\([^[:space:]#]*\\)[[:space:]]*\\(#.*\\)\\{0,1\\}\$/\\1/p" "$baseline_file" | tail -1
}
[ -n "$commit" ] || commit=$(value_of commit)
[ -n "$base_version" ] || base_version=$(value_of version)
[ -n "$commit" ] && [ -n "$base_version" ] || cannot "$baseline_file has no commit=<hash> and version=<X.Y.Z>"
if ! git cat-file -e "$commit^{commit}" 2>/dev/null && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    [ -n "$(git remote)" ] || cannot "the baseline commit $commit is not in this shallow clone, which has no remote"
    echo "compat: the baseline commit $commit is not in this shallow clone: git fetch --unshallow"
    git fetch --quiet --unshallow || cannot "git fetch --unshallow failed"
fi
git cat-file -e "$commit^{commit}" 2>/dev/null || cannot "the baseline commit $commit is not in this repository's history"
commit=$(git rev-parse --verify "$commit^{commit}")
version=$(sh scripts/c/version.sh) || cannot "cannot read the version (scripts/c/version.sh)"
echo "compat: baseline ${commit:0:12} recorded as $base_version; this tree: $version (include/errcore_version.h)"

work=build/compat
findings=$work/findings.tsv
mkdir -p "$work"
: >"$findings"
if has_part c || has_part self-test; then
    need_debian abidiff=abigail-tools
fi

# ---- the parts ----------------------------------------------------------------------------
if has_part c; then
    base_tree=$work/baseline/src
    rm -rf "$base_tree" && mkdir -p "$base_tree"
    git archive "$commit" | tar -x -C "$base_tree" || cannot "git archive $commit failed"
    bash scripts/compat/c-check.sh "$base_tree" . "$work/c" >>"$findings" || cannot "the C check could not run"
    step "C checks"
fi
if has_part swift; then
    if [ "$commit" = "$(value_of commit)" ]; then
        python3 scripts/compat/api.py check >>"$findings" || cannot "the Swift API check could not run"
    else
        python3 scripts/compat/api.py check --baseline "$commit" >>"$findings" || cannot "the Swift API check could not run"
    fi
    step "Swift API check"
fi
if has_part self-test; then
    bash scripts/compat/self-test.sh "$work/self-test" || { echo "compat: FAIL: the C self-test"; exit 1; }
    python3 scripts/compat/api.py --self-test || { echo "compat: FAIL: the Swift API self-test"; exit 1; }
    step "self-tests"
fi

# ---- the verdict --------------------------------------------------------------------------
python3 scripts/compat/verdict.py "$findings" "$base_version" "$version" CHANGELOG.md
