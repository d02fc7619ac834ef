/* test_language_rule.c — the language rule (errcore_text.h): identifiers read as tags, fallback
 * chains against CLDR's data, choosing among a list of tags, a table's lookups along the chain,
 * and the built-in catalog's answers for Traditional and Simplified Chinese tags. */
#include <stdalign.h>
#include <string.h>

#include "check.h"
#include "cldr_facts.h"
#include "errcore_default_catalog.h"

static int same(const char *a, const char *b) {
    return a && b && strcmp(a, b) == 0;
}

/* The whole chain of `tag`, its steps joined by " > " ("" for none). */
static void chain_of(const char *tag, char *out, size_t size) {
    char step[ERRCORE_MAX_TAG_LENGTH + 1];
    out[0] = '\0';
    for (size_t s = 0; errcore_language_fallback(tag, s, step, sizeof step) > 0; s++) {
        if (s > 0) {
            strncat(out, " > ", size - strlen(out) - 1);
        }
        strncat(out, step, size - strlen(out) - 1);
    }
}

/* Every row of the rule's CLDR data, as CLDR's files say it (scripts/cldr/language-rule-data.py). */
static void test_cldr_facts(void) {
    for (size_t i = 0; i < sizeof cldr_facts / sizeof cldr_facts[0]; i++) {
        const cldr_fact *f = &cldr_facts[i];
        char got[ERRCORE_MAX_TAG_LENGTH + 1];
        size_t n = errcore_language_fallback(f->tag, f->step, got, sizeof got);
        CHECKF(n == strlen(f->expected) && strcmp(got, f->expected) == 0, "%s step %zu: got \"%s\", want \"%s\"",
               f->tag, f->step, got, f->expected);
    }
}

