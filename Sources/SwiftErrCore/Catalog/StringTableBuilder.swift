import CErrCore

/// Flattens a definition's string codes and namespaces for `errcore_string_build()` and builds the
/// string table of a built catalog, turning a rejection into a ``CatalogError`` that names the
/// entries and modules involved.
///
/// Namespaces are every module's ``ModuleDefinition/namespaces`` (owned by that module) and every
/// other namespace an entry names (owned by none); an entry with no namespace, or the empty one,
/// is in the catalog's own.
struct StringTableBuilder {
    /// A built string table: its header sits at the start of `allocation`.
    struct Built {
        let strings: UnsafeMutablePointer<errcore_string_table>
        let allocation: UnsafeMutableRawPointer
    }

    private struct Space {
        var name: [UInt8]
        var module: UInt16
        var label: String
    }

    private struct Code {
        var bytes: [UInt8]
        var space: Int
        var entryCode: Int64
        var label: String
    }

    private let definition: CatalogDefinition
    private var spaces: [Space] = []
    private var spaceIndex: [[UInt8]: Int] = [:]
    private var codes: [Code] = []

    init(_ definition: CatalogDefinition) {
        self.definition = definition
    }

    /// Whether the definition has anything for a string table: a string code or an owned namespace.
    static func isNeeded(for definition: CatalogDefinition) -> Bool {
        definition.modules.contains { !$0.namespaces.isEmpty } || !definition.stringEntries.isEmpty
    }

    /// The namespace's position (1-based, as `errcore_string_code_def.space` counts), added
    /// unowned when it is new; 0 for the catalog's own.
    private mutating func space(_ name: String?, label: String) -> Int {
        guard let name, !name.isEmpty else { return 0 }
        let bytes = Array(name.utf8)
        if let index = spaceIndex[bytes] { return index + 1 }
        spaces.append(Space(name: bytes, module: 0, label: "namespace '\(name)' of \(label)"))
        spaceIndex[bytes] = spaces.count - 1
        return spaces.count
    }

    private mutating func flatten() throws(CatalogError) {
        for (position, module) in definition.modules.enumerated() {
            let id = UInt16(truncatingIfNeeded: position + 1)
            for name in module.namespaces {
                let bytes = Array(name.utf8)
                if let index = spaceIndex[bytes] {
                    let owner = spaces[index].module
                    throw CatalogError(
                        status: .duplicateString, index: position, otherIndex: Int(owner) - 1,
                        message:
                            "duplicate string: namespace '\(name)' is owned by module '\(module.name)' and by \(spaces[index].label)"
                    )
                }
                spaces.append(Space(name: bytes, module: id, label: "module '\(module.name)'"))
                spaceIndex[bytes] = spaces.count - 1
            }
        }
        // An entry's namespace is its module's or no module's, as its code is inside its module's
        // ranges or outside every range.
        func add(_ entry: EntryDefinition, module: UInt16, label: String) throws(CatalogError) {
            guard let string = entry.string else { return }
            let space = space(entry.namespace, label: label)
            if space > 0, spaces[space - 1].module != module {
                let owner = spaces[space - 1].module
                let namespace = entry.namespace ?? ""
                if module == 0 {
                    throw CatalogError(
                        status: .baseInModuleRange, index: codes.count, code: entry.code, otherCode: Int64(owner),
                        message:
                            "base entry in a module's namespace: \(label) is in namespace '\(namespace)', which \(spaces[space - 1].label) owns"
                    )
                }
                throw CatalogError(
                    status: .codeOutsideModule, index: codes.count, code: entry.code, otherCode: Int64(owner),
                    message:
                        "string code outside its module: \(label) is in namespace '\(namespace)', which \(owner == 0 ? "no module" : spaces[space - 1].label) owns"
                )
            }
            codes.append(Code(bytes: Array(string.utf8), space: space, entryCode: entry.code, label: label))
        }
        try add(definition.success, module: 0, label: "success entry '\(definition.success.name)'")
        for entry in definition.base { try add(entry, module: 0, label: "base.\(entry.name)") }
        for (position, module) in definition.modules.enumerated() {
            for entry in module.codes {
                try add(entry, module: UInt16(truncatingIfNeeded: position + 1), label: "\(module.name).\(entry.name)")
            }
        }
    }

