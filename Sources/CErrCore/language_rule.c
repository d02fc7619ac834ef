/*
 * language_rule.c — the language rule: which of a list of languages serves a
 * wanted language tag (errcore_text.h, "Languages", says it for users). Every
 * lookup by tag in CErrCore goes through here, and SwiftErr calls it too.
 *
 * A tag is read into a locale: its language, script, region and variants. An
 * extension, private use or anything out of place ends the reading; a POSIX
 * identifier is read as errcore_language_from_identifier() converts it. A
 * language CLDR replaces gets its replacement, and a language CLDR writes in
 * more than one script gets its likely script, shown when CLDR's locale
 * identifiers carry it (zh-TW reads as zh-Hant-TW, zh as zh-Hans) and left
 * out when they do not (en-Latn-GB reads as en-GB).
 *
 * The fallback chain of a locale is the locale, then each parent in turn:
 * the one parentLocales names, else the locale less its last subtag, except
 * that a language with a script other than its likely one has no parent (the
 * root, whatever the caller falls back to). A tag of a list serves the wanted
 * one at the first step of the chain it reads as.
 *
 * The data below are CLDR's, kept to what the rule needs; no table is
 * written at run time, nothing is allocated, nothing recurses.
 */
#include <string.h>

#include "internal.h"

/* A language written in more than one script: its likely script; `shown`: its locales carry it. */
typedef struct errcore__likely_script {
    char lang[4];
    char script[5];
    unsigned char shown;
} errcore__likely_script;

/* A region where such a language's likely script is another one. */
typedef struct errcore__region_script {
    char lang[4];
    char region[3];
    char script[5];
} errcore__region_script;

/* A parent that is not the locale less its last subtag. */
typedef struct errcore__parent {
    char child[11];
    char parent[11];
} errcore__parent;

/* The parent of "<lang>-<region>" for each region of a list. */
typedef struct errcore__region_parent {
    char lang[4];
    char parent[7];
    const char *regions;
} errcore__region_parent;

/* A language code CLDR replaces. */
typedef struct errcore__alias {
    char code[4];
    char replacement[8];
} errcore__alias;

/* CLDR data begins: CLDR 47, written by scripts/cldr/language-rule-data.py. */
/* clang-format off */

/* Languages CLDR writes in more than one script: the likely script (likelySubtags.json),
 * and 1 when CLDR's locale identifiers always carry it (availableLocales.json has
 * "<language>-<script>"). Sorted by language for a binary search: keep it sorted. */
static const errcore__likely_script errcore__likely_scripts[] = {
    {"az", "Latn", 1}, {"bal", "Arab", 1}, {"blt", "Tavt", 0}, {"bm", "Latn", 0}, {"bs", "Latn", 1},
    {"byn", "Ethi", 0}, {"cu", "Cyrl", 0}, {"dje", "Latn", 0}, {"dyo", "Latn", 0}, {"en", "Latn", 0},
    {"ff", "Latn", 1}, {"ha", "Latn", 0}, {"hak", "Hans", 0}, {"hi", "Deva", 0}, {"hnj", "Hmnp", 1},
    {"iu", "Cans", 0}, {"kaa", "Cyrl", 1}, {"kk", "Cyrl", 1}, {"kok", "Deva", 1}, {"ks", "Arab", 1},
    {"ku", "Latn", 0}, {"kxv", "Latn", 1}, {"ky", "Cyrl", 0}, {"lzz", "Latn", 0}, {"ml", "Mlym", 0},
    {"mn", "Cyrl", 0}, {"mni", "Beng", 1}, {"ms", "Latn", 0}, {"nan", "Hans", 0}, {"pa", "Guru", 1},
    {"pnt", "Grek", 0}, {"rhg", "Rohg", 1}, {"sat", "Olck", 1}, {"sd", "Arab", 1}, {"shi", "Tfng", 1},
    {"so", "Latn", 0}, {"sr", "Cyrl", 1}, {"su", "Latn", 1}, {"sw", "Latn", 0}, {"tg", "Cyrl", 0},
    {"ug", "Arab", 0}, {"unr", "Beng", 0}, {"uz", "Latn", 1}, {"vai", "Vaii", 1}, {"wo", "Latn", 0},
    {"yo", "Latn", 0}, {"yue", "Hant", 1}, {"zh", "Hans", 1},
};

