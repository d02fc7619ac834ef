/*
 * table_designated.c — the same hand-written table as table_positional_0_2_0.c in the form
 * errcore_table.h documents: designated initializers, so members added later (the front in
 * 0.2.0; languages, language_count, messages and titles in 0.3.0) are zero without a warning.
 * It must compile under -Wall -Wextra -Wpedantic -Werror and classify as the 0.2.0 table did.
 */
#include <stdio.h>
#include <string.h>

#include "CErrCore.h"

/* Offsets: 1 "success", 9 "OK", 12 "tokenExpire", 24 "Token expired". */
static const char strings[] = "\0success\0OK\0tokenExpire\0Token expired";
static const int64_t codes[] = {0, 11001};
static const errcore_entry entries[] = {
    {.module = ERRCORE_MODULE_NONE,
     .flags = ERRCORE_FLAG_SHOW_USER,
     .name = 1,
     .message_en = 9,
     .message_zh = ERRCORE_NO_STRING},
    {.module = ERRCORE_MODULE_NONE,
     .flags = ERRCORE_FLAG_REAUTH,
     .name = 12,
     .message_en = 24,
     .message_zh = ERRCORE_NO_STRING},
};

static const errcore_table table = {
    .codes = codes,
    .entries = entries,
    .entry_count = 2,
    .strings = strings,
    .strings_size = sizeof strings,
    .success_code = 0,
};

int main(void) {
    errcore_class c = errcore_classify(&table, 11001);
    const char *message = errcore_message_for_tag(&table, 11001, "en");
    int ok = errcore_validate(&table, NULL) == ERRCORE_OK && errcore_class_tier(c) == ERRCORE_TIER_BASE &&
             errcore_class_flags(c) == ERRCORE_FLAG_REAUTH && message && strcmp(message, "Token expired") == 0 &&
             errcore_language_count(&table) == 2 &&
             errcore_class_tier(errcore_classify(&table, 0)) == ERRCORE_TIER_SUCCESS;
    puts(ok ? "classified" : "WRONG");
    return ok ? 0 : 1;
}
