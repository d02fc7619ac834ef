/*
 * languages.c — a table's languages: tag syntax, the language list, lookups
 * of messages and titles by tag (through the language rule of
 * language_rule.c), and the checks of a definition's and a table's language
 * list. Not on the hot path: the classifier reads no message.
 */
#include <string.h>

#include "internal.h"

bool errcore_language_tag_valid(const char *tag) {
    if (!tag) {
        return false;
    }
    size_t length = strlen(tag);
    if (length == 0 || length > ERRCORE_MAX_TAG_LENGTH) {
        return false;
    }
    size_t start = 0;
    bool first = true;
    for (size_t i = 0; i <= length; i++) {
        if (i < length && tag[i] != '-') {
            if (!errcore__ascii_alpha(tag[i]) && !errcore__ascii_digit(tag[i])) {
                return false;
            }
            if (first && !errcore__ascii_alpha(tag[i])) {
                return false; /* the primary language subtag is letters only */
            }
            continue;
        }
        size_t n = i - start;
        if (n == 0 || n > 8 || (first && n < 2)) {
            return false;
        }
        first = false;
        start = i + 1;
    }
    return true;
}

/* Whether a (not NUL-terminated, `n` bytes) equals b ignoring ASCII case. */
static bool errcore__tag_equal_n(const char *a, size_t n, const char *b) {
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '\0' || errcore__ascii_lower(a[i]) != errcore__ascii_lower(b[i])) {
            return false;
        }
    }
    return b[n] == '\0';
}

bool errcore__tag_equal(const char *a, const char *b) {
    return errcore__tag_equal_n(a, strlen(a), b);
}

/* The two languages of a table without a language list. */
static const char *const errcore__legacy_tags[2] = {"en", "zh-Hans"};

size_t errcore_language_count(const errcore_table *table) {
    if (!table) {
        return 0;
    }
    return table->language_count == 0 ? 2u : table->language_count;
}

const char *errcore_language_tag(const errcore_table *table, size_t index) {
    if (!table || index >= errcore_language_count(table)) {
        return NULL;
    }
    if (table->language_count == 0) {
        return errcore__legacy_tags[index];
    }
    return errcore__pool_string(table, table->languages[index]);
}

/* The index of the language whose tag is tag[0 ... n-1] (ignoring case), or ERRCORE_NO_INDEX. */
static size_t errcore__language_index_n(const errcore_table *t, const char *tag, size_t n) {
    size_t count = errcore_language_count(t);
    for (size_t k = 0; k < count; k++) {
        const char *candidate = errcore_language_tag(t, k);
        if (candidate && errcore__tag_equal_n(tag, n, candidate)) {
            return k;
        }
    }
    return ERRCORE_NO_INDEX;
}

size_t errcore_language_index(const errcore_table *table, const char *tag) {
    if (!table || !tag) {
        return ERRCORE_NO_INDEX;
    }
    return errcore__language_index_n(table, tag, strlen(tag));
}

/* Entry i's (module: id's) text in language k, or ERRCORE_NO_STRING. */
static uint32_t errcore__text_offset(const errcore_table *t, bool module, size_t i, size_t k) {
    if (t->language_count == 0) {
        if (module) {
            return k == 0 ? t->modules[i].title_en : t->modules[i].title_zh;
        }
        return k == 0 ? t->entries[i].message_en : t->entries[i].message_zh;
    }
    const uint32_t *matrix = module ? t->titles : t->messages;
    return matrix ? matrix[i * t->language_count + k] : ERRCORE_NO_STRING;
}

const char *errcore__text_for_tag(const errcore_table *t, bool module, size_t i, const char *tag) {
    errcore__locale want;
    if (errcore__language_read(tag, &want)) {
        size_t count = errcore_language_count(t);
        char name[ERRCORE_MAX_TAG_LENGTH + 1];
        /* Each step of the chain (zh-Hant-MO, zh-Hant-HK, zh-Hant), each language in table order. */
        for (size_t step = 0; step < ERRCORE__LANGUAGE_STEPS; step++) {
            (void)errcore__language_format(&want, name);
            for (size_t k = 0; k < count; k++) {
                const char *text = errcore__pool_string(t, errcore__text_offset(t, module, i, k));
                if (text && errcore__language_is(errcore_language_tag(t, k), name)) {
                    return text;
                }
            }
            if (!errcore__language_parent(&want)) {
                break;
            }
        }
    }
    return errcore__pool_string(t, errcore__text_offset(t, module, i, 0));
}

const char *errcore_entry_message_for_tag(const errcore_table *table, uint32_t index, const char *tag) {
    if (!table || (size_t)index >= table->entry_count) {
        return NULL;
    }
    return errcore__text_for_tag(table, false, index, tag);
}