/* Regions where such a language's likely script is another one (likelySubtags.json,
 * "<language>-<region>"). Sorted by language, then region: keep it sorted. */
static const errcore__region_script errcore__region_scripts[] = {
    {"az", "IQ", "Arab"}, {"az", "IR", "Arab"}, {"az", "RU", "Cyrl"}, {"ha", "CM", "Arab"}, {"ha", "SD", "Arab"},
    {"hak", "TW", "Hant"}, {"kk", "AF", "Arab"}, {"kk", "CN", "Arab"}, {"kk", "IR", "Arab"}, {"kk", "MN", "Arab"},
    {"ku", "LB", "Arab"}, {"ky", "CN", "Arab"}, {"ky", "TR", "Latn"}, {"lzz", "GE", "Geor"}, {"mn", "CN", "Mong"},
    {"ms", "CC", "Arab"}, {"nan", "TW", "Hant"}, {"pa", "PK", "Arab"}, {"pnt", "RU", "Cyrl"},
    {"pnt", "TR", "Latn"}, {"sd", "IN", "Deva"}, {"sr", "ME", "Latn"}, {"sr", "RO", "Latn"}, {"sr", "TR", "Latn"},
    {"tg", "PK", "Arab"}, {"ug", "KZ", "Cyrl"}, {"ug", "MN", "Cyrl"}, {"unr", "NP", "Deva"}, {"uz", "AF", "Arab"},
    {"uz", "CN", "Cyrl"}, {"yue", "CN", "Hans"}, {"zh", "AU", "Hant"}, {"zh", "BN", "Hant"}, {"zh", "GB", "Hant"},
    {"zh", "GF", "Hant"}, {"zh", "HK", "Hant"}, {"zh", "ID", "Hant"}, {"zh", "MO", "Hant"}, {"zh", "PA", "Hant"},
    {"zh", "PF", "Hant"}, {"zh", "PH", "Hant"}, {"zh", "SR", "Hant"}, {"zh", "TH", "Hant"}, {"zh", "TW", "Hant"},
    {"zh", "US", "Hant"}, {"zh", "VN", "Hant"},
};

/* Parents that are not the tag less its last subtag, and are not root
 * (parentLocales.json). Sorted by child: keep it sorted. */
static const errcore__parent errcore__parents[] = {
    {"en-150", "en-001"}, {"hi-Latn", "en-IN"}, {"ht", "fr-HT"}, {"nb", "no"}, {"nn", "no"},
    {"zh-Hant-MO", "zh-Hant-HK"},
};

/* The same for "<language>-<region>" by the dozen: the parent of each listed region
 * (two-letter codes back to back, sorted: keep them sorted). Sorted by language. */
static const char errcore__regions_en_001[] =
    "AGAIAUBBBMBSBWBZCCCKCMCXCYDGDMERFJFKFMGBGDGGGHGIGMGSGYHKIDIEILIMINIOJEJMKEKIKNKY"
    "LCLRLSMGMOMSMTMUMVMWMYNANFNGNRNUNZPGPKPNPWRWSBSCSDSGSHSLSSSXSZTCTKTOTTTVTZUGVCVG"
    "VUWSZAZMZW"
    ;
static const char errcore__regions_en_150[] =
    "ATBECHCZDEDKESFIFRHUITNLNOPLPTROSESISK"
    ;
static const char errcore__regions_es_419[] =
    "ARBOBRBZCLCOCRCUDOECGTHNJPMXNIPAPEPRPYSVUSUYVE"
    ;
static const char errcore__regions_pt_PT[] =
    "AOCHCVFRGQGWLUMOMZSTTL"
    ;
