// The "flags" lists of a catalog file exactly as written (order and repeats), so a catalog that
// `errcat import po` writes back keeps them as they were: a CatalogDefinition holds an entry's
// flags as bits, which have no order.

import SwiftErr
import SwiftErrCatalogFile

/// Each entry's `"flags"` member as its catalog file lists it, by code.
struct WrittenFlags {
    /// The flag names of the entry with each code, in file order; an entry without `"flags"` is
    /// not here.
    private(set) var lists: [Int64: [String]] = [:]

    init() {}

    /// The lists of the file `bytes` (a catalog file that reads without problems: other shapes are
    /// passed over, and their entries get the flags' canonical order).
    init(catalogFile bytes: [UInt8]) {
        guard let root = try? bytes.withUnsafeBytes({ raw in try JSONTreeParser.parse(raw) }) else { return }
        let top = Self.members(root)
        var entries: [JSONNode] = []
        if let success = top["success"] { entries.append(success) }
        entries += Self.elements(top["base"])
        for module in Self.elements(top["modules"]) {
            entries += Self.elements(Self.members(module)["codes"])
        }
        for entry in entries {
            let members = Self.members(entry)
            guard case .number(let number)? = members["code"]?.value, let code = number.integer,
                let flags = members["flags"], case .array(let list) = flags.value
            else { continue }
            var written: [String] = []
            for element in list {
                guard case .string(let name) = element.value else { break }
                written.append(name)
            }
            if written.count == list.count { lists[code] = written }
        }
    }

    /// The `"flags"` to write for `entry`: the file's list when it names exactly the entry's flags,
    /// else their canonical order (``CodeFlags/names``); `nil` for no member (no flags, none written).
    func names(for entry: EntryDefinition) -> [String]? {
        if let written = lists[entry.code] {
            var flags = CodeFlags()
            var known = true
            for name in written {
                if let flag = CodeFlags(name: name) { flags.formUnion(flag) } else { known = false }
            }
            if known && flags == entry.flags { return written }
        }
        return entry.flags.isEmpty ? nil : entry.flags.names
    }

    private static func members(_ node: JSONNode) -> [String: JSONNode] {
        guard case .object(let list) = node.value else { return [:] }
        var result: [String: JSONNode] = [:]
        for member in list where result[member.key] == nil { result[member.key] = member.value }
        return result
    }

    private static func elements(_ node: JSONNode?) -> [JSONNode] {
        guard case .array(let list)? = node?.value else { return [] }
        return list
    }
}