    /// Builds the string table for `table`, the table built from the same definition.
    mutating func build(for table: UnsafePointer<errcore_table>) throws(CatalogError) -> Built {
        try flatten()
        var diag = errcore_diag()
        var failure: errcore_status = ERRCORE_OK
        let spaces = self.spaces
        let codes = self.codes
        // Every name and code back to back, so the definitions can point into one buffer.
        var bytes: [UInt8] = []
        var spaceOffsets: [Int] = []
        var codeOffsets: [Int] = []
        for space in spaces {
            spaceOffsets.append(bytes.count)
            bytes += space.name
        }
        for code in codes {
            codeOffsets.append(bytes.count)
            bytes += code.bytes
        }
        bytes.append(0)  // never empty, so the buffer has a base address
        let built: Built? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let base = chars.baseAddress!
                let spaceDefs = spaces.enumerated().map { i, space in
                    errcore_string_space_def(
                        name: base + spaceOffsets[i], length: space.name.count, module: space.module)
                }
                let codeDefs = codes.enumerated().map { i, code in
                    errcore_string_code_def(
                        code: base + codeOffsets[i], length: code.bytes.count, space: code.space,
                        entry_code: code.entryCode)
                }
                return spaceDefs.withUnsafeBufferPointer { spaceBuffer in
                    codeDefs.withUnsafeBufferPointer { codeBuffer in
                        var def = errcore_string_def(
                            spaces: spaceBuffer.baseAddress, space_count: spaceBuffer.count,
                            codes: codeBuffer.baseAddress, code_count: codeBuffer.count)
                        var size = 0
                        failure = errcore_string_build_size(&def, &size, &diag)
                        guard failure == ERRCORE_OK else { return nil }
                        let header = (MemoryLayout<errcore_string_table>.stride + 7) & ~7
                        let allocation = UnsafeMutableRawPointer.allocate(
                            byteCount: header + max(size, 8), alignment: 8)
                        let strings = allocation.bindMemory(to: errcore_string_table.self, capacity: 1)
                        strings.initialize(to: errcore_string_table())
                        failure = errcore_string_build(table, &def, allocation + header, size, strings, &diag)
                        guard failure == ERRCORE_OK else {
                            allocation.deallocate()
                            return nil
                        }
                        return Built(strings: strings, allocation: allocation)
                    }
                }
            }
        }
        if let built { return built }
        throw error(for: diag, status: failure)
    }

    /// Turns a C diagnostic into a ``CatalogError`` naming the entries or namespaces involved.
    private func error(for diag: errcore_diag, status: errcore_status) -> CatalogError {
        var diag = diag
        let explanation = CText.read { buffer, size in errcore_diag_format(&diag, buffer, size) }
        let none = Int(bitPattern: UInt(noDiagnosticIndex))
        let index: Int? = diag.index == none ? nil : diag.index
        let other: Int? = diag.other_index == none ? nil : diag.other_index
        func label(_ i: Int?) -> String? {
            guard let i else { return nil }
            switch diag.subject {
            case ERRCORE_SUBJECT_STRING_CODE: return i < codes.count ? "string code \(i) is \(codes[i].label)" : nil
            case ERRCORE_SUBJECT_STRING_SPACE: return i < spaces.count ? "namespace \(i) is \(spaces[i].label)" : nil
            default: return nil
            }
        }
        let names = [label(index), label(other)].compactMap { $0 }
        let message = names.isEmpty ? explanation : explanation + " [" + names.joined(separator: ", ") + "]"
        return CatalogError(
            status: CatalogError.Status(status), index: index, otherIndex: other,
            code: diag.code, otherCode: diag.other_code, message: message)
    }
}
