/* test_languages.c — tables with any number of languages: building, lookup along the language
 * rule's chain, the two-language view, bad tags and duplicates, validation of a table's language list, and
 * the built-in catalog's four languages. */
#include <stdalign.h>
#include <string.h>

#include "build_bytes.h"
#include "check.h"
#include "errcore_default_catalog.h"

static int same(const char *a, const char *b) {
    return a && b && strcmp(a, b) == 0;
}

/* A catalog in five languages, the default "pt-BR"; not every text exists in every language. */
static const char *const five[5] = {"pt-BR", "en", "zh-Hans", "zh-Hant", "zh"};
static const char *const ok_texts[5] = {"Tudo certo", "OK", "成功", NULL, "好"};
static const char *const late_texts[5] = {"Atrasado", "Late", NULL, "遲到", NULL};
static const char *const gone_texts[5] = {"Sumiu", NULL, NULL, NULL, NULL};
static const char *const beta_titles[5] = {NULL, "Beta", NULL, "貝塔", NULL};

typedef struct built {
    alignas(8) unsigned char storage[8192];
    errcore_table table;
    errcore_diag diag;
    errcore_status status;
} built;

static void build_five(built *b, const char *const *languages, size_t count) {
    const errcore_entry_def entries[3] = {
        {550, 1, 0, "late", "ignored", "ignored", late_texts},
        {0, 0, 0, "success", NULL, NULL, ok_texts},
        {560, 1, 0, "gone", NULL, NULL, gone_texts},
    };
    const errcore_module_def modules[1] = {{"beta", "ignored", NULL, beta_titles}};
    const errcore_range ranges[1] = {{500, 599, 1}};
    errcore_catalog_def def = {0, entries, 3, modules, 1, ranges, 1, languages, count};
    memset(b, 0, sizeof *b);
    b->status = errcore_build(&def, b->storage, sizeof b->storage, &b->table, &b->diag);
}

