/*
 * errcore_text.h — names and messages in a table's languages.
 *
 * A table lists its languages as BCP 47 tags ("en", "zh-Hans", "zh-Hant",
 * "hi", "pt-BR", ...), the first its default. Every lookup by tag, here and
 * in SwiftErr, picks among them by one rule, the language rule:
 *
 * Reading a tag. A tag is read as its language, script, region and
 * variants, ASCII case-insensitively; an extension ("-u-ca-buddhist"),
 * private use ("-x-...") or any subtag out of place ends it, so
 * "en-US-u-ca-buddhist" reads as en-US; an extended language subtag stands
 * for the language ("zh-yue-HK" reads as yue-HK). A POSIX or ICU locale identifier
 * is read as errcore_language_from_identifier() converts it
 * ("zh_TW.UTF-8" as zh-TW, "sr_RS@latin" as sr-Latn-RS); "C", "POSIX" and
 * "" name no language. A language code CLDR replaces is replaced ("iw" is
 * he, "in" id, "tl" fil, "sh" sr-Latn, "cmn" zh). A language CLDR writes in
 * more than one script (zh, sr, pa, uz, az, bs, mn, ha, ks, sd, ms, en, hi,
 * yue and others: CLDR's likelySubtags) gets its likely script for its
 * region when the tag has none: zh-TW, zh-HK and zh-MO read as zh-Hant-TW,
 * zh-Hant-HK and zh-Hant-MO; zh, zh-CN and zh-SG as zh-Hans, zh-Hans-CN and
 * zh-Hans-SG; sr-ME as sr-Latn-ME; pa-PK as pa-Arab-PK. The likely script
 * is shown where CLDR's locale identifiers carry it (zh, sr, pa, uz, ...)
 * and left out where they do not (en-Latn-GB reads as en-GB). A table's own
 * tags are read the same way, so a table language "zh-TW" is zh-Hant-TW.
 *
 * The fallback chain. A tag's chain is the language it reads as, then each
 * parent in turn: the parent CLDR's parentLocales names (en-GB, en-IN:
 * en-001; en-DE: en-150, then en-001; es-MX, es-AR: es-419; pt-AO, pt-MZ:
 * pt-PT; zh-Hant-MO: zh-Hant-HK; hi-Latn: en-IN; nb, nn: no), else the
 * language less its last subtag; a language written in a script other
 * than its likely one has no parent (CLDR's root), so zh-Hant never falls
 * to zh (Simplified) and sr-Latn never to sr (Cyrillic). Chains:
 *   zh-TW       zh-Hant-TW, zh-Hant
 *   zh-Hant-MO  zh-Hant-MO, zh-Hant-HK, zh-Hant
 *   zh-CN       zh-Hans-CN, zh-Hans
 *   en-GB       en-GB, en-001, en
 *   es-MX       es-MX, es-419, es
 *   pt-BR       pt-BR, pt
 *   pt-AO       pt-AO, pt-PT, pt
 *   sr-Latn-RS  sr-Latn-RS, sr-Latn
 * A language the chain does not reach is not used: a lookup then ends at
 * the table's default language (language 0).
 *
 * Choosing. A lookup takes, step by step along the chain, the first table
 * language (in table order) that reads as that step; a language with no
 * text for the entry is passed over, so a missing translation falls
 * further along the chain, then to the default language. For a language
 * the rule does not know to have several scripts a script subtag is
 * compared as written (ru-Cyrl-RU: ru-Cyrl-RU, ru-Cyrl, ru).
 *
 * The data are CLDR 47's (likelySubtags, parentLocales, languageAlias),
 * kept to the languages with more than one script and the parents other
 * than the truncated tag; scripts/cldr/language-rule-data.py writes them.
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
 * errcore_language_from_identifier — writes the BCP 47 tag of a locale
 * identifier as the language rule reads it (top of this file): a BCP 47
 * tag as it is, case kept; a POSIX or ICU identifier
 * (language[_territory][.codeset][@modifier], "zh_Hant_TW") with '_' as '-',
 * the codeset left out, and the modifiers "latin", "cyrillic" and
 * "devanagari" as the script (after the language) and "valencia" as a
 * variant (other modifiers are left out): "sr_RS.UTF-8@latin" gives
 * "sr-Latn-RS", "ca_ES@valencia" "ca-ES-valencia". The tag ends before the
 * first subtag that is not 1 to 8 ASCII letters or digits, before any
 * subtag that would make it longer than ERRCORE_MAX_TAG_LENGTH, and without
 * a trailing singleton; what is written is then errcore_language_tag_valid.
 * Same buffer contract as errcore_describe() (a buffer of
 * ERRCORE_MAX_TAG_LENGTH + 1 bytes always suffices). Returns the tag's
 * length, 0 (writing "") when the identifier names no language: NULL, "",
 * "C", "POSIX" (any case, with or without a codeset), or a first subtag
 * that is not 2 to 8 letters.
 */
