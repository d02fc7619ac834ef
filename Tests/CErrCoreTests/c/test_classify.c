/* test_classify.c — the default catalog's tiers, boundaries, batch and tally. */
#include <string.h>

#include "check.h"
#include "errcore_default_catalog.h"

static errcore_class cls(int64_t code) {
    return errcore_classify(errcore_default_table(), code);
}

static const char *name_of(int64_t code) {
    return errcore_entry_name(errcore_default_table(), errcore_class_entry(cls(code)));
}

void test_classify(void) {
    const errcore_table *t = errcore_default_table();
    CHECK(t->entry_count == 32 && t->module_count == 7 && t->range_count == 7);

    CHECK(errcore_class_tier(cls(0)) == ERRCORE_TIER_SUCCESS);
    CHECK(strcmp(name_of(0), "success") == 0);

    errcore_class token = cls(11001);
    CHECK(errcore_class_tier(token) == ERRCORE_TIER_BASE);
    CHECK(errcore_class_module(token) == ERRCORE_MODULE_NONE);
    CHECK((errcore_class_flags(token) & ERRCORE_FLAG_REAUTH) != 0);
    CHECK(strcmp(name_of(11001), "tokenExpire") == 0);
    CHECK(strcmp(name_of(11011), "overVerifyCode") == 0);
    CHECK((errcore_class_flags(cls(11002)) & ERRCORE_FLAG_REAUTH) == 0);

    errcore_class team = cls(11210005);
    CHECK(errcore_class_tier(team) == ERRCORE_TIER_MODULE);
    CHECK(errcore_class_module(team) == ERRCORE_DEFAULT_MODULE_STUDY_GROUP);
    CHECK(errcore_class_is_exact(team));
    CHECK(strcmp(name_of(11210005), "wrongTeamCode") == 0);
    CHECK(strcmp(name_of(11010017), "wechatHasBinded") == 0);
    CHECK(errcore_class_module(cls(11010017)) == ERRCORE_DEFAULT_MODULE_ACCOUNT);
    CHECK(errcore_class_module(cls(11160004)) == ERRCORE_DEFAULT_MODULE_TAG);

    /* Unlisted codes inside a module's range are that module's, unrecognised. */
    static const struct {
        int64_t code;
        uint16_t module;
    } unrecognised[] = {
        {11210000, ERRCORE_DEFAULT_MODULE_STUDY_GROUP}, {11219999, ERRCORE_DEFAULT_MODULE_STUDY_GROUP},
        {11210004, ERRCORE_DEFAULT_MODULE_STUDY_GROUP}, {11010000, ERRCORE_DEFAULT_MODULE_ACCOUNT},
        {11029999, ERRCORE_DEFAULT_MODULE_UPLOAD},      {11100000, ERRCORE_DEFAULT_MODULE_MEMBERSHIP},
        {11145555, ERRCORE_DEFAULT_MODULE_SIGN_IN},     {11150000, ERRCORE_DEFAULT_MODULE_SUBJECT},
        {11169999, ERRCORE_DEFAULT_MODULE_TAG},
    };
    for (size_t i = 0; i < sizeof unrecognised / sizeof unrecognised[0]; i++) {
        errcore_class c = cls(unrecognised[i].code);
        CHECKF(errcore_class_tier(c) == ERRCORE_TIER_MODULE && errcore_class_module(c) == unrecognised[i].module &&
                   !errcore_class_is_exact(c) && errcore_class_flags(c) == 0,
               "code %lld", (long long)unrecognised[i].code);
    }

    /* Everything else is unknown: no truncation, no sign games, range edges exact. */
    static const int64_t unknown[] = {
        1,
        -1,
        11000,
        11007,
        11012,
        11009999,
        11020000 + 10000,
        11209999,
        11220000,
        99999,
        -99999,
        -11001,
        (int64_t)4294967296LL + 11001,
        (int64_t)4294967296LL + 11210005,
        INT64_MIN,
        INT64_MAX,
        INT64_MIN + 11001,
        (int64_t)((uint64_t)11001 | (1ULL << 63)),
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECKF(cls(unknown[i]) == ERRCORE_CLASS_UNKNOWN, "code %lld", (long long)unknown[i]);
    }

    /* Batch equals single, for every length 0 ... 40 (covers the 8-lane groups and the tail). */
    int64_t codes[40];
    errcore_class out[40];
    for (size_t i = 0; i < 40; i++) {
        codes[i] = (i % 3 == 0)   ? t->codes[i % t->entry_count]
                   : (i % 3 == 1) ? 11210000 + (int64_t)i
                                  : (int64_t)i * 7919 - 100;
    }
    for (size_t len = 0; len <= 40; len++) {
        memset(out, 0xAB, sizeof out);
        errcore_classify_batch(t, codes, out, len);
        bool same = true;
        for (size_t i = 0; i < len; i++) {
            same = same && out[i] == cls(codes[i]);
        }
        CHECKF(same, "batch of %zu", len);
        CHECKF(len == 40 || out[len] == 0xABABABABABABABABull, "batch of %zu wrote past the end", len);
    }
    errcore_classify_batch(t, NULL, NULL, 0);

    /* Tally: counts per tier and module; adds to existing counts. */
    static const int64_t stream[] = {0, 0, 11001, 11210005, 11219999, 11010017, 5, 11160003, -1};
    errcore_tally tally;
    uint64_t per_module[8];
    memset(&tally, 0, sizeof tally);
    memset(per_module, 0, sizeof per_module);
    CHECK(errcore_tally_codes(t, stream, 9, &tally, per_module) == ERRCORE_OK);
    CHECK(errcore_tally_codes(t, stream, 9, &tally, NULL) == ERRCORE_OK);
    CHECK(tally.total == 18);
    CHECK(tally.tiers[ERRCORE_TIER_SUCCESS] == 4 && tally.tiers[ERRCORE_TIER_BASE] == 2);
    CHECK(tally.tiers[ERRCORE_TIER_MODULE] == 8 && tally.tiers[ERRCORE_TIER_UNKNOWN] == 4);
    CHECK(tally.unrecognised == 2);
    CHECK(per_module[ERRCORE_DEFAULT_MODULE_STUDY_GROUP] == 2);
    CHECK(per_module[ERRCORE_DEFAULT_MODULE_ACCOUNT] == 1 && per_module[ERRCORE_DEFAULT_MODULE_TAG] == 1);
    CHECK(per_module[ERRCORE_DEFAULT_MODULE_UPLOAD] == 0);
    CHECK(errcore_tally_codes(NULL, stream, 9, &tally, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_tally_codes(t, NULL, 9, &tally, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(errcore_tally_codes(t, stream, 9, NULL, NULL) == ERRCORE_E_NULL_ARGUMENT);
    CHECK(tally.total == 18);

    /* Module ids of the header match the catalog's names. */
    static const struct {
        uint16_t id;
        const char *name;
    } ids[] = {
        {ERRCORE_DEFAULT_MODULE_ACCOUNT, "account"},        {ERRCORE_DEFAULT_MODULE_UPLOAD, "upload"},
        {ERRCORE_DEFAULT_MODULE_MEMBERSHIP, "membership"},  {ERRCORE_DEFAULT_MODULE_SIGN_IN, "signIn"},
        {ERRCORE_DEFAULT_MODULE_SUBJECT, "subject"},        {ERRCORE_DEFAULT_MODULE_TAG, "tag"},
        {ERRCORE_DEFAULT_MODULE_STUDY_GROUP, "studyGroup"},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        CHECK(errcore_module_find(t, ids[i].name) == ids[i].id);
    }
}