static void test_tag_syntax(void) {
    const char *good[] = {"en", "zh-Hans", "zh-Hant-HK", "pt-BR", "es-419", "sr-Latn-RS", "HI"};
    const char *bad[] = {"", "e", "1a", "en-", "-en", "en--US", "en_US", "zh-Hans-toolongsubtag", "en US", "é"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CHECKF(errcore_language_tag_valid(good[i]), "%s", good[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECKF(!errcore_language_tag_valid(bad[i]), "%s", bad[i]);
    }
    CHECK(!errcore_language_tag_valid(NULL));
    char longest[ERRCORE_MAX_TAG_LENGTH + 2];
    memset(longest, 'a', sizeof longest);
    for (size_t i = 7; i < ERRCORE_MAX_TAG_LENGTH; i += 8) {
        longest[i] = '-';
    }
    longest[ERRCORE_MAX_TAG_LENGTH] = '\0';
    CHECK(errcore_language_tag_valid(longest));
    longest[ERRCORE_MAX_TAG_LENGTH] = 'a';
    longest[ERRCORE_MAX_TAG_LENGTH + 1] = '\0';
    CHECK(!errcore_language_tag_valid(longest));
}

static void test_lookup(void) {
    built b;
    build_five(&b, five, 5);
    CHECK(b.status == ERRCORE_OK);
    CHECK(errcore_validate(&b.table, NULL) == ERRCORE_OK);
    const errcore_table *t = &b.table;
    CHECK(errcore_language_count(t) == 5);
    CHECK(same(errcore_language_tag(t, 0), "pt-BR") && same(errcore_language_tag(t, 4), "zh"));
    CHECK(errcore_language_tag(t, 5) == NULL && errcore_language_tag(NULL, 0) == NULL);
    CHECK(errcore_language_index(t, "ZH-hant") == 3 && errcore_language_index(t, "zh-Hant-HK") == ERRCORE_NO_INDEX);

    /* Exact, case-insensitive. */
    CHECK(same(errcore_message_for_tag(t, 0, "EN"), "OK"));
    CHECK(same(errcore_message_for_tag(t, 550, "zh-hant"), "遲到"));
    /* Along the chain: zh-Hant-HK -> zh-Hant; zh-Hant missing for success -> the default, never
     * zh (Simplified: zh-Hant's parent is the root). */
    CHECK(same(errcore_message_for_tag(t, 550, "zh-Hant-HK"), "遲到"));
    CHECK(same(errcore_message_for_tag(t, 0, "zh-Hant-HK"), "Tudo certo"));
    CHECK(same(errcore_message_for_tag(t, 0, "zh-Hans-CN"), "成功"));
    /* zh-Hans missing for 550, no zh text either: the default language. */
    CHECK(same(errcore_message_for_tag(t, 550, "zh-Hans"), "Atrasado"));
    /* A language the table lacks, a malformed tag, NULL and "": the default. */
    CHECK(same(errcore_message_for_tag(t, 550, "hi"), "Atrasado"));
    CHECK(same(errcore_message_for_tag(t, 550, "not a tag"), "Atrasado"));
    CHECK(same(errcore_message_for_tag(t, 550, NULL), "Atrasado"));
    CHECK(same(errcore_message_for_tag(t, 550, ""), "Atrasado"));
    CHECK(same(errcore_message_for_tag(t, 560, "en-GB"), "Sumiu"));
    /* Codes without an entry of their own. */
    CHECK(errcore_message_for_tag(t, 599, "en") == NULL && errcore_message_for_tag(t, 7, "en") == NULL);
    CHECK(errcore_message_for_tag(NULL, 0, "en") == NULL);
    /* Titles: the default language has none, so the name. */
    CHECK(same(errcore_module_title_for_tag(t, 1, "zh-Hant-TW"), "貝塔"));
    CHECK(same(errcore_module_title_for_tag(t, 1, "en-US"), "Beta"));
    CHECK(same(errcore_module_title_for_tag(t, 1, "pt"), "beta"));
    CHECK(errcore_module_title_for_tag(t, 2, "en") == NULL);

    /* The two-language view and the errcore_lang wrappers. */
    uint32_t late = errcore_class_entry(errcore_classify(t, 550));
    CHECK(same(t->strings + t->entries[late].message_en, "Late"));
    CHECK(t->entries[late].message_zh == ERRCORE_NO_STRING);
    CHECK(same(errcore_entry_message(t, late, ERRCORE_LANG_ZH_HANS), "Atrasado"));
    uint32_t gone = errcore_class_entry(errcore_classify(t, 560));
    CHECK(same(t->strings + t->entries[gone].message_en, "Sumiu"));
    CHECK(same(errcore_module_title(t, 1, ERRCORE_LANG_EN), "Beta"));

    /* Descriptions of codes without an entry, in the words the language rule picks. */
    char buf[128];
    errcore_describe_for_tag(t, 599, "zh-Hant-TW", buf, sizeof buf);
    CHECKF(strcmp(buf, "無法辨識的貝塔錯誤(錯誤碼 599)") == 0, "%s", buf);
    errcore_describe_for_tag(t, 7, "hi-IN", buf, sizeof buf);
    CHECKF(strcmp(buf, "अज्ञात प्रतिक्रिया कोड 7") == 0, "%s", buf);
    errcore_describe_for_tag(t, 7, "pt-BR", buf, sizeof buf);
    CHECKF(strcmp(buf, "Unknown response code 7") == 0, "%s", buf);
    errcore_describe_for_tag(t, 550, "zh-TW", buf, sizeof buf);
    CHECKF(strcmp(buf, "遲到") == 0, "zh-TW reads as zh-Hant-TW, then zh-Hant: %s", buf);
}

/* Every report of errcore_check_catalog, up to eight. */
typedef struct seen_reports {
    size_t count;
    errcore_diag d[8];
} seen_reports;

static int collect(void *context, const errcore_diag *d) {
    seen_reports *seen = context;
    if (seen->count < 8) {
        seen->d[seen->count] = *d;
    }
    seen->count++;
    return 0;
}

static void test_bad_languages(void) {
    built b;
    const char *const malformed[3] = {"en", "zh_Hans", "hi"};
    build_five(&b, malformed, 3);
    CHECK(b.status == ERRCORE_E_BAD_LANGUAGE_TAG && b.diag.subject == ERRCORE_SUBJECT_LANGUAGE && b.diag.index == 1);
    char text[128];
    errcore_diag_format(&b.diag, text, sizeof text);
    CHECKF(strcmp(text, "malformed language tag: language 1") == 0, "%s", text);

    const char *const twice[4] = {"en", "zh-Hant", "hi", "ZH-hant"};
    build_five(&b, twice, 4);
    CHECK(b.status == ERRCORE_E_DUPLICATE_LANGUAGE && b.diag.index == 3 && b.diag.other_index == 1);
    errcore_diag_format(&b.diag, text, sizeof text);
    CHECKF(strcmp(text, "duplicate language tag: language 3 repeats language 1") == 0, "%s", text);

    const char *const with_null[2] = {"en", NULL};
    build_five(&b, with_null, 2);
    CHECK(b.status == ERRCORE_E_NULL_ARGUMENT && b.diag.subject == ERRCORE_SUBJECT_LANGUAGE && b.diag.index == 1);

    build_five(&b, NULL, 2);
    CHECK(b.status == ERRCORE_E_NULL_ARGUMENT && b.diag.subject == ERRCORE_SUBJECT_LANGUAGE);

    /* errcore_check_catalog reports every bad and duplicate tag. */
    const char *const several[5] = {"en", "", "en", "e n", "EN"};
    const errcore_entry_def entries[1] = {{0, 0, 0, "success", NULL, NULL, NULL}};
    errcore_catalog_def def = {0, entries, 1, NULL, 0, NULL, 0, several, 5};
    alignas(8) unsigned char scratch[256];
    seen_reports seen;
    memset(&seen, 0, sizeof seen);
    CHECK(errcore_check_catalog(&def, scratch, sizeof scratch, collect, &seen) == ERRCORE_E_BAD_LANGUAGE_TAG);
    CHECK(seen.count == 4);
    CHECK(seen.d[0].status == ERRCORE_E_BAD_LANGUAGE_TAG && seen.d[0].index == 1);
    CHECK(seen.d[1].status == ERRCORE_E_DUPLICATE_LANGUAGE && seen.d[1].index == 2 && seen.d[1].other_index == 0);
    CHECK(seen.d[2].status == ERRCORE_E_BAD_LANGUAGE_TAG && seen.d[2].index == 3);
    CHECK(seen.d[3].status == ERRCORE_E_DUPLICATE_LANGUAGE && seen.d[3].index == 4 && seen.d[3].other_index == 0);
}

static void test_validate_languages(void) {
    built b;
    build_five(&b, five, 5);
    errcore_table t = b.table;
    errcore_diag d;
    uint32_t tags[5];
    memcpy(tags, t.languages, sizeof tags);
    t.languages = tags;
    tags[4] = tags[3]; /* zh-Hant twice */
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_DUPLICATE_LANGUAGE && d.index == 4 && d.other_index == 3);
    tags[4] = (uint32_t)t.strings_size; /* outside the pool */
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_STRING && d.subject == ERRCORE_SUBJECT_LANGUAGE);
    t.languages = b.table.languages;

    uint32_t messages[15];
    memcpy(messages, t.messages, sizeof messages);
    t.messages = messages;
    messages[0] = ERRCORE_NO_STRING; /* the default language's message of entry 0 */
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_STRING && d.subject == ERRCORE_SUBJECT_ENTRY && d.index == 0);
    messages[0] = b.table.messages[0];
    messages[7] = 0xFFFFFF00u;
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_BAD_STRING && d.index == 1);
    t.messages = NULL;
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_NULL_ARGUMENT && d.subject == ERRCORE_SUBJECT_LANGUAGE);
    t.messages = b.table.messages;
    t.language_count = ERRCORE_MAX_LANGUAGES + 1u;
    CHECK(errcore_validate(&t, &d) == ERRCORE_E_COUNT_OVERFLOW && d.subject == ERRCORE_SUBJECT_LANGUAGE);

    /* A table without a language list has "en" and "zh-Hans". */
    t = b.table;
    t.languages = NULL;
    t.language_count = 0;
    t.messages = NULL;
    t.titles = NULL;
    CHECK(errcore_validate(&t, NULL) == ERRCORE_OK);
    CHECK(errcore_language_count(&t) == 2 && same(errcore_language_tag(&t, 1), "zh-Hans"));
    CHECK(same(errcore_message_for_tag(&t, 550, "en"), "Late"));
    CHECK(same(errcore_message_for_tag(&t, 550, "zh-Hans"), "Late"));
}

