/// The text a server sends beside a code (the envelope's message member, `"msg"` by default), made
/// safe to keep and to show: what ``ModuleRespError/serverMessage`` and
/// ``ServerAnswer/serverMessage`` hold.
///
/// The server's text is input, so it is cleaned before anything keeps it:
/// - control characters (C0 `U+0000`–`U+001F`, `DEL` `U+007F`, C1 `U+0080`–`U+009F`) and the
///   line and paragraph separators `U+2028` and `U+2029` become spaces;
/// - bidirectional controls (`U+061C`, `U+200E`, `U+200F`, `U+202A`–`U+202E`, `U+2066`–`U+2069`),
///   which could make the text read differently from what it is, are removed;
/// - a run of white space becomes its first character, and white space at either end is dropped;
/// - the result is at most ``maximumUTF8Count`` bytes of UTF-8: a longer text is cut at a
///   character (grapheme cluster) boundary and ends with "…" (the ellipsis counts in the limit);
/// - invalid UTF-8 (only possible in bytes, never in a `String`) becomes `U+FFFD`;
/// - a message that is empty, or only white space and controls, is absent (`nil`), and so is one
///   whose first character alone is longer than the limit (a letter with hundreds of combining
///   marks).
///
/// A text the cleaning leaves unchanged (valid UTF-8 of at most 512 bytes with single spaces
/// between words and nothing else to clean, as most messages are) is recognised in one pass over
/// its bytes and kept as it is. Any other text is read one scalar at a time and reading stops as
/// soon as the limit is reached: of a 1 MB message, only the scalars up to the limit are read (and,
/// at worst, the controls and white space that are dropped before them), and nothing beyond 512
/// bytes is ever copied. (Parsing the envelope still validates every byte of the body once, as for
/// any response.)
public enum ServerMessage {
    /// The largest cleaned message kept, in bytes of UTF-8, "…" included: 512.
    public static let maximumUTF8Count = 512

    /// The message as SwiftErr keeps it: cleaned and bounded as described above.
    /// - Parameter text: The server's text.
    /// - Returns: The cleaned text, or `nil` when nothing worth showing is left.
    public static func sanitized(_ text: String?) -> String? {
        guard let text else { return nil }
        let unchanged = text.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.baseAddress.map { isUnchangedByCleaning($0, utf8.count) } ?? false
        }
        if unchanged == true { return text }
        var scalars = text.unicodeScalars.makeIterator()
        return sanitized(&scalars)
    }

    /// The cleaned message read from `scalars`, which is consumed only as far as needed.
    static func sanitized<Scalars: IteratorProtocol<Unicode.Scalar>>(_ scalars: inout Scalars) -> String? {
        var kept = String.UnicodeScalarView()
        var keptCount = 0
        // The first character of the current run of white space, written only before the next
        // character that is kept, so that runs collapse and trailing white space never appears.
        var pendingSpace: Unicode.Scalar? = nil
        // Whether the text is longer than the limit, and the scalar that did not fit when it
        // followed the kept text directly (not after white space).
        var isCut = false
        var overflow: Unicode.Scalar? = nil
        while let next = scalars.next() {
            if isBidirectionalControl(next) { continue }
            let scalar = isControl(next) ? " " : next
            if isWhitespace(scalar) {
                if pendingSpace == nil && !kept.isEmpty { pendingSpace = scalar }
                continue
            }
            let needed = (pendingSpace?.utf8.count ?? 0) + scalar.utf8.count
            guard keptCount + needed <= maximumUTF8Count else {
                isCut = true
                overflow = pendingSpace == nil ? scalar : nil
                break
            }
            if let space = pendingSpace {
                kept.append(space)
                pendingSpace = nil
            }
            kept.append(scalar)
            keptCount += needed
        }
        guard !kept.isEmpty else { return nil }
        return isCut ? truncated(kept, before: overflow) : String(kept)
    }

    /// `kept`, a prefix of a longer text, cut at a character boundary to leave room for "…", and
    /// the ellipsis; `nil` when not even the first character fits. `overflow` is the scalar that
    /// followed `kept` directly (`nil` when white space did, which ends a character anyway).
    private static func truncated(_ kept: String.UnicodeScalarView, before overflow: Unicode.Scalar?) -> String? {
        var text = String(kept)
        if let overflow {
            // The last character of `kept` may continue in `overflow` (a combining mark, the second
            // half of a flag…): the characters of `kept` + `overflow` but its last are whole ones.
            var extended = kept
            extended.append(overflow)
            text = String(String(extended).dropLast())
        }
        let ellipsis = "…"
        while text.utf8.count + ellipsis.utf8.count > maximumUTF8Count { text.removeLast() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text.isEmpty ? nil : text + ellipsis
    }

    /// Unicode's White_Space, with ASCII (where after controls only the space is white space)
    /// answered without the property lookup.
    @inline(__always)
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " : scalar.properties.isWhitespace
    }

    /// C0 and C1 controls, `DEL`, and the line and paragraph separators: shown as a space.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    /// The bidirectional formatting characters: removed.
    private static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
