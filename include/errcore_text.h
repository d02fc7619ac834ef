/*
 * errcore_text.h — names and messages in a table's languages.
 *
 * A table lists its languages as BCP 47 tags ("en", "zh-Hans", "zh-Hant",
 * "hi", "pt-BR", ...), the first its default. A lookup by tag matches ASCII
 * case-insensitively and falls back along the tag, dropping its last subtag
 * each time, then to the default language: for "zh-Hant-HK" the texts of
 * "zh-Hant-HK", "zh-Hant", "zh" and the default, the first present. A
 * language the table has with no text for one entry falls back the same way.
 *
 * Strings live in the table's pool. Every function here returns pointers
 * into that pool or into static storage, or writes into the caller's
 * buffer: there is no static buffer and no allocation.
 */
#ifndef ERRCORE_TEXT_H
#define ERRCORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errcore_classify.h"
#include "errcore_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The two languages of the functions taking an errcore_lang: shorthands for
 * the tags "en" and "zh-Hans" (the *_for_tag functions take any tag). A
 * missing text falls back as errcore_message_for_tag() says.
 */
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
 * errcore_entry_message — errcore_entry_message_for_tag() with the tag
 * "en" or "zh-Hans". Returns NULL when table is NULL or index >= entry_count.
 */
ERRCORE_API const char *errcore_entry_message(const errcore_table *table, uint32_t index, errcore_lang lang);

/*
 * errcore_module_name — the identifier of module `id` (e.g. "studyGroup").
 * Returns NULL when table is NULL, id is 0 or id > module_count.
 */
ERRCORE_API const char *errcore_module_name(const errcore_table *table, uint16_t id);

/*
 * errcore_module_title — errcore_module_title_for_tag() with the tag "en" or
 * "zh-Hans". Returns NULL as errcore_module_name().
 */
ERRCORE_API const char *errcore_module_title(const errcore_table *table, uint16_t id, errcore_lang lang);

/*
 * errcore_module_find — the id of the module named `name` (exact, case
 * sensitive), or ERRCORE_MODULE_NONE when there is none or an argument is
 * NULL. Linear in the number of modules: not for the hot path.
 */
ERRCORE_API uint16_t errcore_module_find(const errcore_table *table, const char *name);

/*
 * errcore_language_tag_valid — whether `tag` is a well-formed language tag
 * as tables accept it: 1 to ERRCORE_MAX_TAG_LENGTH bytes of subtags joined
 * by '-', each 1 to 8 ASCII letters or digits, the first 2 to 8 letters
 * ("en", "zh-Hans", "pt-BR", "es-419", "sr-Latn-RS"). Case is not checked
 * (tags match ignoring it). Returns false for NULL.
 */
ERRCORE_API bool errcore_language_tag_valid(const char *tag);

/*
 * errcore_language_count — the number of message languages of `table`: its
 * language_count, or 2 ("en", "zh-Hans") for a table without a language
 * list. Returns 0 when table is NULL.
 */
ERRCORE_API size_t errcore_language_count(const errcore_table *table);

/*
 * errcore_language_tag — the tag of language `index` (0: the default
 * language). Returns NULL when table is NULL or index >=
 * errcore_language_count().
 */
ERRCORE_API const char *errcore_language_tag(const errcore_table *table, size_t index);

/*
 * errcore_language_index — the index of the language whose tag equals `tag`
 * ignoring ASCII case (no fallback). Returns ERRCORE_NO_INDEX when there is
 * none or an argument is NULL.
 */
ERRCORE_API size_t errcore_language_index(const errcore_table *table, const char *tag);

/*
 * errcore_entry_message_for_tag — the message of entry `index` for `tag`,
 * with the fallback described at the top of this file (a NULL or empty tag
 * gives the default language's). Returns NULL when table is NULL or index
 * >= entry_count. Linear in the number of languages times the subtags.
 */
ERRCORE_API const char *errcore_entry_message_for_tag(const errcore_table *table, uint32_t index, const char *tag);

/*
 * errcore_message_for_tag — the message of `code` for `tag`, as
 * errcore_entry_message_for_tag() for the entry `code` classifies to.
 * Returns NULL when table is NULL or `code` has no entry of its own (an
 * unrecognised module code, an unknown code, a success code without an
 * entry: errcore_describe_for_tag() has text for those).
 */
ERRCORE_API const char *errcore_message_for_tag(const errcore_table *table, int64_t code, const char *tag);

/*
 * errcore_module_title_for_tag — the display name of module `id` for `tag`,
 * with the same fallback, the module's name when even the default language
 * has none. Returns NULL as errcore_module_name().
 */
ERRCORE_API const char *errcore_module_title_for_tag(const errcore_table *table, uint16_t id, const char *tag);

/*
 * errcore_describe_for_tag — errcore_describe() for any tag: the entry's
 * message with errcore_message_for_tag()'s fallback; the texts for
 * unrecognised, unknown and success codes exist in English, Simplified
 * Chinese (zh, zh-Hans, zh-CN, zh-SG), Traditional Chinese (zh-Hant, zh-TW,
 * zh-HK, zh-MO) and Hindi (hi), chosen along the tag, English otherwise.
 * Same buffer contract and return value as errcore_describe().
 */
ERRCORE_API size_t errcore_describe_for_tag(const errcore_table *table, int64_t code, const char *tag, char *buf,
                                            size_t size);

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
