/*
 * table_positional_0_2_0.c — a hand-written table as a 0.2.0 program wrote it: a positional
 * errcore_table initializer that ends with the exact-match front. errcore_table has members
 * after the front since 0.3.0 (languages, language_count, messages, titles), so under
 * -Wextra -Werror this must not compile (missing initializer for `languages`): the upgrade is
 * the designated form of table_designated.c. (Without -Werror it compiles, the new members
 * zero: a table in English and Simplified Chinese, as 0.2.0 read it; scripts/c/upgrade-check.sh
 * runs it to show nothing is mis-assigned.)
 */
#include <stdio.h>
#include <string.h>

#include "CErrCore.h"

/* Offsets: 1 "success", 9 "OK", 12 "tokenExpire", 24 "Token expired". */
static const char strings[] = "\0success\0OK\0tokenExpire\0Token expired";
static const int64_t codes[] = {0, 11001};
static const errcore_entry entries[] = {
    {ERRCORE_MODULE_NONE, ERRCORE_FLAG_SHOW_USER, 0, 1, 9, ERRCORE_NO_STRING},
    {ERRCORE_MODULE_NONE, ERRCORE_FLAG_REAUTH, 0, 12, 24, ERRCORE_NO_STRING},
};

static const errcore_table table = {
    codes,   entries,        2, NULL, 0,    NULL, 0,
    strings, sizeof strings, 0, NULL, NULL, 0,    {NULL, NULL, NULL, 0, 0, 0, 0, 0, 0},
};

int main(void) {
    errcore_class c = errcore_classify(&table, 11001);
    const char *message = errcore_message_for_tag(&table, 11001, "en");
    int ok = errcore_validate(&table, NULL) == ERRCORE_OK && errcore_class_tier(c) == ERRCORE_TIER_BASE &&
             errcore_class_flags(c) == ERRCORE_FLAG_REAUTH && message && strcmp(message, "Token expired") == 0 &&
             errcore_language_count(&table) == 2;
    puts(ok ? "classified as 0.2.0 did" : "WRONG");
    return ok ? 0 : 1;
}