static void test_built_in(void) {
    const errcore_table *t = errcore_default_table();
    CHECK(errcore_validate(t, NULL) == ERRCORE_OK);
    CHECK(errcore_language_count(t) == 4);
    const char *tags[4] = {"en", "zh-Hans", "zh-Hant", "hi"};
    for (size_t k = 0; k < 4; k++) {
        CHECK(same(errcore_language_tag(t, k), tags[k]));
    }
    /* Every entry and every module has a text of its own in every language. */
    for (size_t i = 0; i < t->entry_count; i++) {
        for (size_t k = 0; k < 4; k++) {
            CHECKF(t->messages[i * 4 + k] != ERRCORE_NO_STRING, "entry %zu language %s", i, tags[k]);
        }
    }
    for (size_t i = 0; i < t->module_count * 4; i++) {
        CHECK(t->titles[i] != ERRCORE_NO_STRING);
    }
    CHECK(same(errcore_message_for_tag(t, 11001, "zh-Hant-TW"), "登入狀態已過期,請重新登入。"));
    CHECK(same(errcore_message_for_tag(t, 11001, "hi-IN"), "आपका सत्र समाप्त हो गया है। कृपया फिर से साइन इन करें।"));
    CHECK(same(errcore_message_for_tag(t, 11001, "fr-FR"), "Your session has expired. Please sign in again."));
    char buf[128];
    errcore_describe_for_tag(t, 11219999, "zh-Hant", buf, sizeof buf);
    CHECKF(strcmp(buf, "無法辨識的學習小組錯誤(錯誤碼 11219999)") == 0, "%s", buf);
    errcore_describe_for_tag(t, 11219999, "hi", buf, sizeof buf);
    CHECKF(strcmp(buf, "अध्ययन समूह की अपरिचित त्रुटि (कोड 11219999)") == 0, "%s", buf);
}

