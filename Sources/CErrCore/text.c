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

/* Chinese string when asked for and present, English otherwise. */
static const char *errcore__localized(const errcore_table *t, uint32_t en, uint32_t zh, errcore_lang lang) {
    const char *chinese = lang == ERRCORE_LANG_ZH_HANS ? errcore__pool_string(t, zh) : NULL;
    return chinese ? chinese : errcore__pool_string(t, en);
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
    const errcore_entry *e = &table->entries[index];
    return errcore__localized(table, e->message_en, e->message_zh, lang);
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
    const errcore_module *m = errcore__module(table, id);
    return m ? errcore__localized(table, m->title_en, m->title_zh, lang) : NULL;
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

size_t errcore_describe(const errcore_table *table, int64_t code, errcore_lang lang, char *buf, size_t size) {
    errcore__sink s = errcore__sink_make(buf, size);
    bool zh = lang == ERRCORE_LANG_ZH_HANS;
    errcore_class c = table ? errcore_classify(table, code) : ERRCORE_CLASS_UNKNOWN;
    const char *message = errcore_class_is_exact(c) ? errcore_entry_message(table, errcore_class_entry(c), lang) : NULL;
    if (message) {
        errcore__sink_str(&s, message);
        return s.len;
    }
    switch (errcore_class_tier(c)) {
    case ERRCORE_TIER_SUCCESS: errcore__sink_str(&s, zh ? "成功" : "OK"); break;
    case ERRCORE_TIER_MODULE: {
        const char *title = errcore_module_title(table, errcore_class_module(c), lang);
        errcore__sink_str(&s, zh ? "未识别的" : "Unrecognised ");
        errcore__sink_str(&s, title ? title : "?");
        errcore__sink_str(&s, zh ? "错误(错误码 " : " error (code ");
        errcore__sink_int(&s, code);
        errcore__sink_str(&s, zh ? ")" : ")");
        break;
    }
    case ERRCORE_TIER_BASE:
    case ERRCORE_TIER_UNKNOWN:
    default:
        errcore__sink_str(&s, zh ? "未知的响应码 " : "Unknown response code ");
        errcore__sink_int(&s, code);
        break;
    }
    return s.len;
}
