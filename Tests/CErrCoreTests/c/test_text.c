/* test_text.c — names, messages with fallback, descriptions and integer formatting. */
#include <string.h>

#include "check.h"
#include "errcore_default_catalog.h"
#include "fixture.h"

static void expect_describe(const errcore_table *t, int64_t code, errcore_lang lang, const char *want, int line) {
    char buf[256];
    size_t n = errcore_describe(t, code, lang, buf, sizeof buf);
    CHECKF(strcmp(buf, want) == 0 && n == strlen(want), "line %d: got \"%s\"", line, buf);
}
#define EXPECT_DESCRIBE(t, code, lang, want) expect_describe(t, code, lang, want, __LINE__)

void test_text(void) {
    const errcore_table *t = errcore_default_table();
    EXPECT_DESCRIBE(t, 11001, ERRCORE_LANG_EN, "Your session has expired. Please sign in again.");
    EXPECT_DESCRIBE(t, 11001, ERRCORE_LANG_ZH_HANS, "登录已过期,请重新登录。");
    EXPECT_DESCRIBE(t, 11210005, ERRCORE_LANG_ZH_HANS, "班级码错误。");
    EXPECT_DESCRIBE(t, 11219999, ERRCORE_LANG_EN, "Unrecognised Study group error (code 11219999)");
    EXPECT_DESCRIBE(t, 11219999, ERRCORE_LANG_ZH_HANS, "未识别的学习小组错误(错误码 11219999)");
    EXPECT_DESCRIBE(t, 4294978297LL, ERRCORE_LANG_EN, "Unknown response code 4294978297");
    EXPECT_DESCRIBE(t, INT64_MIN, ERRCORE_LANG_ZH_HANS, "未知的响应码 -9223372036854775808");
    EXPECT_DESCRIBE(t, 0, ERRCORE_LANG_EN, "OK");
    EXPECT_DESCRIBE(NULL, 11001, ERRCORE_LANG_EN, "Unknown response code 11001");

    char small[8];
    size_t full = errcore_describe(t, 4294978297LL, ERRCORE_LANG_EN, small, sizeof small);
    CHECK(full == strlen("Unknown response code 4294978297") && strcmp(small, "Unknown") == 0);
    CHECK(errcore_describe(t, 11001, ERRCORE_LANG_EN, NULL, 0) ==
          strlen("Your session has expired. Please sign in again."));

    /* The fixture: a missing Chinese message or title falls back to English. */
    fixture f;
    fixture_init(&f);
    CHECK(fixture_build(&f) == ERRCORE_OK);
    uint32_t alpha_one = errcore_class_entry(errcore_classify(&f.table, 150));
    CHECK(strcmp(errcore_entry_message(&f.table, alpha_one, ERRCORE_LANG_ZH_HANS), "Alpha one") == 0);
    CHECK(strcmp(errcore_module_title(&f.table, 2, ERRCORE_LANG_ZH_HANS), "beta") == 0);
    CHECK(strcmp(errcore_module_title(&f.table, 1, ERRCORE_LANG_ZH_HANS), "阿尔法") == 0);
    CHECK(strcmp(errcore_module_name(&f.table, 2), "beta") == 0);
    EXPECT_DESCRIBE(&f.table, 120, ERRCORE_LANG_EN, "Unrecognised Alpha error (code 120)");
    CHECK(errcore_entry_name(&f.table, 6) == NULL && errcore_entry_name(NULL, 0) == NULL);
    CHECK(errcore_entry_message(&f.table, 99, ERRCORE_LANG_EN) == NULL);
    CHECK(errcore_module_name(&f.table, 0) == NULL && errcore_module_name(&f.table, 3) == NULL);
    CHECK(errcore_module_title(&f.table, 3, ERRCORE_LANG_EN) == NULL);
    CHECK(errcore_module_find(&f.table, "gamma") == ERRCORE_MODULE_NONE);
    CHECK(errcore_module_find(&f.table, NULL) == ERRCORE_MODULE_NONE);
    CHECK((errcore_class_flags(errcore_classify(&f.table, 350)) & ERRCORE_FLAG_APP_MASK) == 0x80u);

    CHECK(strcmp(errcore_tier_name(ERRCORE_TIER_UNKNOWN), "unknown") == 0);
    CHECK(strcmp(errcore_tier_name(ERRCORE_TIER_MODULE), "module") == 0);
    CHECK(strcmp(errcore_tier_name((errcore_tier)9), "invalid") == 0);
    CHECK(strcmp(errcore_flag_name(ERRCORE_FLAG_REAUTH), "reauthenticate") == 0);
    CHECK(strcmp(errcore_flag_name(0x40u), "app6") == 0);
    CHECK(errcore_flag_name(0) == NULL && errcore_flag_name(3) == NULL && errcore_flag_name(256) == NULL);

    char num[24];
    CHECK(errcore_format_int64(0, num, sizeof num) == 1 && strcmp(num, "0") == 0);
    CHECK(errcore_format_int64(INT64_MAX, num, sizeof num) == 19 && strcmp(num, "9223372036854775807") == 0);
    CHECK(errcore_format_int64(-42, num, 3) == 3 && strcmp(num, "-4") == 0);
    CHECK(errcore_format_int64(INT64_MIN, NULL, 0) == 20);
}