/* ---- Differential: random tables against a plain reference lookup ------------------------- */

/* Whether a equals b ignoring ASCII case (the reference's own comparison). */
static int ref_equal(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = (char)(*a >= 'A' && *a <= 'Z' ? *a + 32 : *a);
        char y = (char)(*b >= 'A' && *b <= 'Z' ? *b + 32 : *b);
        if (x != y) {
            return 0;
        }
    }
    return *a == *b;
}

/* The reference: each step of the tag's chain (errcore_language_fallback), the first language in
 * table order whose own step 0 is that step and which has a text, then the default. A missing text
 * in the default language is stored as "" (errcore_entry_def), so it is present. */
static const char *ref_lookup(const char *const *tags, size_t count, const char *const *texts, const char *tag) {
    char step[ERRCORE_MAX_TAG_LENGTH + 1], own[ERRCORE_MAX_TAG_LENGTH + 1];
    for (size_t s = 0; errcore_language_fallback(tag, s, step, sizeof step) > 0; s++) {
        for (size_t k = 0; k < count; k++) {
            errcore_language_fallback(tags[k], 0, own, sizeof own);
            if (strcmp(own, step) == 0 && (texts[k] || k == 0)) {
                return texts[k] ? texts[k] : "";
            }
        }
    }
    return texts[0] ? texts[0] : "";
}

