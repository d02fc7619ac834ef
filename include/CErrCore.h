/*
 * CErrCore.h — umbrella header of the SwiftErr C core.
 *
 * C programs include this one header (pkg-config --cflags cerrcore) and link
 * libcerrcore; Swift imports it as the CErrCore module. See each header for
 * its part:
 *   errcore_status.h           status values and diagnostics
 *   errcore_table.h            the table model, validation and building
 *   errcore_classify.h         the branch-free classifier, batch and tally
 *   errcore_strings.h          string codes in namespaces, classified as a table's entries
 *   errcore_text.h             names and messages (English, Simplified Chinese)
 *   errcore_version.h          the version (ERRCORE_VERSION_*, errcore_version())
 * The core carries no catalog of its own: a program classifies with its own
 * table (`make gen CATALOG=...` writes it, or errcore_build() builds one).
 * The built-in catalog of the seed documents is a header of its own,
 * errcore_default_catalog.h (its table is in libcerrcore too; in SwiftPM it
 * is the CErrDefaultCatalog target).
 * Every public symbol is prefixed errcore_ / ERRCORE_.
 */
#ifndef ERRCORE_H
#define ERRCORE_H

#include "errcore_status.h"
#include "errcore_table.h"
#include "errcore_classify.h"
#include "errcore_strings.h"
#include "errcore_text.h"
#include "errcore_version.h"

/*
 * errcore_default_table() is declared in errcore_default_catalog.h, which
 * this header does not include. A call without that header would otherwise
 * compile (C's implicit declaration, int-returning, with a mere warning) and
 * crash: this macro makes it a compile error that names the header to
 * include. errcore_default_catalog.h removes it (#undef) before declaring
 * the function, so either include order works.
 */
#ifndef ERRCORE_DEFAULT_CATALOG_H
#define errcore_default_table() errcore_default_table_needs__include_errcore_default_catalog_h
#endif

#endif /* ERRCORE_H */
