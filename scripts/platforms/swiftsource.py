"""swiftsource.py — the availability that our own Swift source gives a position in a file.

A small Swift tokenizer (comments, string literals of every form, balanced brackets) and two
questions answered from its tokens:

* `declaration_attributes(line, column)`: the `@available` attributes written on the declaration
  whose name is at that position (the index store gives the position of every declaration).
  Walking back from the name over declaration keywords, modifiers and attributes collects them.
* `statement_scopes()`: the regions that `if #available(...) { ... }`,
  `guard #available(...) else { ... }` (the rest of the enclosing block) and the `else` block of
  `if #unavailable(...)` make available on the platforms they name.

Versions are tuples of ints; an `Availability` maps a platform name (macOS, iOS, macCatalyst,
tvOS, watchOS, visionOS) to a version, or to UNAVAILABLE for `@available(iOS, unavailable)` and
`@available(*, unavailable)`.
"""

import re
from dataclasses import dataclass

PLATFORMS = ("macOS", "iOS", "macCatalyst", "tvOS", "watchOS", "visionOS")
UNAVAILABLE = (1 << 30,)

# Names an availability attribute or condition may use, and the platform each one means.
_PLATFORM_NAMES = {
    "macOS": "macOS", "OSX": "macOS",
    "iOS": "iOS", "macCatalyst": "macCatalyst", "tvOS": "tvOS", "watchOS": "watchOS",
    "visionOS": "visionOS", "xrOS": "visionOS",
}

# Words that may stand between a declaration's attributes and its name.
_DECLARATION_WORDS = {
    "func", "var", "let", "class", "struct", "enum", "protocol", "actor", "extension", "typealias",
    "associatedtype", "case", "init", "deinit", "subscript", "macro", "operator", "indirect",
    "public", "package", "internal", "fileprivate", "private", "open", "static", "final",
    "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned",
    "dynamic", "optional", "nonisolated", "distributed", "consuming", "borrowing", "prefix",
    "postfix", "infix", "set",
}


def parse_version(text):
    """"15" -> (15, 0, 0), "10.15.4" -> (10, 15, 4): always three parts, so versions compare."""
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def format_version(version):
    if version == UNAVAILABLE:
        return "unavailable"
    parts = list(version)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    while len(parts) < 2:
        parts.append(0)
    return ".".join(str(p) for p in parts)


def derived(platform, versions):
    """The version a platform gets when an attribute does not name it: Mac Catalyst takes iOS's,
    visionOS takes iOS's mapped (iOS 17 and earlier: visionOS 1.0; iOS N later: visionOS N-16)."""
    if platform in versions:
        return versions[platform]
    if platform in ("macCatalyst", "visionOS") and "iOS" in versions:
        ios = versions["iOS"]
        if ios == UNAVAILABLE or platform == "macCatalyst":
            return ios
        return (1, 0, 0) if ios[0] <= 17 else (ios[0] - 16,) + tuple(ios[1:])
    return None


@dataclass
class Token:
    kind: str  # "word", "attr" (@name), "pound" (#name), "punct", "string", "number"
    text: str
    line: int
    column: int  # 1-based, in UTF-8 bytes, as the index store counts
    offset: int  # index in the file's text