ERRCORE_API size_t errcore_language_from_identifier(const char *identifier, char *buf, size_t size);

/*
 * errcore_language_fallback — writes step `step` of the fallback chain of
 * `tag` (a tag or locale identifier; top of this file): step 0 is the
 * language it reads as ("zh-TW": "zh-Hant-TW"), step 1 its parent
 * ("zh-Hant"), and so on. Each step is written in conventional case
 * (language lower case, script title case, region upper case). Same buffer
 * contract as errcore_describe() (a buffer of ERRCORE_MAX_TAG_LENGTH + 1
 * bytes always suffices). Returns the step's length, 0 (writing "") when
 * the chain has no such step or `tag` names no language (NULL included).
 * Chains have at most 16 steps.
 */
ERRCORE_API size_t errcore_language_fallback(const char *tag, size_t step, char *buf, size_t size);

/*
 * errcore_language_distance — the step of wanted's fallback chain that
 * `tag` reads as: 0 when they are the same language ("zh-TW" and
 * "zh-Hant-TW"; "zh" and "zh-Hans"), 1 for its parent ("zh-Hant" for
 * "zh-TW"), and so on. Returns ERRCORE_NO_INDEX when `tag` is not on the
 * chain ("zh" for "zh-TW"; "en" for "zh") or either names no language
 * (NULL included).
 */
ERRCORE_API size_t errcore_language_distance(const char *wanted, const char *tag);

/*
 * errcore_language_choose — the index of the language of tags[0 ...
 * count-1] that serves `wanted`: the one with the smallest
 * errcore_language_distance(), the lowest index among equals. For a plain
 * list of tags (the words of errcore_describe_for_tag() are chosen this
 * way) or a table's (errcore_language_tag() for each index below
 * errcore_language_count()). NULL elements are passed over. Returns
 * ERRCORE_NO_INDEX when none is on wanted's chain, wanted names no
 * language, or tags is NULL: the caller then uses its default.
 */
ERRCORE_API size_t errcore_language_choose(const char *const *tags, size_t count, const char *wanted);

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
 * errcore_entry_message_for_tag — the message of entry `index` for `tag` (a
 * tag or locale identifier), chosen by the language rule at the top of this
 * file: the text of the first language along tag's chain that has one, else
 * the default language's (also for a NULL tag or one that names no
 * language). Returns NULL when table is NULL or index >= entry_count.
 * Linear in the number of languages times the steps of the chain.
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
 * message with errcore_message_for_tag()'s fallback; the words for
 * unrecognised, unknown and success codes exist in English ("en"),
 * Simplified Chinese ("zh-Hans"), Traditional Chinese ("zh-Hant") and Hindi
 * ("hi"), chosen among those four by the language rule (so zh, zh-CN and
 * zh-SG give Simplified, zh-TW, zh-HK and zh-MO Traditional), English when
 * none serves; the module's title in a description comes from the table as
 * errcore_module_title_for_tag() gives it. Same buffer contract and return
 * value as errcore_describe().
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
