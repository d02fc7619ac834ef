/* text.c — names, messages and descriptions from the string pool. */
#include <string.h>

#include "internal.h"

void errcore__sink_str(errcore__sink *s, const char *text) {
    size_t n = strlen(text);
    if (s->size > 0 && s->len < s->size - 1) {
        size_t room = s->size - 1 - s->len;
        size_t take = n < room ? n : room;
        memcpy(s->buf + s->len, text, take);
        s->buf[s->len + take] = '\0';
    }
    s->len += n;
}

void errcore__sink_int(errcore__sink *s, int64_t value) {
    char digits[24];
    (void)errcore_format_int64(value, digits, sizeof digits);
    errcore__sink_str(s, digits);
}

size_t errcore_format_int64(int64_t value, char *buf, size_t size) {
    char tmp[20];
    size_t n = 0;
    /* Work on the magnitude as unsigned so INT64_MIN needs no special case. */
    uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        tmp[n++] = (char)('0' + (int)(magnitude % 10u));
        magnitude /= 10u;
    } while (magnitude != 0);
    size_t len = n + (value < 0 ? 1u : 0u);
    if (buf && size > 0) {
        size_t pos = 0;
        if (value < 0 && pos < size - 1) {
            buf[pos++] = '-';
        }
        while (n > 0 && pos < size - 1) {
            buf[pos++] = tmp[--n];
        }
        buf[pos] = '\0';
    }
    return len;
}

const char *errcore_tier_name(errcore_tier tier) {
    switch (tier) {
    case ERRCORE_TIER_UNKNOWN: return "unknown";
    case ERRCORE_TIER_SUCCESS: return "success";
    case ERRCORE_TIER_BASE: return "base";
    case ERRCORE_TIER_MODULE: return "module";
    }
    return "invalid";
}

const char *errcore_flag_name(unsigned flag) {
    switch (flag) {
    case ERRCORE_FLAG_RETRYABLE: return "retryable";
    case ERRCORE_FLAG_REAUTH: return "reauthenticate";
    case ERRCORE_FLAG_SHOW_USER: return "showUser";
    case ERRCORE_FLAG_FATAL: return "fatal";
    case 0x10u: return "app4";
    case 0x20u: return "app5";
    case 0x40u: return "app6";
    case 0x80u: return "app7";
    default: return NULL;
    }
}

/* The tag of a legacy language value. */
static const char *errcore__lang_tag(errcore_lang lang) {
    return lang == ERRCORE_LANG_ZH_HANS ? "zh-Hans" : "en";
}

const char *errcore_entry_name(const errcore_table *table, uint32_t index) {
    if (!table || (size_t)index >= table->entry_count) {
        return NULL;
    }
    return errcore__pool_string(table, table->entries[index].name);
}

const char *errcore_entry_message(const errcore_table *table, uint32_t index, errcore_lang lang) {
    if (!table || (size_t)index >= table->entry_count) {
        return NULL;
    }
    return errcore_entry_message_for_tag(table, index, errcore__lang_tag(lang));
}

static const errcore_module *errcore__module(const errcore_table *table, uint16_t id) {
    if (!table || id == ERRCORE_MODULE_NONE || (size_t)id > table->module_count) {
        return NULL;
    }
    return &table->modules[id - 1];
}

const char *errcore_module_name(const errcore_table *table, uint16_t id) {
    const errcore_module *m = errcore__module(table, id);
    return m ? errcore__pool_string(table, m->name) : NULL;
}

const char *errcore_module_title(const errcore_table *table, uint16_t id, errcore_lang lang) {
    return errcore_module_title_for_tag(table, id, errcore__lang_tag(lang));
}

uint16_t errcore_module_find(const errcore_table *table, const char *name) {
    if (!table || !name) {
        return ERRCORE_MODULE_NONE;
    }
    for (size_t i = 0; i < table->module_count; i++) {
        const char *candidate = errcore__pool_string(table, table->modules[i].name);
        if (candidate && strcmp(candidate, name) == 0) {
            return (uint16_t)(i + 1);
        }
    }
    return ERRCORE_MODULE_NONE;
}

/* The words of errcore_describe_for_tag in one language. */
typedef struct errcore__words {
    const char *success;
    const char *unrecognised_before; /* before the module's title */
    const char *unrecognised_after;  /* between the title and the code */
    const char *unrecognised_end;    /* after the code */
    const char *unknown;             /* before the code */
} errcore__words;

/* The languages of the words, English (the default) first; errcore__word_sets in the same order. */
static const char *const errcore__word_tags[] = {"en", "zh-Hans", "zh-Hant", "hi"};

static const errcore__words errcore__word_sets[] = {
    {"OK", "Unrecognised ", " error (code ", ")", "Unknown response code "},
    {"成功", "未识别的", "错误(错误码 ", ")", "未知的响应码 "},
    {"成功", "無法辨識的", "錯誤(錯誤碼 ", ")", "未知的回應碼 "},
    {"सफल", "", " की अपरिचित त्रुटि (कोड ", ")", "अज्ञात प्रतिक्रिया कोड "},
};

/* The word set for a tag, chosen by the language rule as a table's texts are; English when none serves. */
static const errcore__words *errcore__words_for(const char *tag) {
    size_t k =
        errcore_language_choose(errcore__word_tags, sizeof errcore__word_tags / sizeof errcore__word_tags[0], tag);
    return &errcore__word_sets[k == ERRCORE_NO_INDEX ? 0 : k];
}

size_t errcore_describe_for_tag(const errcore_table *table, int64_t code, const char *tag, char *buf, size_t size) {
    errcore__sink s = errcore__sink_make(buf, size);
    errcore_class c = table ? errcore_classify(table, code) : ERRCORE_CLASS_UNKNOWN;
    const char *message =
        errcore_class_is_exact(c) ? errcore_entry_message_for_tag(table, errcore_class_entry(c), tag) : NULL;
    if (message) {
        errcore__sink_str(&s, message);
        return s.len;
    }
    const errcore__words *w = errcore__words_for(tag);
    switch (errcore_class_tier(c)) {
    case ERRCORE_TIER_SUCCESS: errcore__sink_str(&s, w->success); break;
    case ERRCORE_TIER_MODULE: {
        const char *title = errcore_module_title_for_tag(table, errcore_class_module(c), tag);
        errcore__sink_str(&s, w->unrecognised_before);
        errcore__sink_str(&s, title ? title : "?");
        errcore__sink_str(&s, w->unrecognised_after);
        errcore__sink_int(&s, code);
        errcore__sink_str(&s, w->unrecognised_end);
        break;
    }
    case ERRCORE_TIER_BASE:
    case ERRCORE_TIER_UNKNOWN:
    default:
        errcore__sink_str(&s, w->unknown);
        errcore__sink_int(&s, code);
        break;
    }
    return s.len;
}

size_t errcore_describe(const errcore_table *table, int64_t code, errcore_lang lang, char *buf, size_t size) {
    return errcore_describe_for_tag(table, code, errcore__lang_tag(lang), buf, size);
}
