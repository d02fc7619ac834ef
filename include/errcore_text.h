/*
 * errcore_text.h — names and messages, in English and Simplified Chinese.
 *
 * Strings live in the table's pool. Every function here returns pointers
 * into that pool or into static storage, or writes into the caller's
 * buffer: there is no static buffer and no allocation.
 */
#ifndef ERRCORE_TEXT_H
#define ERRCORE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "errcore_classify.h"
#include "errcore_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Message languages. A missing Chinese string falls back to English. */
typedef enum errcore_lang {
    ERRCORE_LANG_EN = 0,     /* English */
    ERRCORE_LANG_ZH_HANS = 1 /* Simplified Chinese */
} errcore_lang;

/*
 * errcore_tier_name — "unknown", "success", "base" or "module".
 * Returns a static string; a value that is not an errcore_tier gives "invalid".
 */
ERRCORE_API const char *errcore_tier_name(errcore_tier tier);

/*
 * errcore_flag_name — the name of one ERRCORE_FLAG_* bit: "retryable",
 * "reauthenticate", "showUser", "fatal", or "app4" ... "app7" for the
 * application bits. Returns NULL when `flag` is not exactly one bit of the
 * low eight.
 */
ERRCORE_API const char *errcore_flag_name(unsigned flag);

/*
 * errcore_entry_name — the identifier of entry `index` (e.g. "tokenExpire").
 * Returns NULL when table is NULL or index >= entry_count.
 */
ERRCORE_API const char *errcore_entry_name(const errcore_table *table, uint32_t index);

/*
 * errcore_entry_message — the message of entry `index` in `lang`, falling
 * back to English when the entry has no message in that language.
 * Returns NULL when table is NULL or index >= entry_count.
 */
ERRCORE_API const char *errcore_entry_message(const errcore_table *table, uint32_t index, errcore_lang lang);

/*
 * errcore_module_name — the identifier of module `id` (e.g. "studyGroup").
 * Returns NULL when table is NULL, id is 0 or id > module_count.
 */
ERRCORE_API const char *errcore_module_name(const errcore_table *table, uint16_t id);

/*
 * errcore_module_title — the display name of module `id` in `lang`, English
 * when it has none in that language. Returns NULL as errcore_module_name().
 */
ERRCORE_API const char *errcore_module_title(const errcore_table *table, uint16_t id, errcore_lang lang);

/*
 * errcore_module_find — the id of the module named `name` (exact, case
 * sensitive), or ERRCORE_MODULE_NONE when there is none or an argument is
 * NULL. Linear in the number of modules: not for the hot path.
 */
ERRCORE_API uint16_t errcore_module_find(const errcore_table *table, const char *name);

/*
 * errcore_describe — writes the text a person should see for `code`:
 *   an entry's message;
 *   for an unrecognised code in a module's range, e.g.
 *     "Unrecognised Study group error (code 11219999)";
 *   for an unknown code, "Unknown response code 4294978297";
 *   for the success code without an entry, "OK".
 * Writes at most `size` bytes including the NUL (nothing when size is 0;
 * buf may then be NULL) and returns the length of the whole text, so a
 * result >= size means it was truncated (as snprintf). A NULL table
 * describes every code as unknown. `table` must otherwise be valid.
 */
ERRCORE_API size_t errcore_describe(const errcore_table *table, int64_t code, errcore_lang lang, char *buf,
                                    size_t size);

/*
 * errcore_format_int64 — writes the decimal form of `value` (INT64_MIN
 * included) with the same buffer contract as errcore_describe(). Returns
 * its length (at most 20). Provided because the core has no snprintf.
 */
ERRCORE_API size_t errcore_format_int64(int64_t value, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ERRCORE_TEXT_H */