static const errcore__region_parent errcore__region_parents[] = {
    {"en", "en-001", errcore__regions_en_001}, {"en", "en-150", errcore__regions_en_150},
    {"es", "es-419", errcore__regions_es_419}, {"pt", "pt-PT", errcore__regions_pt_PT},
};

/* Two-letter language codes CLDR replaces (aliases.json languageAlias), and cmn.
 * Sorted by code: keep it sorted. */
static const errcore__alias errcore__aliases[] = {
    {"bh", "bho"}, {"cmn", "zh"}, {"in", "id"}, {"iw", "he"}, {"ji", "yi"}, {"jw", "jv"}, {"mo", "ro"},
    {"sh", "sr-Latn"}, {"tl", "fil"}, {"tw", "ak"},
};

/* clang-format on */
/* CLDR data ends. */

#define ERRCORE__COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The first of n rows of `stride` bytes, sorted by their leading string
 * (strcmp), whose string is not below `key`: n when there is none.
 */
static size_t errcore__lower_bound(const void *rows, size_t n, size_t stride, const char *key) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (strcmp((const char *)rows + mid * stride, key) < 0) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The row whose leading string is `key`, or NULL. */
static const void *errcore__find(const void *rows, size_t n, size_t stride, const char *key) {
    size_t at = errcore__lower_bound(rows, n, stride, key);
    const char *row = (const char *)rows + at * stride;
    return at < n && strcmp(row, key) == 0 ? row : NULL;
}

static const errcore__likely_script *errcore__likely_of(const char *lang) {
    return errcore__find(errcore__likely_scripts, ERRCORE__COUNT(errcore__likely_scripts),
                         sizeof errcore__likely_scripts[0], lang);
}

/* The likely script of lang in region, when it is not the language's own. */
static const char *errcore__region_script_of(const char *lang, const char *region) {
    size_t n = ERRCORE__COUNT(errcore__region_scripts);
    for (size_t i = errcore__lower_bound(errcore__region_scripts, n, sizeof errcore__region_scripts[0], lang);
         i < n && strcmp(errcore__region_scripts[i].lang, lang) == 0; i++) {
        if (strcmp(errcore__region_scripts[i].region, region) == 0) {
            return errcore__region_scripts[i].script;
        }
    }
    return NULL;
}

