/* test_version.c — the version macros agree with each other and with the library as built. */
#include <stdio.h>
#include <string.h>

#include "check.h"

void test_version(void) {
    /* The library reports the version of the headers it was built with. */
    CHECKF(errcore_version() == ERRCORE_VERSION_NUMBER, "errcore_version() %d, headers %d", errcore_version(),
           ERRCORE_VERSION_NUMBER);
    const char *s = errcore_version_string();
    CHECK(s != NULL);
    CHECKF(s != NULL && strcmp(s, ERRCORE_VERSION_STRING) == 0, "errcore_version_string() \"%s\", headers \"%s\"",
           s ? s : "(null)", ERRCORE_VERSION_STRING);
    CHECK(errcore_version_string() == s); /* static storage: the same string every call */

    /* The three forms of the version say the same thing. */
    CHECK(ERRCORE_VERSION_MINOR < 1000 && ERRCORE_VERSION_PATCH < 1000);
    CHECK(ERRCORE_VERSION_NUMBER ==
          ERRCORE_VERSION_MAJOR * 1000000 + ERRCORE_VERSION_MINOR * 1000 + ERRCORE_VERSION_PATCH);
    char parts[48];
    snprintf(parts, sizeof parts, "%d.%d.%d", ERRCORE_VERSION_MAJOR, ERRCORE_VERSION_MINOR, ERRCORE_VERSION_PATCH);
    CHECKF(strcmp(parts, ERRCORE_VERSION_STRING) == 0, "\"%s\" against \"%s\"", parts, ERRCORE_VERSION_STRING);
    int lib = errcore_version();
    snprintf(parts, sizeof parts, "%d.%d.%d", lib / 1000000, lib / 1000 % 1000, lib % 1000);
    CHECKF(s != NULL && strcmp(parts, s) == 0, "number %d reads \"%s\", string \"%s\"", lib, parts, s ? s : "(null)");

    /* The documented check a program makes passes against the library it was built with. */
    int same = ERRCORE_VERSION_MAJOR == 0 ? lib / 1000 == ERRCORE_VERSION_NUMBER / 1000
                                          : lib / 1000000 == ERRCORE_VERSION_NUMBER / 1000000;
    CHECK(same && lib >= ERRCORE_VERSION_NUMBER);
}
