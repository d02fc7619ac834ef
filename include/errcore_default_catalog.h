/*
 * errcore_default_catalog.h — the built-in catalog: every code the seed
 * documents name (README "The default catalog"), as a static const table.
 *
 * Its source of truth is catalog/default.json; the table itself is
 * generated from that file by `errcat gen c` into
 * Sources/CErrDefaultCatalog/default_catalog.c. CErrCore.h does not include
 * this header: a program that wants the built-in catalog includes it too.
 * The plain C library (libcerrcore) carries the table; in SwiftPM it is the
 * CErrDefaultCatalog target, part of the SwiftErrDefaultCatalog product.
 */
#ifndef ERRCORE_DEFAULT_CATALOG_H
#define ERRCORE_DEFAULT_CATALOG_H

#include "errcore_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Module ids of the default catalog (1-based positions in its modules array). */
#define ERRCORE_DEFAULT_MODULE_ACCOUNT     1u /* "account",    11010000 ... 11019999 */
#define ERRCORE_DEFAULT_MODULE_UPLOAD      2u /* "upload",     11020000 ... 11029999 */
#define ERRCORE_DEFAULT_MODULE_MEMBERSHIP  3u /* "membership", 11100000 ... 11109999 */
#define ERRCORE_DEFAULT_MODULE_SIGN_IN     4u /* "signIn",     11140000 ... 11149999 */
#define ERRCORE_DEFAULT_MODULE_SUBJECT     5u /* "subject",    11150000 ... 11159999 */
#define ERRCORE_DEFAULT_MODULE_TAG         6u /* "tag",        11160000 ... 11169999 */
#define ERRCORE_DEFAULT_MODULE_STUDY_GROUP 7u /* "studyGroup", 11210000 ... 11219999 */

/* CErrCore.h's reminder to include this header (a macro of the same name). */
#undef errcore_default_table

/*
 * errcore_default_table — the built-in catalog: success code 0, the eight
 * base codes and seven modules. Two base codes carry ERRCORE_FLAG_REAUTH:
 * tokenExpire (11001) and autoLoginFailed (11004); all eight carry
 * ERRCORE_FLAG_SHOW_USER.
 * Returns a pointer to static const data, valid for the program's lifetime
 * and safe to share between threads. Never NULL.
 */
ERRCORE_API const errcore_table *errcore_default_table(void);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_DEFAULT_CATALOG_H */