/* The parent of "<lang>-<region>" from a region list, or NULL. */
static const char *errcore__region_parent_of(const char *lang, const char *region) {
    if (strlen(region) != 2) {
        return NULL;
    }
    for (size_t g = 0; g < ERRCORE__COUNT(errcore__region_parents); g++) {
        const errcore__region_parent *rp = &errcore__region_parents[g];
        if (strcmp(rp->lang, lang) != 0) {
            continue;
        }
        size_t lo = 0, hi = strlen(rp->regions) / 2u;
        while (lo < hi) { /* the two-letter codes back to back, sorted */
            size_t mid = lo + (hi - lo) / 2u;
            int c = strncmp(rp->regions + 2u * mid, region, 2);
            if (c == 0) {
                return rp->parent;
            }
            if (c < 0) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
    }
    return NULL;
}

/* ---- Identifiers ---------------------------------------------------------------------------- */

/* The length of text up to its first `stop` or its end (strcspn with one character: the
 * freestanding build has only the <string.h> functions the core needs, see Embedded/). */
static size_t errcore__span(const char *text, char stop) {
    size_t n = 0;
    while (text[n] != '\0' && text[n] != stop) {
        n++;
    }
    return n;
}

/* Whether text[0 ... n-1] equals the lower-case `word`, ignoring ASCII case. */
static bool errcore__word_is(const char *text, size_t n, const char *word) {
    for (size_t i = 0; i < n; i++) {
        if (word[i] == '\0' || errcore__ascii_lower(text[i]) != word[i]) {
            return false;
        }
    }
    return word[n] == '\0';
}

/* The subtag at p (up to a '-', '_', '.', '@' or the end) and whether it is 1 to 8 letters or digits. */
static bool errcore__subtag_at(const char *p, size_t *length, bool *letters) {
    size_t n = 0;
    bool ok = true, alpha = true;
    while (p[n] != '\0' && p[n] != '-' && p[n] != '_' && p[n] != '.' && p[n] != '@') {
        ok = ok && (errcore__ascii_alpha(p[n]) || errcore__ascii_digit(p[n]));
        alpha = alpha && errcore__ascii_alpha(p[n]);
        n++;
    }
    *length = n;
    *letters = alpha && n > 0;
    return ok && n >= 1 && n <= 8;
}

/* The script or variant a POSIX @modifier stands for ("latin" -> Latn, "valencia" -> valencia). */
static void errcore__modifier(const char *identifier, const char **script, bool *valencia) {
    *script = NULL;
    *valencia = false;
    size_t at = errcore__span(identifier, '@');
    if (identifier[at] == '\0') {
        return;
    }
    const char *m = identifier + at + 1;
    size_t n = 0;
    while (m[n] != '\0' && m[n] != '.') {
        n++;
    }
    if (errcore__word_is(m, n, "latin")) {
        *script = "Latn";
    } else if (errcore__word_is(m, n, "cyrillic")) {
        *script = "Cyrl";
    } else if (errcore__word_is(m, n, "devanagari")) {
        *script = "Deva";
    } else {
        *valencia = errcore__word_is(m, n, "valencia");
    }
}

/* Appends "-" (unless first) and text[0 ... n-1] to tag when it fits; false when it does not. */
static bool errcore__tag_append(char *tag, size_t *used, const char *text, size_t n) {
    size_t dash = *used > 0 ? 1u : 0u;
    if (*used + dash + n > ERRCORE_MAX_TAG_LENGTH) {
        return false;
    }
    if (dash) {
        tag[(*used)++] = '-';
    }
    memcpy(tag + *used, text, n);
    *used += n;
    tag[*used] = '\0';
    return true;
}

/* errcore_language_from_identifier() into tag[ERRCORE_MAX_TAG_LENGTH + 1]: the length, 0 for none. */
static size_t errcore__identifier_tag(const char *identifier, char *tag) {
    size_t used = 0;
    tag[0] = '\0';
    if (!identifier) {
        return 0;
    }
    const char *script;
    bool valencia;
    errcore__modifier(identifier, &script, &valencia);
    const char *p = identifier;
    for (size_t index = 0;; index++) {
        size_t n;
        bool letters;
        bool ok = errcore__subtag_at(p, &n, &letters);
        if (index == 0 && (!ok || !letters || n < 2 || errcore__word_is(p, n, "posix"))) {
            return 0; /* no language: "", "C", "POSIX", "C.UTF-8", a malformed first subtag */
        }
        if (index == 1 && script) {
            if (!(ok && letters && n == 4)) {                     /* unless the identifier has a script of its own */
                (void)errcore__tag_append(tag, &used, script, 4); /* "sr_RS@latin": sr-Latn-RS */
            }
            script = NULL;
        }
        if (!ok || !errcore__tag_append(tag, &used, p, n)) {
            break;
        }
        p += n;
        if (*p != '-' && *p != '_') {
            break;
        }
        p++;
    }
    if (script) {
        (void)errcore__tag_append(tag, &used, script, 4); /* "sr@latin": sr-Latn */
    }
    if (valencia) {
        (void)errcore__tag_append(tag, &used, "valencia", 8);
    }
    /* A singleton with nothing after it introduces nothing. */
    while (used >= 2 && tag[used - 2] == '-') {
        used -= 2;
        tag[used] = '\0';
    }
    return used;
}

size_t errcore_language_from_identifier(const char *identifier, char *buf, size_t size) {
    char tag[ERRCORE_MAX_TAG_LENGTH + 1];
    errcore__sink s = errcore__sink_make(buf, size);
    if (errcore__identifier_tag(identifier, tag) > 0) {
        errcore__sink_str(&s, tag);
    }
    return s.len;
}

/* ---- Locales -------------------------------------------------------------------------------- */

/* Replaces an alias, then makes a multi-script language's likely script explicit or drops it. */
static void errcore__resolve(errcore__locale *loc) {
    const errcore__alias *alias =
        errcore__find(errcore__aliases, ERRCORE__COUNT(errcore__aliases), sizeof errcore__aliases[0], loc->lang);
    if (alias) {
        const char *r = alias->replacement;
        size_t n = errcore__span(r, '-');
        memcpy(loc->lang, r, n);
        loc->lang[n] = '\0';
        if (r[n] == '-' && loc->script[0] == '\0') {
            memcpy(loc->script, r + n + 1, 5); /* sh: sr-Latn */
        }
    }
    const errcore__likely_script *likely = errcore__likely_of(loc->lang);
    if (!likely) {
        return;
    }
    if (loc->script[0] == '\0') {
        const char *regional = loc->region[0] ? errcore__region_script_of(loc->lang, loc->region) : NULL;
        memcpy(loc->script, regional ? regional : likely->script, 5);
    }
    if (!likely->shown && strcmp(loc->script, likely->script) == 0) {
        loc->script[0] = '\0';
    }
}

bool errcore__language_read(const char *text, errcore__locale *loc) {
    char tag[ERRCORE_MAX_TAG_LENGTH + 1];
    loc->lang[0] = loc->script[0] = loc->region[0] = loc->variants[0] = '\0';
    if (errcore__identifier_tag(text, tag) == 0) {
        return false;
    }
    size_t n = errcore__span(tag, '-');
    for (size_t i = 0; i < n; i++) {
        loc->lang[i] = errcore__ascii_lower(tag[i]);
    }
    loc->lang[n] = '\0';
    /* Room left for the variants once the likely script is added. */
    size_t room = ERRCORE_MAX_TAG_LENGTH - n - 5u - 4u;
    size_t variants = 0;
    int stage = 0; /* 0: after the language, 1: the script, 2: the region, 3: a variant */
    bool extlang = false;
    const char *p = tag + n;
    while (*p == '-') {
        p++;
        size_t len = errcore__span(p, '-');
        bool letters = true, digits = true;
        for (size_t i = 0; i < len; i++) {
            letters = letters && errcore__ascii_alpha(p[i]);
            digits = digits && errcore__ascii_digit(p[i]);
        }
        if (stage == 0 && len == 3 && letters && !extlang && n <= 3) {
            /* An extended language subtag stands for the language itself: zh-yue is yue. */
            for (size_t i = 0; i < 3; i++) {
                loc->lang[i] = errcore__ascii_lower(p[i]);
            }
            loc->lang[3] = '\0';
            extlang = true;
        } else if (stage == 0 && len == 4 && letters) {
            loc->script[0] = errcore__ascii_upper(p[0]);
            for (size_t i = 1; i < 4; i++) {
                loc->script[i] = errcore__ascii_lower(p[i]);
            }
            loc->script[4] = '\0';
            stage = 1;
        } else if (stage <= 1 && ((len == 2 && letters) || (len == 3 && digits))) {
            for (size_t i = 0; i < len; i++) {
                loc->region[i] = errcore__ascii_upper(p[i]);
            }
            loc->region[len] = '\0';
            stage = 2;
        } else if ((len >= 5 || (len == 4 && errcore__ascii_digit(p[0]))) && variants + 1u + len <= room) {
            loc->variants[variants++] = '-';
            for (size_t i = 0; i < len; i++) {
                loc->variants[variants++] = errcore__ascii_lower(p[i]);
            }
            loc->variants[variants] = '\0';
            stage = 3;
        } else {
            break; /* an extension, private use, or a subtag out of place */
        }
        p += len;
    }
    errcore__resolve(loc);
    return true;
}

size_t errcore__language_format(const errcore__locale *loc, char *buf) {
    size_t n = strlen(loc->lang);
    memcpy(buf, loc->lang, n);
    if (loc->script[0]) {
        buf[n++] = '-';
        memcpy(buf + n, loc->script, 4);
        n += 4;
    }
    if (loc->region[0]) {
        size_t r = strlen(loc->region);
        buf[n++] = '-';
        memcpy(buf + n, loc->region, r);
        n += r;
    }
    size_t v = strlen(loc->variants);
    memcpy(buf + n, loc->variants, v);
    n += v;
    buf[n] = '\0';
    return n;
}

bool errcore__language_parent(errcore__locale *loc) {
    char name[ERRCORE_MAX_TAG_LENGTH + 1];
    (void)errcore__language_format(loc, name);
    const errcore__parent *listed =
        errcore__find(errcore__parents, ERRCORE__COUNT(errcore__parents), sizeof errcore__parents[0], name);
    if (listed) {
        return errcore__language_read(listed->parent, loc);
    }
    size_t v = strlen(loc->variants);
    if (v > 0) {
        while (loc->variants[--v] != '-') {
        }
        loc->variants[v] = '\0'; /* drop the last variant: each starts with its '-' */
        return true;
    }
    if (loc->region[0]) {
        const char *parent = loc->script[0] ? NULL : errcore__region_parent_of(loc->lang, loc->region);
        if (parent) {
            return errcore__language_read(parent, loc);
        }
        loc->region[0] = '\0';
        return true;
    }
    if (loc->script[0]) {
        if (errcore__likely_of(loc->lang)) {
            /* The likely script: its parent is the language alone, which reads as this locale.
             * Another script: the root (CLDR's nonlikelyScript rule). */
            return false;
        }
        loc->script[0] = '\0';
        return true;
    }
    return false;
}

bool errcore__language_is(const char *tag, const char *name) {
    errcore__locale loc;
    char own[ERRCORE_MAX_TAG_LENGTH + 1];
    if (!tag || !errcore__language_read(tag, &loc)) {
        return false;
    }
    (void)errcore__language_format(&loc, own);
    return strcmp(own, name) == 0;
}

/* ---- The public functions ------------------------------------------------------------------ */

size_t errcore_language_fallback(const char *tag, size_t step, char *buf, size_t size) {
    errcore__sink s = errcore__sink_make(buf, size);
    errcore__locale loc;
    if (!errcore__language_read(tag, &loc)) {
        return 0;
    }
    for (size_t i = 0; i < step; i++) {
        if (i + 1u >= ERRCORE__LANGUAGE_STEPS || !errcore__language_parent(&loc)) {
            return 0;
        }
    }
    char name[ERRCORE_MAX_TAG_LENGTH + 1];
    (void)errcore__language_format(&loc, name);
    errcore__sink_str(&s, name);
    return s.len;
}

size_t errcore_language_distance(const char *wanted, const char *tag) {
    errcore__locale want, have;
    if (!errcore__language_read(tag, &have) || !errcore__language_read(wanted, &want)) {
        return ERRCORE_NO_INDEX;
    }
    char own[ERRCORE_MAX_TAG_LENGTH + 1], name[ERRCORE_MAX_TAG_LENGTH + 1];
    (void)errcore__language_format(&have, own);
    size_t step = 0;
    do {
        (void)errcore__language_format(&want, name);
        if (strcmp(own, name) == 0) {
            return step;
        }
    } while (++step < ERRCORE__LANGUAGE_STEPS && errcore__language_parent(&want));
    return ERRCORE_NO_INDEX;
}

size_t errcore_language_choose(const char *const *tags, size_t count, const char *wanted) {
    errcore__locale want;
    if (!tags || !errcore__language_read(wanted, &want)) {
        return ERRCORE_NO_INDEX;
    }
    char name[ERRCORE_MAX_TAG_LENGTH + 1];
    size_t step = 0;
    do {
        (void)errcore__language_format(&want, name);
        for (size_t k = 0; k < count; k++) {
            if (errcore__language_is(tags[k], name)) {
                return k;
            }
        }
    } while (++step < ERRCORE__LANGUAGE_STEPS && errcore__language_parent(&want));
    return ERRCORE_NO_INDEX;
}
