/*
 * errcore_version.h — the version of CErrCore, and the run-time check that
 * the library a program loaded is one its headers describe.
 *
 * This file is the one place the version is written. The Makefile reads it
 * for the shared library's soname and file names and for both pkg-config
 * files; the Swift package reads it through SwiftErrVersion; the
 * compatibility check (scripts/compat-check.sh) compares it with the
 * recorded baseline; CHANGELOG.md must have a heading for it.
 *
 * Versions follow semantic versioning (MAJOR.MINOR.PATCH):
 *   - from 1.0.0 on, a change that breaks the API or ABI (a removed or
 *     changed function, a struct that changed size or layout, a renumbered
 *     enumerator or macro) raises MAJOR, an addition raises MINOR, a fix
 *     raises PATCH;
 *   - before 1.0.0, a breaking change raises MINOR, and an addition or a
 *     fix raises PATCH.
 * The shared library's soname moves with every breaking change:
 * libcerrcore.so.MAJOR.MINOR before 1.0.0 (0.3.0: libcerrcore.so.0.3),
 * libcerrcore.so.MAJOR from 1.0.0 on.
 */
#ifndef ERRCORE_VERSION_H
#define ERRCORE_VERSION_H

#include "errcore_status.h" /* ERRCORE_API */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ERRCORE_VERSION_MAJOR, _MINOR, _PATCH — the version of these headers.
 * ERRCORE_VERSION_NUMBER — the same as one integer,
 *   MAJOR * 1000000 + MINOR * 1000 + PATCH (0.3.0 is 3000, 1.2.3 is 1002003),
 *   so versions compare as integers.
 * ERRCORE_VERSION_STRING — the same as "MAJOR.MINOR.PATCH".
 * They describe the headers a program was compiled with; errcore_version()
 * and errcore_version_string() describe the library it runs with.
 */
#define ERRCORE_VERSION_MAJOR  0
#define ERRCORE_VERSION_MINOR  4
#define ERRCORE_VERSION_PATCH  0
#define ERRCORE_VERSION_NUMBER 4000
#define ERRCORE_VERSION_STRING "0.4.0"

#if ERRCORE_VERSION_NUMBER != ERRCORE_VERSION_MAJOR * 1000000 + ERRCORE_VERSION_MINOR * 1000 + ERRCORE_VERSION_PATCH
#error "errcore_version.h: ERRCORE_VERSION_NUMBER disagrees with ERRCORE_VERSION_MAJOR/MINOR/PATCH"
#endif

/*
 * errcore_version — the ERRCORE_VERSION_NUMBER of the library as it was
 * built, which is not always that of the headers a program was compiled
 * with: a program linked to the shared library runs with whichever
 * libcerrcore.so the loader finds.
 *
 * Returns MAJOR * 1000000 + MINOR * 1000 + PATCH of the library (3000 for
 * 0.3.0). Cannot fail; no error case.
 *
 * A program that wants to be sure the library it loaded has the layout and
 * functions its headers describe compares the part of the number that
 * changes with a breaking change: before 1.0.0 MAJOR and MINOR (number /
 * 1000), from 1.0.0 on MAJOR alone (number / 1000000). The library must be
 * at least as new as the headers (a newer patch, or from 1.0.0 on a newer
 * minor, only adds):
 *
 *   int lib = errcore_version();
 *   int same = ERRCORE_VERSION_MAJOR == 0 ? lib / 1000 == ERRCORE_VERSION_NUMBER / 1000
 *                                         : lib / 1000000 == ERRCORE_VERSION_NUMBER / 1000000;
 *   if (!same || lib < ERRCORE_VERSION_NUMBER) {
 *       fprintf(stderr, "built for CErrCore %s, running with %s\n", ERRCORE_VERSION_STRING,
 *               errcore_version_string());
 *       exit(1);
 *   }
 *
 * (Before 1.0.0 the short form `if (errcore_version() / 1000 != ERRCORE_VERSION_NUMBER / 1000)`
 * is the first half of that test.) The soname makes the loader refuse a
 * library of another breaking version anyway; this check also catches a
 * copy loaded by other means (dlopen by path, a misnamed file, a static
 * library of another version).
 */
ERRCORE_API int errcore_version(void);

/*
 * errcore_version_string — the ERRCORE_VERSION_STRING of the library as it
 * was built, e.g. "0.3.0".
 *
 * Returns a static NUL-terminated string; never NULL. Cannot fail; no error
 * case.
 */
ERRCORE_API const char *errcore_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_VERSION_H */