class SwiftSource:
    def __init__(self, text):
        self.text = text
        self.tokens = _tokenize(text)
        self.match = _match_brackets(self.tokens)
        self._by_position = {(t.line, t.column): i for i, t in enumerate(self.tokens)}
        self._scopes = None

    # --- @available on declarations ------------------------------------------------------

    def declaration_attributes(self, line, column):
        """The availability from the `@available` attributes of the declaration named at
        (line, column); an empty dict when it has none or no token starts there."""
        i = self._by_position.get((line, column))
        if i is None:
            return {}
        versions = {}
        j = i - 1
        while j >= 0:
            tok = self.tokens[j]
            if tok.kind == "word" and tok.text in _DECLARATION_WORDS:
                j -= 1
                continue
            if tok.kind == "punct" and tok.text == ")":
                opener = self.match.get(j)
                if opener is None:
                    break
                before = self.tokens[opener - 1] if opener > 0 else None
                if before is not None and before.kind == "attr":
                    if before.text == "@available":
                        _merge(versions, _parse_available_attribute(self.tokens[opener + 1:j]))
                    j = opener - 2
                    continue
                if before is not None and before.kind == "word" and before.text in _DECLARATION_WORDS:
                    # private(set), unowned(unsafe), ...
                    j = opener - 2
                    continue
                break
            if tok.kind == "attr":
                j -= 1
                continue
            break
        return versions

    # --- if/guard #available -------------------------------------------------------------

    def statement_scopes(self):
        """[(start, end, versions)]: positions (line, column) from start up to end are available
        at `versions` by an `if #available`, `guard #available` or `if #unavailable ... else`."""
        if self._scopes is not None:
            return self._scopes
        scopes = []
        toks = self.tokens
        for i, tok in enumerate(toks):
            if tok.kind != "pound" or tok.text not in ("#available", "#unavailable"):
                continue
            if i + 1 >= len(toks) or toks[i + 1].text != "(" or (i + 1) not in self.match:
                continue
            close = self.match[i + 1]
            versions = _parse_condition(toks[i + 2:close])
            if not versions:
                continue
            keyword = self._statement_keyword(i)
            if keyword is None:
                continue
            kind, _ = keyword
            body = self._next_open_brace(close + 1)
            if body is None:
                continue
            body_end = self.match.get(body)
            if body_end is None:
                continue
            if kind == "if" and tok.text == "#available":
                scopes.append((_pos(toks[body]), _pos(toks[body_end]), versions))
            elif kind == "if" and tok.text == "#unavailable":
                k = body_end + 1
                if k < len(toks) and toks[k].text == "else" and k + 1 < len(toks) and toks[k + 1].text == "{":
                    end = self.match.get(k + 1)
                    if end is not None:
                        scopes.append((_pos(toks[k + 1]), _pos(toks[end]), versions))
            elif kind == "guard" and tok.text == "#available":
                block_end = self._enclosing_block_end(i)
                end_pos = _pos(toks[block_end]) if block_end is not None else (1 << 30, 0)
                scopes.append((_pos(toks[body_end]), end_pos, versions))
        self._scopes = scopes
        return scopes

    def _statement_keyword(self, i):
        """The `if` or `guard` whose condition list holds the token at i."""
        depth = 0
        j = i - 1
        while j >= 0:
            t = self.tokens[j]
            if t.kind == "punct" and t.text in (")", "]"):
                depth += 1
            elif t.kind == "punct" and t.text in ("(", "["):
                if depth == 0:
                    return None
                depth -= 1
            elif depth == 0 and t.kind == "punct" and t.text in ("{", "}", ";"):
                return None
            elif depth == 0 and t.kind == "word" and t.text in ("if", "guard", "while"):
                return (t.text, j)
            j -= 1
        return None

    def _next_open_brace(self, k):
        depth = 0
        while k < len(self.tokens):
            t = self.tokens[k]
            if t.kind == "punct" and t.text in ("(", "["):
                depth += 1
            elif t.kind == "punct" and t.text in (")", "]"):
                depth -= 1
            elif depth == 0 and t.kind == "punct" and t.text == "{":
                return k
            k += 1
        return None

    def _enclosing_block_end(self, i):
        depth = 0
        j = i - 1
        while j >= 0:
            t = self.tokens[j]
            if t.kind == "punct" and t.text == "}":
                depth += 1
            elif t.kind == "punct" and t.text == "{":
                if depth == 0:
                    return self.match.get(j)
                depth -= 1
            j -= 1
        return None

    def scope_versions_at(self, line, column):
        """Every statement scope's versions that cover (line, column)."""
        position = (line, column)
        return [versions for start, end, versions in self.statement_scopes() if start <= position <= end]


def _pos(token):
    return (token.line, token.column)


def _merge(into, versions):
    for platform, version in versions.items():
        if platform not in into or version > into[platform]:
            into[platform] = version


def _parse_available_attribute(tokens):
    """`@available(macOS 15, iOS 18, *)`, `@available(iOS, introduced: 16.4)`,
    `@available(iOS, unavailable)`, `@available(*, unavailable)` -> {platform: version}.
    Attributes that only deprecate, rename or name the Swift version give nothing."""
    groups = _split_commas(tokens)
    if not groups:
        return {}
    first = [t.text for t in groups[0]]
    words = [[t.text for t in g] for g in groups[1:]]
    if first == ["*"]:
        if any(w == ["unavailable"] for w in words):
            return {p: UNAVAILABLE for p in PLATFORMS}
        return {}
    if len(first) == 1 and first[0] in _PLATFORM_NAMES:
        platform = _PLATFORM_NAMES[first[0]]
        result = {}
        for w in words:
            if w == ["unavailable"]:
                result[platform] = UNAVAILABLE
            elif len(w) >= 3 and w[0] == "introduced" and w[1] == ":":
                result[platform] = parse_version("".join(w[2:]))
        return _with_derived(result)
    return _parse_short_form(groups)


