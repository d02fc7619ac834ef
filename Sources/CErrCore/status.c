/* status.c — text for errcore_status values and diagnostics. */
#include "internal.h"

typedef struct errcore__status_text {
    const char *name;
    const char *text;
} errcore__status_text;

/* Indexed by errcore_status; must list every value in order. */
static const errcore__status_text errcore__status_texts[ERRCORE_STATUS_COUNT] = {
    {"ERRCORE_OK", "ok"},
    {"ERRCORE_E_NULL_ARGUMENT", "NULL argument"},
    {"ERRCORE_E_COUNT_OVERFLOW", "count overflow"},
    {"ERRCORE_E_DUPLICATE_CODE", "duplicate code"},
    {"ERRCORE_E_CODE_OUTSIDE_MODULE", "code outside its module's ranges"},
    {"ERRCORE_E_RANGE_OVERLAP", "overlapping module ranges"},
    {"ERRCORE_E_BASE_IN_MODULE_RANGE", "base code inside a module range"},
    {"ERRCORE_E_UNDECLARED_MODULE", "undeclared module"},
    {"ERRCORE_E_UNSORTED", "input not sorted"},
    {"ERRCORE_E_EMPTY_RANGE", "empty range (first > last)"},
    {"ERRCORE_E_SUCCESS_IN_MODULE", "success code inside a module"},
    {"ERRCORE_E_BAD_STRING", "string offset outside the pool"},
    {"ERRCORE_E_EMPTY_NAME", "empty name"},
    {"ERRCORE_E_RESERVED_NONZERO", "reserved field not zero"},
    {"ERRCORE_E_BUFFER_TOO_SMALL", "storage too small"},
    {"ERRCORE_E_BAD_INDEX", "classification index does not match the table"},
    {"ERRCORE_E_MISALIGNED", "storage misaligned"},
    {"ERRCORE_E_DUPLICATE_MODULE_NAME", "duplicate module name"},
    {"ERRCORE_E_BAD_FRONT", "exact-match front does not match the table"},
    {"ERRCORE_E_BAD_LANGUAGE_TAG", "malformed language tag"},
    {"ERRCORE_E_DUPLICATE_LANGUAGE", "duplicate language tag"},
    {"ERRCORE_E_DUPLICATE_STRING", "duplicate string code or namespace"},
    {"ERRCORE_E_UNDECLARED_SPACE", "undeclared namespace"},
    {"ERRCORE_E_UNKNOWN_CODE", "string code for a code with no entry"},
    {"ERRCORE_E_BAD_STRINGS", "string lookup does not match its strings"},
};

static const errcore__status_text *errcore__status_lookup(errcore_status status) {
    unsigned v = (unsigned)status;
    return v < ERRCORE_STATUS_COUNT ? &errcore__status_texts[v] : NULL;
}

const char *errcore_status_string(errcore_status status) {
    const errcore__status_text *t = errcore__status_lookup(status);
    return t ? t->text : "unknown status";
}

const char *errcore_status_name(errcore_status status) {
    const errcore__status_text *t = errcore__status_lookup(status);
    return t ? t->name : "ERRCORE_E_UNKNOWN";
}

static const char *errcore__subject_word(errcore_subject subject) {
    switch (subject) {
    case ERRCORE_SUBJECT_ENTRY: return "entry";
    case ERRCORE_SUBJECT_MODULE: return "module";
    case ERRCORE_SUBJECT_RANGE: return "range";
    case ERRCORE_SUBJECT_STRINGS: return "string pool offset";
    case ERRCORE_SUBJECT_INDEX: return "index slot";
    case ERRCORE_SUBJECT_FRONT: return "front slot";
    case ERRCORE_SUBJECT_FRONT_GAP: return "front gap";
    case ERRCORE_SUBJECT_LANGUAGE: return "language";
    case ERRCORE_SUBJECT_STRING_CODE: return "string code";
    case ERRCORE_SUBJECT_STRING_SPACE: return "namespace";
    case ERRCORE_SUBJECT_NONE: break;
    }
    return NULL;
}

/* What diag.code holds for a subject, as a word for the message. */
static const char *errcore__code_word(errcore_subject subject) {
    switch (subject) {
    case ERRCORE_SUBJECT_RANGE: return "first code";
    case ERRCORE_SUBJECT_MODULE: return "id";
    case ERRCORE_SUBJECT_STRINGS: return NULL;
    case ERRCORE_SUBJECT_INDEX: return "key";
    case ERRCORE_SUBJECT_FRONT: return "key";
    case ERRCORE_SUBJECT_FRONT_GAP: return "split";
    case ERRCORE_SUBJECT_LANGUAGE: return NULL;
    case ERRCORE_SUBJECT_STRING_SPACE: return NULL;
    case ERRCORE_SUBJECT_STRING_CODE:
    case ERRCORE_SUBJECT_ENTRY:
    case ERRCORE_SUBJECT_NONE: break;
    }
    return "code";
}

