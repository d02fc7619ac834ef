/*
 * version.c — the version of the library as built (errcore_version.h), for
 * a program to compare with the headers it was compiled with.
 */
#include "internal.h"

int errcore_version(void) {
    return ERRCORE_VERSION_NUMBER;
}

const char *errcore_version_string(void) {
    return ERRCORE_VERSION_STRING;
}
