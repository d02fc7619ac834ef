// Reading one summary file completely into a tree and checking it: the reader that reports what
// is wrong and where (`errcat merge: FILE:LINE:COLUMN: WHAT`), and the one `SummaryScanner` hands
// every summary to that it does not read itself.

import SwiftErr
import SwiftErrCatalogFile

/// Why a summary file cannot be merged, and where.
struct SummaryFileError: Error {
    var offset: Int
    var message: String

    /// "line:column" of `offset` in `bytes` (1-based; columns count bytes).
    func location(in bytes: [UInt8]) -> String {
        var line = 1
        var column = 1
        for byte in bytes.prefix(min(offset, bytes.count)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "\(line):\(column)"
    }
}

/// Reads a JSON summary written by `classify --json` (or `merge`), checking it against the
/// catalog it must come from and checking that its counts add up.
enum SummaryFile {
    static func read(_ bytes: [UInt8], table: Catalog, identity: String) throws(SummaryFileError) -> SummaryData {
        let parsed = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> JSONNode in try JSONTreeParser.parse(raw) }
        }
        let root: JSONNode
        switch parsed {
        case .success(let node): root = node
        case .failure(let error): throw SummaryFileError(offset: error.offset, message: "not JSON: \(error.message)")
        }
        guard case .object(let members) = root.value else {
            throw SummaryFileError(offset: root.offset, message: "a summary is a JSON object")
        }
        func member(_ name: String) throws(SummaryFileError) -> JSONNode {
            guard let found = members.first(where: { $0.key == name }) else {
                throw SummaryFileError(offset: root.offset, message: "no \"\(name)\" member")
            }
            return found.value
        }
        func string(_ node: JSONNode, _ what: String) throws(SummaryFileError) -> String {
            guard case .string(let text) = node.value else {
                throw SummaryFileError(
                    offset: node.offset, message: "\(what) is \(node.value.kindDescription), not a string")
            }
            return text
        }
        func count(_ node: JSONNode, _ what: String) throws(SummaryFileError) -> UInt64 {
            guard case .number(let number) = node.value, let value = number.integer, value >= 0 else {
                throw SummaryFileError(
                    offset: node.offset, message: "\(what) is \(node.value.kindDescription), not a count")
            }
            return UInt64(value)
        }
        func object(_ node: JSONNode, _ what: String) throws(SummaryFileError) -> [JSONMember] {
            guard case .object(let members) = node.value else {
                throw SummaryFileError(
                    offset: node.offset, message: "\(what) is \(node.value.kindDescription), not an object")
            }
            return members
        }

        let schemaNode = try member("schema")
        let schema = try string(schemaNode, "\"schema\"")
        guard schema == SummaryData.schema else {
            throw SummaryFileError(
                offset: schemaNode.offset,
                message: "schema \"\(schema)\" cannot be merged with \"\(SummaryData.schema)\" (another errcat version)"
            )
        }
        let catalogNode = try member("catalog")
        let catalog = try object(catalogNode, "\"catalog\"")
        guard let hashMember = catalog.first(where: { $0.key == "hash" }) else {
            throw SummaryFileError(offset: catalogNode.offset, message: "no catalog \"hash\"")
        }
        let hash = try string(hashMember.value, "the catalog hash")
        guard hash == identity else {
            let name = catalog.first(where: { $0.key == "name" }).flatMap { member -> String? in
                if case .string(let text) = member.value.value { return text }
                return nil
            }
            throw SummaryFileError(
                offset: hashMember.value.offset,
                message: "made with another catalog (\(name.map { "\"\($0)\", " } ?? "")\(hash)) than this merge's "
                    + "(\"\(table.name)\", \(identity)); summaries of different catalogs cannot be added "
                    + "(give the catalog with --catalog)")
        }

        var data = SummaryData(moduleCount: table.moduleCount)
        data.lines = try count(try member("total"), "\"total\"")
        data.invalid = try count(try member("invalid"), "\"invalid\"")
        let validNode = try member("valid")
        let valid = try count(validNode, "\"valid\"")
        guard data.invalid <= data.lines, valid == data.lines - data.invalid else {
            throw SummaryFileError(offset: validNode.offset, message: "\"valid\" + \"invalid\" is not \"total\"")
        }
        data.untracked = try count(try member("untracked"), "\"untracked\"")

        let reasonsNode = try member("invalidReasons")
        for entry in try object(reasonsNode, "\"invalidReasons\"") {
            guard let category = InvalidCategory.allCases.first(where: { $0.name == entry.key }) else {
                throw SummaryFileError(offset: entry.keyOffset, message: "unknown invalid reason \"\(entry.key)\"")
            }
            data.invalidReasons[category.rawValue] = try count(entry.value, "reason \"\(entry.key)\"")
        }
        guard data.invalidReasons.reduce(0, { $0 &+ $1 }) == data.invalid else {
            throw SummaryFileError(
                offset: reasonsNode.offset, message: "the invalid reasons do not add up to \"invalid\"")
        }

        let tiersNode = try member("tiers")
        for entry in try object(tiersNode, "\"tiers\"") {
            guard let tier = SummaryReport.tierOrder.first(where: { $0.name == entry.key }) else {
                throw SummaryFileError(offset: entry.keyOffset, message: "unknown tier \"\(entry.key)\"")
            }
            data.tiers[Int(tier.rawValue)] = try count(entry.value, "tier \"\(entry.key)\"")
        }
        guard data.tiers.reduce(0, { $0 &+ $1 }) == valid else {
            throw SummaryFileError(offset: tiersNode.offset, message: "the tiers do not add up to \"valid\"")
        }

        for (name, isUnrecognised) in [("modules", false), ("unrecognised", true)] {
            for entry in try object(try member(name), "\"\(name)\"") {
                guard let id = table.moduleID(named: entry.key) else {
                    throw SummaryFileError(
                        offset: entry.keyOffset, message: "no module \"\(entry.key)\" in the catalog")
                }
                let value = try count(entry.value, "module \"\(entry.key)\"")
                if isUnrecognised { data.unrecognised[Int(id)] = value } else { data.modules[Int(id)] = value }
            }
        }

        let codesNode = try member("codes")
        guard case .array(let pairs) = codesNode.value else {
            throw SummaryFileError(
                offset: codesNode.offset, message: "\"codes\" is \(codesNode.value.kindDescription), not an array")
        }
        var total = data.untracked
        var previous: Int64? = nil
        for pair in pairs {
            guard case .array(let items) = pair.value, items.count == 2,
                case .number(let codeNumber) = items[0].value, let code = codeNumber.integer
            else {
                throw SummaryFileError(offset: pair.offset, message: "a \"codes\" element is not [code, count]")
            }
            let lines = try count(items[1], "the count of code \(code)")
            guard previous.map({ $0 < code }) ?? true else {
                throw SummaryFileError(offset: pair.offset, message: "\"codes\" is not sorted by code, or repeats one")
            }
            previous = code
            total = total &+ lines
            data.codes.append((code, lines))
        }
        guard total == valid else {
            throw SummaryFileError(
                offset: codesNode.offset, message: "\"codes\" and \"untracked\" do not add up to \"valid\"")
        }
        return data
    }
}