def _parse_condition(tokens):
    """`#available(macOS 15, iOS 18, *)` -> {platform: version}."""
    return _parse_short_form(_split_commas(tokens))


def _parse_short_form(groups):
    result = {}
    for g in groups:
        words = [t.text for t in g]
        if len(words) >= 2 and words[0] in _PLATFORM_NAMES and g[1].kind == "number":
            result[_PLATFORM_NAMES[words[0]]] = parse_version("".join(words[1:]))
    return _with_derived(result)


def _with_derived(result):
    for platform in ("macCatalyst", "visionOS"):
        value = derived(platform, result)
        if value is not None:
            result[platform] = value
    return result


def _split_commas(tokens):
    groups, current = [], []
    for t in tokens:
        if t.kind == "punct" and t.text == ",":
            groups.append(current)
            current = []
        else:
            current.append(t)
    if current:
        groups.append(current)
    return groups


def _match_brackets(tokens):
    match, stack = {}, []
    pairs = {")": "(", "]": "[", "}": "{"}
    for i, t in enumerate(tokens):
        if t.kind != "punct":
            continue
        if t.text in ("(", "[", "{"):
            stack.append(i)
        elif t.text in pairs:
            # Unbalanced text (a bug in the tokenizer or the file) matches nothing.
            while stack and tokens[stack[-1]].text != pairs[t.text]:
                stack.pop()
            if stack:
                opener = stack.pop()
                match[opener] = i
                match[i] = opener
    return match


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|`[^`\n]+`")
_NUMBER = re.compile(r"[0-9][0-9_]*(\.[0-9][0-9_]*)*")


def _tokenize(text):
    tokens = []
    i, n = 0, len(text)
    line, line_start_byte, byte = 1, 0, 0

    def advance_to(j):
        nonlocal i, line, line_start_byte, byte
        chunk = text[i:j]
        for ch in chunk:
            byte += len(ch.encode("utf-8"))
            if ch == "\n":
                line += 1
                line_start_byte = byte
        i = j

    def emit(kind, value, start):
        tokens.append(Token(kind, value, line, byte - line_start_byte + 1, start))

    while i < n:
        c = text[i]
        if c in " \t\r\n":
            advance_to(i + 1)
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            advance_to(n if end < 0 else end)
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            advance_to(j)
            continue
        if c == '"' or (c == "#" and _raw_string_start(text, i)):
            start = i
            emit("string", "", start)
            advance_to(_string_end(text, i))
            continue
        if c == "@":
            m = _WORD.match(text, i + 1)
            if m:
                emit("attr", "@" + m.group(0), i)
                advance_to(m.end())
                continue
        if c == "#":
            m = _WORD.match(text, i + 1)
            if m:
                emit("pound", "#" + m.group(0), i)
                advance_to(m.end())
                continue
        m = _WORD.match(text, i)
        if m:
            emit("word", m.group(0).strip("`"), i)
            advance_to(m.end())
            continue
        m = _NUMBER.match(text, i)
        if m:
            emit("number", m.group(0), i)
            advance_to(m.end())
            continue
        emit("punct", c, i)
        advance_to(i + 1)
    return tokens


def _raw_string_start(text, i):
    j = i
    while j < len(text) and text[j] == "#":
        j += 1
    return j < len(text) and text[j] == '"'


def _string_end(text, i):
    """The index just past the string literal starting at i: "...", \"\"\"...\"\"\", #"..."#,
    with interpolations \\( ... ) holding nested strings and parentheses."""
    hashes = 0
    while text[i] == "#":
        hashes, i = hashes + 1, i + 1
    multiline = text.startswith('"""', i)
    quote = '"""' if multiline else '"'
    i += len(quote)
    closing = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    n = len(text)
    while i < n:
        if text.startswith(escape, i):
            k = i + len(escape)
            if k < n and text[k] == "(":
                i = _interpolation_end(text, k + 1)
                continue
            i = k + 1
            continue
        if text.startswith(closing, i):
            return i + len(closing)
        if not multiline and text[i] == "\n":
            return i  # an unterminated single-line string ends at the line's end
        i += 1
    return n


def _interpolation_end(text, i):
    depth, n = 1, len(text)
    while i < n and depth:
        c = text[i]
        if c == '"' or (c == "#" and _raw_string_start(text, i)):
            i = _string_end(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return i