static void test_random_tables(void) {
    static const char *const pool[] = {"en", "EN-gb",  "zh",    "zh-Hans",           "zh-hant", "zh-Hant-HK",
                                       "hi", "pt",     "pt-BR", "sr-Latn-RS",        "zh-TW",   "en-001",
                                       "es", "es-419", "pt-PT", "de-DE-u-co-phonebk"};
    static const char *const probes[] = {
        "en",    "en-GB",   "en-gb-x-y",      "ZH-HANT-hk", "zh-Hant-TW",  "zh-Hans-CN", "zh",    "hi-IN", "pt-br",
        "pt-PT", "sr-Latn", "sr-latn-rs-x-a", "de-DE-u-co", "fr",          "",           "-",     "zh-",   "x",
        "zh-MO", "en-IN",   "es-MX",          "pt-AO",      "zh_TW.UTF-8", "en_AU",      "zh-CN", "C"};
    static const char *const words[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    enum { POOL = sizeof pool / sizeof pool[0], MAX_ENTRIES = 12 };
    uint64_t state = 0x1A2B3C4Du;
    alignas(8) static unsigned char storage[1 << 16];
    for (int round = 0; round < 300; round++) {
        /* Distinct languages (by case-insensitive tag), in random order. */
        const char *tags[POOL];
        size_t count = 0;
        size_t wanted = 1 + (size_t)(check_rand(&state) % POOL);
        for (size_t tries = 0; tries < 40 && count < wanted; tries++) {
            const char *tag = pool[check_rand(&state) % POOL];
            int taken = 0;
            for (size_t k = 0; k < count; k++) {
                taken |= ref_equal(tags[k], tag);
            }
            if (!taken) {
                tags[count++] = tag;
            }
        }
        size_t n = 1 + (size_t)(check_rand(&state) % MAX_ENTRIES);
        const char *texts[MAX_ENTRIES][POOL];
        errcore_entry_def entries[MAX_ENTRIES];
        for (size_t i = 0; i < n; i++) {
            for (size_t k = 0; k < count; k++) {
                texts[i][k] = check_rand(&state) % 3 == 0 ? NULL : words[check_rand(&state) % 8];
            }
            entries[i] = (errcore_entry_def){(int64_t)i + 1, 0, 0, "e", NULL, NULL, texts[i]};
        }
        errcore_catalog_def def = {0, entries, n, NULL, 0, NULL, 0, tags, count};
        errcore_table t;
        errcore_diag d;
        errcore_status s = errcore_build(&def, storage, sizeof storage, &t, &d);
        CHECKF(s == ERRCORE_OK, "round %d: %s", round, errcore_status_name(s));
        if (s != ERRCORE_OK) {
            continue;
        }
        CHECK(errcore_validate(&t, NULL) == ERRCORE_OK);
        char why[160];
        uint64_t fill_state = (uint64_t)round;
        CHECKF(build_bytes_agree(&def, &fill_state, why, sizeof why), "round %d: %s", round, why);
        for (size_t i = 0; i < n; i++) {
            for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
                const char *got = errcore_message_for_tag(&t, (int64_t)i + 1, probes[p]);
                const char *want = ref_lookup(tags, count, texts[i], probes[p]);
                CHECKF(same(got, want), "round %d entry %zu tag \"%s\": got \"%s\", want \"%s\"", round, i, probes[p],
                       got ? got : "(null)", want);
            }
        }
    }
}

void test_languages(void) {
    test_tag_syntax();
    test_lookup();
    test_bad_languages();
    test_validate_languages();
    test_built_in();
    test_random_tables();
}
