/*
 * CErrCore.h — umbrella header of the SwiftErr C core.
 *
 * C programs include this one header (pkg-config --cflags cerrcore) and link
 * libcerrcore; Swift imports it as the CErrCore module. See each header for
 * its part:
 *   errcore/status.h           status values and diagnostics
 *   errcore/table.h            the table model, validation and building
 *   errcore/classify.h         the branch-free classifier, batch and tally
 *   errcore/text.h             names and messages (English, Simplified Chinese)
 *   errcore/default_catalog.h  the built-in catalog
 * Every public symbol is prefixed errcore_ / ERRCORE_.
 */
#ifndef ERRCORE_H
#define ERRCORE_H

#include "errcore/status.h"
#include "errcore/table.h"
#include "errcore/classify.h"
#include "errcore/text.h"
#include "errcore/default_catalog.h"

#define ERRCORE_VERSION_MAJOR 0
#define ERRCORE_VERSION_MINOR 1
#define ERRCORE_VERSION_PATCH 0

#endif /* ERRCORE_H */