const char *errcore_message_for_tag(const errcore_table *table, int64_t code, const char *tag) {
    if (!table) {
        return NULL;
    }
    errcore_class c = errcore_classify(table, code);
    if (!errcore_class_is_exact(c)) {
        return NULL;
    }
    return errcore_entry_message_for_tag(table, errcore_class_entry(c), tag);
}

const char *errcore_module_title_for_tag(const errcore_table *table, uint16_t id, const char *tag) {
    if (!table || id == ERRCORE_MODULE_NONE || (size_t)id > table->module_count) {
        return NULL;
    }
    const char *title = errcore__text_for_tag(table, true, (size_t)id - 1u, tag);
    return title ? title : errcore__pool_string(table, table->modules[id - 1].name);
}

/* ---- Checks -------------------------------------------------------------------------------- */

errcore_status errcore__rule_language_tag(const char *tag, size_t index, errcore_diag *d) {
    if (errcore_language_tag_valid(tag)) {
        return ERRCORE_OK;
    }
    return errcore__fail(d, ERRCORE_E_BAD_LANGUAGE_TAG, ERRCORE_SUBJECT_LANGUAGE, index, 0);
}

bool errcore__check_def_languages(const errcore_catalog_def *def, errcore__reporter *rep) {
    errcore_diag d;
    for (size_t k = 0; k < def->language_count; k++) {
        const char *tag = def->languages[k];
        if (errcore__rule_language_tag(tag, k, &d) != ERRCORE_OK) {
            if (!errcore__emit(rep, &d)) {
                return false;
            }
            continue;
        }
        for (size_t j = 0; j < k; j++) {
            if (errcore_language_tag_valid(def->languages[j]) && errcore__tag_equal(def->languages[j], tag)) {
                errcore__fail(&d, ERRCORE_E_DUPLICATE_LANGUAGE, ERRCORE_SUBJECT_LANGUAGE, k, 0);
                d.other_index = j;
                if (!errcore__emit(rep, &d)) {
                    return false;
                }
                break;
            }
        }
    }
    return true;
}

errcore_status errcore__check_table_languages(const errcore_table *t, errcore_diag *diag) {
    size_t count = t->language_count;
    if (count == 0) {
        return ERRCORE_OK;
    }
    if (count > ERRCORE_MAX_LANGUAGES) {
        return errcore__fail(diag, ERRCORE_E_COUNT_OVERFLOW, ERRCORE_SUBJECT_LANGUAGE, ERRCORE_NO_INDEX, 0);
    }
    if (!t->languages || (!t->messages && t->entry_count != 0) || (!t->titles && t->module_count != 0)) {
        return errcore__fail(diag, ERRCORE_E_NULL_ARGUMENT, ERRCORE_SUBJECT_LANGUAGE, ERRCORE_NO_INDEX, 0);
    }
    for (size_t k = 0; k < count; k++) {
        const char *tag = errcore__pool_string(t, t->languages[k]);
        if (!tag) {
            errcore_status s = errcore__fail(diag, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_LANGUAGE, k, 0);
            if (diag) {
                diag->other_code = (int64_t)t->languages[k];
            }
            return s;
        }
        errcore_status s = errcore__rule_language_tag(tag, k, diag);
        if (s != ERRCORE_OK) {
            return s;
        }
        for (size_t j = 0; j < k; j++) {
            if (errcore__tag_equal(t->strings + t->languages[j], tag)) {
                s = errcore__fail(diag, ERRCORE_E_DUPLICATE_LANGUAGE, ERRCORE_SUBJECT_LANGUAGE, k, 0);
                if (diag) {
                    diag->other_index = j;
                }
                return s;
            }
        }
    }
    /* Every text an offset inside the pool or ERRCORE_NO_STRING; an entry's default message present. */
    for (size_t i = 0; i < t->entry_count; i++) {
        for (size_t k = 0; k < count; k++) {
            uint32_t offset = t->messages[i * count + k];
            if ((offset == ERRCORE_NO_STRING && k != 0) ||
                (offset != ERRCORE_NO_STRING && (size_t)offset < t->strings_size)) {
                continue;
            }
            errcore_status s = errcore__fail(diag, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_ENTRY, i, t->codes[i]);
            if (diag) {
                diag->other_code = (int64_t)offset;
            }
            return s;
        }
    }
    for (size_t i = 0; i < t->module_count; i++) {
        for (size_t k = 0; k < count; k++) {
            uint32_t offset = t->titles[i * count + k];
            if (offset == ERRCORE_NO_STRING || (size_t)offset < t->strings_size) {
                continue;
            }
            errcore_status s = errcore__fail(diag, ERRCORE_E_BAD_STRING, ERRCORE_SUBJECT_MODULE, i, (int64_t)i + 1);
            if (diag) {
                diag->other_code = (int64_t)offset;
            }
            return s;
        }
    }
    return ERRCORE_OK;
}