size_t errcore_diag_format(const errcore_diag *diag, char *buf, size_t size) {
    errcore__sink s = errcore__sink_make(buf, size);
    if (!diag) {
        errcore__sink_str(&s, "no diagnostic");
        return s.len;
    }
    errcore__sink_str(&s, errcore_status_string(diag->status));
    const char *subject = errcore__subject_word(diag->subject);
    if (diag->status == ERRCORE_E_BAD_INDEX && diag->index == ERRCORE_NO_INDEX) {
        errcore__sink_str(&s, ": no key at change point ");
        errcore__sink_int(&s, diag->code);
        return s.len;
    }
    if (diag->status == ERRCORE_E_BAD_FRONT && diag->index == ERRCORE_NO_INDEX) {
        if (diag->subject == ERRCORE_SUBJECT_FRONT_GAP) {
            errcore__sink_str(&s, ": the gap table of ");
            errcore__sink_int(&s, diag->other_code);
            errcore__sink_str(&s, " stretches from code ");
            errcore__sink_int(&s, diag->code);
            errcore__sink_str(&s, " is malformed or misses a module range");
        } else {
            errcore__sink_str(&s, ": slot mask ");
            errcore__sink_int(&s, diag->code);
            errcore__sink_str(&s, " and bucket shift ");
            errcore__sink_int(&s, diag->other_code);
            errcore__sink_str(&s, " (the mask must be one less than a power of two, the shift at most 32)");
        }
        return s.len;
    }
    if (diag->status == ERRCORE_E_BUFFER_TOO_SMALL) {
        errcore__sink_str(&s, ": ");
        errcore__sink_int(&s, diag->code);
        errcore__sink_str(&s, " bytes needed, ");
        errcore__sink_int(&s, diag->other_code);
        errcore__sink_str(&s, " given");
        return s.len;
    }
    if (diag->status == ERRCORE_E_MISALIGNED) {
        errcore__sink_str(&s, ": address is ");
        errcore__sink_int(&s, diag->other_code);
        errcore__sink_str(&s, " bytes past a multiple of ");
        errcore__sink_int(&s, diag->code);
        return s.len;
    }
    if (diag->status == ERRCORE_OK || !subject || diag->index == ERRCORE_NO_INDEX) {
        return s.len;
    }
    errcore__sink_str(&s, ": ");
    errcore__sink_str(&s, subject);
    errcore__sink_str(&s, " ");
    errcore__sink_int(&s, (int64_t)diag->index);
    const char *code_word = errcore__code_word(diag->subject);
    if (code_word) {
        errcore__sink_str(&s, " (");
        errcore__sink_str(&s, code_word);
        errcore__sink_str(&s, " ");
        errcore__sink_int(&s, diag->code);
        errcore__sink_str(&s, ")");
    }
    switch (diag->status) {
    case ERRCORE_E_DUPLICATE_CODE:
    case ERRCORE_E_DUPLICATE_MODULE_NAME:
    case ERRCORE_E_DUPLICATE_LANGUAGE:
    case ERRCORE_E_DUPLICATE_STRING:
    case ERRCORE_E_RANGE_OVERLAP:
    case ERRCORE_E_UNSORTED:
        if (diag->other_index != ERRCORE_NO_INDEX) {
            bool repeats = diag->status == ERRCORE_E_DUPLICATE_CODE ||
                           diag->status == ERRCORE_E_DUPLICATE_MODULE_NAME ||
                           diag->status == ERRCORE_E_DUPLICATE_LANGUAGE || diag->status == ERRCORE_E_DUPLICATE_STRING;
            errcore__sink_str(&s, repeats                                   ? " repeats "
                                  : diag->status == ERRCORE_E_RANGE_OVERLAP ? " overlaps "
                                                                            : " comes after ");
            errcore__sink_str(&s, subject);
            errcore__sink_str(&s, " ");
            errcore__sink_int(&s, (int64_t)diag->other_index);
            if (!repeats) {
                errcore__sink_str(&s, " (");
                errcore__sink_str(&s, code_word ? code_word : "value");
                errcore__sink_str(&s, " ");
                errcore__sink_int(&s, diag->other_code);
                errcore__sink_str(&s, ")");
            }
        }
        break;
    case ERRCORE_E_UNDECLARED_MODULE:
        errcore__sink_str(&s, " names module ");
        errcore__sink_int(&s, (int64_t)diag->module);
        break;
    case ERRCORE_E_CODE_OUTSIDE_MODULE:
        errcore__sink_str(&s, " is not in a range of module ");
        errcore__sink_int(&s, (int64_t)diag->module);
        if (diag->other_code != 0) {
            errcore__sink_str(&s, "; module ");
            errcore__sink_int(&s, diag->other_code);
            errcore__sink_str(&s, " owns it");
        }
        break;
    case ERRCORE_E_BASE_IN_MODULE_RANGE:
        errcore__sink_str(&s, " lies in a range of module ");
        errcore__sink_int(&s, diag->other_code);
        break;
    case ERRCORE_E_EMPTY_RANGE:
        errcore__sink_str(&s, " ends at ");
        errcore__sink_int(&s, diag->other_code);
        break;
    case ERRCORE_E_BAD_FRONT:
        if (diag->subject == ERRCORE_SUBJECT_FRONT_GAP) {
            errcore__sink_str(&s, ", stretch from code ");
            errcore__sink_int(&s, diag->other_code);
            errcore__sink_str(&s, ", does not match the module ranges");
        } else if (diag->other_index != ERRCORE_NO_INDEX) {
            errcore__sink_str(&s, " answers for its key, which is not a table code");
        } else if (diag->other_code == diag->code) {
            errcore__sink_str(&s, " has the wrong class");
        } else {
            errcore__sink_str(&s, " should hold code ");
            errcore__sink_int(&s, diag->other_code);
            errcore__sink_str(&s, ", which hashes to it");
        }
        break;
    default: break;
    }
    return s.len;
}