static void test_chains(void) {
    static const struct {
        const char *tag;
        const char *chain;
    } cases[] = {
        {"zh-TW", "zh-Hant-TW > zh-Hant"},
        {"zh-HK", "zh-Hant-HK > zh-Hant"},
        {"zh-MO", "zh-Hant-MO > zh-Hant-HK > zh-Hant"},
        {"zh-Hant-TW", "zh-Hant-TW > zh-Hant"},
        {"zh-Hant-MO", "zh-Hant-MO > zh-Hant-HK > zh-Hant"},
        {"zh-Hant", "zh-Hant"},
        {"zh-CN", "zh-Hans-CN > zh-Hans"},
        {"zh-SG", "zh-Hans-SG > zh-Hans"},
        {"zh", "zh-Hans"},
        {"zh-Hans-TW", "zh-Hans-TW > zh-Hans"},
        {"pt-BR", "pt-BR > pt"},
        {"pt-AO", "pt-AO > pt-PT > pt"},
        {"pt-MZ", "pt-MZ > pt-PT > pt"},
        {"en-GB", "en-GB > en-001 > en"},
        {"en-IN", "en-IN > en-001 > en"},
        {"en-DE", "en-DE > en-150 > en-001 > en"},
        {"en-US", "en-US > en"},
        {"en-Latn-GB", "en-GB > en-001 > en"},
        {"es-MX", "es-MX > es-419 > es"},
        {"es-AR", "es-AR > es-419 > es"},
        {"es-ES", "es-ES > es"},
        {"sr-Latn", "sr-Latn"},
        {"sr-Latn-RS", "sr-Latn-RS > sr-Latn"},
        {"sr", "sr-Cyrl"},
        {"sr-RS", "sr-Cyrl-RS > sr-Cyrl"},
        {"sr-ME", "sr-Latn-ME > sr-Latn"},
        {"hi-Latn-IN", "hi-Latn-IN > hi-Latn > en-IN > en-001 > en"},
        {"hi-IN", "hi-IN > hi"},
        {"pa-PK", "pa-Arab-PK > pa-Arab"},
        {"pa", "pa-Guru"},
        {"uz-AF", "uz-Arab-AF > uz-Arab"},
        {"nb-NO", "nb-NO > nb > no"},
        {"ru-Cyrl-RU", "ru-Cyrl-RU > ru-Cyrl > ru"},
        {"de-DE-1996-fonipa", "de-DE-1996-fonipa > de-DE-1996 > de-DE > de"},
        {"ZH-hant-tw", "zh-Hant-TW > zh-Hant"},
        /* Extensions, private use and subtags out of place end the tag. */
        {"en-GB-u-ca-buddhist", "en-GB > en-001 > en"},
        {"zh-TW-x-private", "zh-Hant-TW > zh-Hant"},
        {"en-US-Latn", "en-US > en"},
        {"zh-", "zh-Hans"},
        /* Extended language subtags and CLDR's replacements. */
        {"zh-yue-HK", "yue-Hant-HK > yue-Hant"},
        {"zh-cmn-Hans-CN", "zh-Hans-CN > zh-Hans"},
        {"iw-IL", "he-IL > he"},
        {"in", "id"},
        {"sh", "sr-Latn"},
        {"tl-PH", "fil-PH > fil"},
        /* POSIX and ICU identifiers. */
        {"zh_TW.UTF-8", "zh-Hant-TW > zh-Hant"},
        {"zh_CN.GB18030", "zh-Hans-CN > zh-Hans"},
        {"zh_Hant_HK", "zh-Hant-HK > zh-Hant"},
        {"sr_RS.UTF-8@latin", "sr-Latn-RS > sr-Latn"},
        {"uz_UZ@cyrillic", "uz-Cyrl-UZ > uz-Cyrl"},
        {"ks_IN@devanagari", "ks-Deva-IN > ks-Deva"},
        {"ca_ES@valencia", "ca-ES-valencia > ca-ES > ca"},
        {"de_DE@euro", "de-DE > de"},
        /* No language. */
        {"", ""},
        {"C", ""},
        {"C.UTF-8", ""},
        {"POSIX", ""},
        {"x-private", ""},
        {"i-klingon", ""},
        {"-en", ""},
        {"en US", ""},
        {"é", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[512];
        chain_of(cases[i].tag, got, sizeof got);
        CHECKF(strcmp(got, cases[i].chain) == 0, "\"%s\": got \"%s\", want \"%s\"", cases[i].tag, got, cases[i].chain);
    }
    char buf[ERRCORE_MAX_TAG_LENGTH + 1];
    CHECK(errcore_language_fallback(NULL, 0, buf, sizeof buf) == 0 && buf[0] == '\0');
    CHECK(errcore_language_fallback("zh-TW", 2, buf, sizeof buf) == 0 && buf[0] == '\0');
    CHECK(errcore_language_fallback("zh-TW", (size_t)-1, buf, sizeof buf) == 0);
    /* The buffer contract: the whole length, a cut copy. */
    CHECK(errcore_language_fallback("zh-TW", 0, NULL, 0) == 10);
    char small[4];
    CHECK(errcore_language_fallback("zh-TW", 0, small, sizeof small) == 10 && strcmp(small, "zh-") == 0);
    /* Each step is well formed and fits ERRCORE_MAX_TAG_LENGTH, however long the tag. */
    const char *longest = "zh-TW-abcdefgh-bcdefghi-cdefghij-defghijk-efghijkl-fghijklm-ghijklmn-hijklmno";
    CHECK(errcore_language_fallback(longest, 0, buf, sizeof buf) <= ERRCORE_MAX_TAG_LENGTH);
    CHECK(errcore_language_tag_valid(buf) && strncmp(buf, "zh-Hant-TW-abcdefgh", 19) == 0);
}

static void test_identifiers(void) {
    static const struct {
        const char *identifier;
        const char *tag;
    } cases[] = {
        {"zh-TW", "zh-TW"},
        {"ZH-hant-tw", "ZH-hant-tw"},
        {"en-US-u-ca-buddhist", "en-US-u-ca-buddhist"},
        {"zh_TW.UTF-8", "zh-TW"},
        {"zh_Hant_TW", "zh-Hant-TW"},
        {"en_US.UTF-8@euro", "en-US"},
        {"sr_RS.UTF-8@latin", "sr-Latn-RS"},
        {"sr@latin", "sr-Latn"},
        {"sr_Latn_RS@latin", "sr-Latn-RS"},
        {"be_BY@latin", "be-Latn-BY"},
        {"ca_ES@valencia", "ca-ES-valencia"},
        {"hi_IN", "hi-IN"},
        {"en-u", "en"},
        {"en-US-x", "en-US"},
        {"en-US-!", "en-US"},
        {"zh_TW_#Hant", "zh-TW"},
        {"", ""},
        {"C", ""},
        {"C.UTF-8", ""},
        {"POSIX", ""},
        {"posix", ""},
        {"x-private", ""},
        {"_TW", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[ERRCORE_MAX_TAG_LENGTH + 1];
        size_t n = errcore_language_from_identifier(cases[i].identifier, got, sizeof got);
        CHECKF(n == strlen(cases[i].tag) && strcmp(got, cases[i].tag) == 0, "\"%s\": got \"%s\", want \"%s\"",
               cases[i].identifier, got, cases[i].tag);
        CHECKF(n == 0 || errcore_language_tag_valid(got), "\"%s\" gives a malformed tag \"%s\"", cases[i].identifier,
               got);
    }
    char got[ERRCORE_MAX_TAG_LENGTH + 1];
    CHECK(errcore_language_from_identifier(NULL, got, sizeof got) == 0 && got[0] == '\0');
    /* Cut before the subtag that would pass ERRCORE_MAX_TAG_LENGTH. */
    const char *long_one = "en-US-u-ca-buddhist-co-phonebk-nu-latn-kb-true-kc-false-kn-true-ks-level1";
    size_t n = errcore_language_from_identifier(long_one, got, sizeof got);
    CHECK(n <= ERRCORE_MAX_TAG_LENGTH && errcore_language_tag_valid(got) && strncmp(got, long_one, n) == 0);
    CHECK(long_one[n] == '-');
}

/* The languages of the choice tests and, in the same order, a table of them. */
static const char *const many[] = {"en",    "zh-Hans", "zh-Hant", "hi",     "pt",         "pt-PT",   "es", "es-419",
                                   "en-GB", "sr-Latn", "sr",      "en-001", "zh-Hant-HK", "uz-Cyrl", "pa"};
enum { MANY = sizeof many / sizeof many[0] };

static void test_choose(void) {
    static const struct {
        const char *wanted;
        const char *chosen; /* NULL: none on the chain */
    } cases[] = {
        {"zh-TW", "zh-Hant"},
        {"zh-Hant-TW", "zh-Hant"},
        {"zh-HK", "zh-Hant-HK"},
        {"zh-MO", "zh-Hant-HK"},
        {"zh-Hant-MO", "zh-Hant-HK"},
        {"zh-CN", "zh-Hans"},
        {"zh-SG", "zh-Hans"},
        {"zh", "zh-Hans"},
        {"zh-Hans-HK", "zh-Hans"},
        {"pt-BR", "pt"},
        {"pt-AO", "pt-PT"},
        {"pt-MZ", "pt-PT"},
        {"pt-PT", "pt-PT"},
        {"en-GB", "en-GB"},
        {"en-IN", "en-001"},
        {"en-AU", "en-001"},
        {"en-DE", "en-001"},
        {"en-US", "en"},
        {"EN", "en"},
        {"es-MX", "es-419"},
        {"es-AR", "es-419"},
        {"es-ES", "es"},
        {"sr-Latn", "sr-Latn"},
        {"sr-Latn-RS", "sr-Latn"},
        {"sr-ME", "sr-Latn"},
        {"sr-RS", "sr"},
        {"sr-Cyrl", "sr"},
        {"uz", NULL},
        {"uz-Cyrl-UZ", "uz-Cyrl"},
        {"pa-PK", NULL},
        {"pa-IN", "pa"},
        {"hi-IN", "hi"},
        {"hi-Latn", "en-001"},
        {"fr", NULL},
        {"zh_TW.UTF-8", "zh-Hant"},
        {"en-GB-u-ms-metric", "en-GB"},
        {"C", NULL},
        {NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t k = errcore_language_choose(many, MANY, cases[i].wanted);
        const char *got = k == ERRCORE_NO_INDEX ? NULL : many[k];
        CHECKF(cases[i].chosen ? same(got, cases[i].chosen) : got == NULL, "\"%s\": got %s, want %s",
               cases[i].wanted ? cases[i].wanted : "(null)", got ? got : "none",
               cases[i].chosen ? cases[i].chosen : "none");
    }
    /* A list written non-canonically matches on what its tags read as. */
    const char *const written[] = {"en", "zh-TW", "zh-CN", "zh"};
    CHECK(errcore_language_choose(written, 4, "zh-Hant-TW") == 1);
    CHECK(errcore_language_choose(written, 4, "zh-TW") == 1);
    CHECK(errcore_language_choose(written, 4, "zh-Hans-CN") == 2);
    CHECK(errcore_language_choose(written, 4, "zh-SG") == 3);
    CHECK(errcore_language_choose(written, 4, "zh-Hans") == 3);
    CHECK(errcore_language_choose(written, 4, "zh-HK") == ERRCORE_NO_INDEX);
    /* Equal distance: the lowest index; NULL elements passed over; a NULL list. */
    const char *const twice[] = {NULL, "zh", "zh-Hans"};
    CHECK(errcore_language_choose(twice, 3, "zh-Hans") == 1);
    CHECK(errcore_language_choose(NULL, 3, "zh-Hans") == ERRCORE_NO_INDEX);
    CHECK(errcore_language_choose(twice, 0, "zh-Hans") == ERRCORE_NO_INDEX);

    CHECK(errcore_language_distance("zh-TW", "zh-Hant-TW") == 0);
    CHECK(errcore_language_distance("zh-TW", "zh-Hant") == 1);
    CHECK(errcore_language_distance("zh-TW", "zh") == ERRCORE_NO_INDEX);
    CHECK(errcore_language_distance("zh", "zh-Hans") == 0);
    CHECK(errcore_language_distance("en-DE", "en") == 3);
    CHECK(errcore_language_distance("en", "en-GB") == ERRCORE_NO_INDEX);
    CHECK(errcore_language_distance(NULL, "en") == ERRCORE_NO_INDEX);
    CHECK(errcore_language_distance("en", NULL) == ERRCORE_NO_INDEX);
}

/* A table of the `many` languages: entry 1 has a text in every language ("=" and the tag), entry 2
 * only in en, zh-Hant, es and pt-PT. */
static void test_table_lookup(void) {
    const char *everywhere[MANY];
    char texts[MANY][32];
    for (size_t k = 0; k < MANY; k++) {
        strcpy(texts[k], "=");
        strcat(texts[k], many[k]);
        everywhere[k] = texts[k];
    }
    const char *some[MANY] = {"=en", NULL, "=zh-Hant", NULL, NULL, "=pt-PT", "=es"};
    const errcore_entry_def entries[2] = {{1, 0, 0, "all", NULL, NULL, everywhere},
                                          {2, 0, 0, "some", NULL, NULL, some}};
    errcore_catalog_def def = {0, entries, 2, NULL, 0, NULL, 0, many, MANY};
    alignas(8) static unsigned char storage[16384];
    errcore_table t;
    CHECK(errcore_build(&def, storage, sizeof storage, &t, NULL) == ERRCORE_OK);
    /* Every entry text present: the table answers in the language errcore_language_choose picks. */
    static const char *const wanted[] = {"zh-TW", "zh-HK", "zh-MO",   "zh-CN", "zh",      "pt-BR", "pt-AO",
                                         "en-GB", "en-IN", "en-US",   "es-MX", "es-ES",   "sr-ME", "sr-RS",
                                         "uz",    "pa-PK", "hi-Latn", "fr",    "en_GB@x", "C"};
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        size_t k = errcore_language_choose(many, MANY, wanted[i]);
        const char *want = texts[k == ERRCORE_NO_INDEX ? 0 : k];
        const char *got = errcore_message_for_tag(&t, 1, wanted[i]);
        CHECKF(same(got, want), "%s: got %s, want %s", wanted[i], got ? got : "(null)", want);
    }
    /* A missing translation falls further along the chain, then to the default. */
    CHECK(same(errcore_message_for_tag(&t, 2, "zh-Hant-MO"), "=zh-Hant"));
    CHECK(same(errcore_message_for_tag(&t, 2, "es-MX"), "=es"));
    CHECK(same(errcore_message_for_tag(&t, 2, "pt-AO"), "=pt-PT"));
    CHECK(same(errcore_message_for_tag(&t, 2, "pt-BR"), "=en"));
    CHECK(same(errcore_message_for_tag(&t, 2, "en-IN"), "=en"));
    CHECK(same(errcore_message_for_tag(&t, 2, "zh-CN"), "=en"));
    /* The two-language view reads "en" and "zh-Hans". */
    uint32_t all = errcore_class_entry(errcore_classify(&t, 1));
    CHECK(same(t.strings + t.entries[all].message_en, "=en"));
    CHECK(same(t.strings + t.entries[all].message_zh, "=zh-Hans"));
    CHECK(same(errcore_entry_message(&t, all, ERRCORE_LANG_ZH_HANS), "=zh-Hans"));
}

/* The built-in catalog: Traditional Chinese tags get the zh-Hant text, Simplified ones nothing but
 * Chinese. */
static void test_built_in_chinese(void) {
    const errcore_table *t = errcore_default_table();
    const char *traditional = errcore_message_for_tag(t, 11001, "zh-Hant");
    const char *simplified = errcore_message_for_tag(t, 11001, "zh-Hans");
    const char *english = errcore_message_for_tag(t, 11001, "en");
    CHECK(traditional && simplified && english && strcmp(traditional, simplified) != 0);
    static const char *const hant[] = {"zh-TW", "zh-HK", "zh-MO", "zh-Hant-TW", "zh_TW.UTF-8", "zh-Hant-MO"};
    for (size_t i = 0; i < sizeof hant / sizeof hant[0]; i++) {
        CHECKF(same(errcore_message_for_tag(t, 11001, hant[i]), traditional), "%s", hant[i]);
    }
    static const char *const hans[] = {"zh-CN", "zh-SG", "zh", "zh-Hans-CN", "zh_CN.UTF-8"};
    for (size_t i = 0; i < sizeof hans / sizeof hans[0]; i++) {
        CHECKF(same(errcore_message_for_tag(t, 11001, hans[i]), simplified), "%s", hans[i]);
        char buf[160];
        errcore_describe_for_tag(t, 11219999, hans[i], buf, sizeof buf);
        CHECKF(strcmp(buf, "未识别的学习小组错误(错误码 11219999)") == 0, "%s: %s", hans[i], buf);
        errcore_describe_for_tag(t, 7, hans[i], buf, sizeof buf);
        CHECKF(strcmp(buf, "未知的响应码 7") == 0, "%s: %s", hans[i], buf);
        errcore_describe_for_tag(t, 11001, hans[i], buf, sizeof buf);
        CHECKF(strcmp(buf, simplified) == 0, "%s: %s", hans[i], buf);
    }
    char buf[160];
    errcore_describe_for_tag(t, 11219999, "zh-TW", buf, sizeof buf);
    CHECKF(strcmp(buf, "無法辨識的學習小組錯誤(錯誤碼 11219999)") == 0, "%s", buf);
    /* zh-Hant's parent is the root: a table without zh-Hant answers in its default, not in zh-Hans. */
    const char *const two[] = {"en", "zh-Hans"};
    CHECK(errcore_language_choose(two, 2, "zh-TW") == ERRCORE_NO_INDEX);
}

void test_language_rule(void) {
    test_cldr_facts();
    test_chains();
    test_identifiers();
    test_choose();
    test_table_lookup();
    test_built_in_chinese();
}
