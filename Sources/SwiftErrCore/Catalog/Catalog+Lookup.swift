import CErrCore

extension Catalog {
    /// The code of entry `index`.
    /// - Parameter index: An entry index, for example ``Classification/entryIndex``.
    /// - Returns: The code, or `nil` when `index` is not below ``entryCount``.
    public func code(at index: UInt32) -> Int64? {
        Int(index) < entryCount ? pointer.pointee.codes[Int(index)] : nil
    }

    /// The identifier of entry `index`, e.g. `"tokenExpire"` (`errcore_entry_name()`).
    /// - Parameter index: An entry index.
    /// - Returns: The name, or `nil` when `index` is out of range.
    public func entryName(at index: UInt32) -> String? {
        CText.string(errcore_entry_name(pointer, index))
    }

    /// The message of entry `index` for `language`, chosen by the language rule (``Language``):
    /// along the language's ``Language/fallbackChain``, then the catalog's default language
    /// (`errcore_entry_message_for_tag()`).
    /// - Parameters:
    ///   - index: An entry index.
    ///   - language: The language wanted.
    /// - Returns: The message, or `nil` when `index` is out of range.
    public func entryMessage(at index: UInt32, in language: Language) -> String? {
        CText.string(errcore_entry_message_for_tag(pointer, index, language.tag))
    }

    /// The flags of entry `index`.
    /// - Parameter index: An entry index.
    /// - Returns: The flags, or `nil` when `index` is out of range.
    public func entryFlags(at index: UInt32) -> CodeFlags? {
        Int(index) < entryCount ? CodeFlags(rawValue: pointer.pointee.entries[Int(index)].flags) : nil
    }

    /// The module id of entry `index` (`0` for the success and base-tier entries).
    /// - Parameter index: An entry index.
    /// - Returns: The module id, or `nil` when `index` is out of range.
    public func entryModule(at index: UInt32) -> UInt16? {
        Int(index) < entryCount ? pointer.pointee.entries[Int(index)].module : nil
    }

    /// The identifier of module `id`, e.g. `"studyGroup"` (`errcore_module_name()`).
    /// - Parameter id: A module id (1-based).
    /// - Returns: The name, or `nil` when there is no such module.
    public func moduleName(_ id: UInt16) -> String? {
        CText.string(errcore_module_name(pointer, id))
    }

    /// The display name of module `id` for `language`, with the same fallback as
    /// ``entryMessage(at:in:)`` (`errcore_module_title_for_tag()`).
    /// - Parameters:
    ///   - id: A module id (1-based).
    ///   - language: The language wanted.
    /// - Returns: The title, or `nil` when there is no such module.
    public func moduleTitle(_ id: UInt16, in language: Language) -> String? {
        CText.string(errcore_module_title_for_tag(pointer, id, language.tag))
    }

    /// The id of the module named `name`, as `errcore_module_find()` finds it; linear in the
    /// module count.
    ///
    /// Like the C function, which reads `name` as a C string, it compares `name` up to its first
    /// NUL byte. The comparison is of UTF-8 bytes against each module's C name, with no C string
    /// made from `name`: the classification path of a firmware (``ModuleClassifier/init(catalog:)``)
    /// then links none of the standard library's string conversion code.
    /// - Parameter name: A module identifier (exact, case-sensitive).
    /// - Returns: The module id, or `nil` when there is no module of that name.
    public func moduleID(named name: String) -> UInt16? {
        for index in 0..<moduleCount {
            let id = UInt16(truncatingIfNeeded: index + 1)
            if moduleName(id, matches: name, upToNUL: true) {
                return id
            }
        }
        return nil
    }

    /// Whether module `id`'s name equals `name`, compared without allocating.
    /// - Parameters:
    ///   - id: A module id (1-based).
    ///   - name: A module identifier.
    /// - Returns: `true` when the module exists and has exactly that name.
    package func module(_ id: UInt16, isNamed name: String) -> Bool {
        moduleName(id, matches: name, upToNUL: false)
    }

    /// Compares module `id`'s C name with the UTF-8 bytes of `name`.
    /// - Parameters:
    ///   - id: A module id (1-based).
    ///   - name: A module identifier.
    ///   - upToNUL: `true` to compare `name` only up to its first NUL byte, as C would read it;
    ///     `false` to compare all of it (a `name` containing NUL then never matches).
    /// - Returns: `true` when the module exists and its name is the same bytes.
    private func moduleName(_ id: UInt16, matches name: String, upToNUL: Bool) -> Bool {
        guard let cName = errcore_module_name(pointer, id) else { return false }
        func matches<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
            var cursor = cName
            for byte in bytes {
                if byte == 0 {
                    if upToNUL { break }
                    return false
                }
                if UInt8(bitPattern: cursor.pointee) != byte { return false }
                cursor += 1
            }
            return cursor.pointee == 0
        }
        #if hasFeature(Embedded)
            // Embedded Swift has no bridged strings, the only kind that is not contiguous UTF-8, so the
            // byte-by-byte path (which links the standard library's UTF-16 index code) is left out.
            return name.utf8.withContiguousStorageIfAvailable(matches) ?? false
        #else
            return name.utf8.withContiguousStorageIfAvailable(matches) ?? matches(name.utf8)
        #endif
    }

    /// The code ranges module `id` owns, in ascending order.
    /// - Parameter id: A module id (1-based).
    /// - Returns: The ranges (empty when there is no such module).
    public func moduleRanges(_ id: UInt16) -> [ClosedRange<Int64>] {
        let table = pointer.pointee
        var result: [ClosedRange<Int64>] = []
        for i in 0..<table.range_count where table.ranges[i].module == id {
            result.append(table.ranges[i].first...table.ranges[i].last)
        }
        return result
    }

    /// The text a person should see for `code` (`errcore_describe_for_tag()`): an entry's message,
    /// "Unrecognised Study group error (code 11219999)" for an unlisted code in a module's
    /// range, "Unknown response code …" for an unknown code.
    /// - Parameters:
    ///   - code: Any raw code.
    ///   - language: The language wanted; it falls back as ``entryMessage(at:in:)`` does.
    /// - Returns: The description.
    public func describe(_ code: Int64, in language: Language) -> String {
        CText.read { buffer, size in errcore_describe_for_tag(pointer, code, language.tag, buffer, size) }
    }

    /// The catalog's message languages, the first its default (`errcore_language_tag()`).
    public var languages: [Language] {
        (0..<errcore_language_count(pointer)).compactMap { index in
            CText.string(errcore_language_tag(pointer, index)).flatMap { Language(tag: $0) }
        }
    }
}
