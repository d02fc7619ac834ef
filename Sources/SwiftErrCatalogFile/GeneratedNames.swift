import SwiftErr

// The names that `errcat gen` gives a meaning to in the sources it writes, and the rules a
// catalog's names must follow so that generated C and Swift compile and mean what the catalog says.

/// Names used by the generated C and Swift, shared by the generators and the catalog file reader.
///
/// `errcat gen swift` writes the base tier as `static let` members of `BaseCode` and each module
/// as an enum `<Module>Code: ModuleCode` with one case per listed code; `errcat gen c` writes
/// a function `errcore_<catalog>_table()`. A catalog name, module name or entry name that
/// collides with a name these sources already use would not compile, or would compile to
/// something else, so the reader rejects it.
package enum GeneratedNames {
    /// The fallback case of every generated module enum, `case other(Int64)`.
    package static let fallbackCase = "other"

    /// Members every generated module enum declares, with what each one is.
    package static let generatedModuleMembers: [String: String] = [
        fallbackCase: "its fallback case other(_:)",
        "moduleName": "its static property moduleName",
        "moduleTitle": "its static property moduleTitle",
        "codeRanges": "its static property codeRanges",
        "listedCases": "its static property listedCases",
        "unrecognised": "its static function unrecognised(_:)",
        "classifier": "its static property classifier",
        "code": "its property code",
        "isUnrecognised": "its property isUnrecognised",
        "name": "its property name",
        "flags": "its property flags",
        "message": "its property message",
    ]

    /// Members a module enum inherits from `ModuleCode` (SwiftErrCore and SwiftErr) and `Hashable`;
    /// a case with one of these names would hide the member from callers of the concrete type.
    package static let inheritedModuleMembers: [String: String] = [
        "definition": "the ModuleCode member definition",
        "stringNamespaces": "the ModuleCode member stringNamespaces",
        "stringCode": "the ModuleCode member stringCode",
        "stringNamespace": "the ModuleCode member stringNamespace",
        "catalog": "the ModuleCode member catalog",
        "classify": "the ModuleCode function classify(_:)",
        "unrecognisedMessage": "the ModuleCode member unrecognisedMessage",
        "hashValue": "the Hashable member hashValue",
        "hash": "the Hashable function hash(into:)",
    ]

    /// Types the generated module enum names without a module prefix; a case of the same name
    /// would be found first.
    package static let referencedTypes: Set<String> = [
        "Bool", "ClosedRange", "CodeFlags", "Int64", "LocalizedText", "ModuleClassifier", "ModuleCode", "String",
    ]

    /// Names Swift gives a meaning of its own as members (`_` cannot name a member at all,
    /// `Foo.Type` and `Foo.Protocol` are metatypes, `.init` and `.self` are not members).
    package static let specialMembers: Set<String> = ["_", "Self", "self", "Type", "Protocol", "init"]

    /// Members of `BaseCode` (SwiftErrCore), which the base tier extends with `static let`s.
    package static let baseCodeMembers: [String: String] = [
        "BaseCode": "the type BaseCode itself",
        "rawValue": "the BaseCode property rawValue",
        "name": "the BaseCode function name(in:)",
        "flags": "the BaseCode function flags(in:)",
        "message": "the BaseCode function message(in:catalog:)",
        "hashValue": "the Hashable member hashValue",
        "hash": "the Hashable function hash(into:)",
    ]

    /// Types that a module enum cannot be, because the generated sources use them.
    package static let reservedTypeNames: [String: String] = [
        "ModuleCode": "the protocol every module enum conforms to",
        "BaseCode": "the type the base tier extends",
    ]

    /// Module names whose enum would take a name in ``reservedTypeNames`` (`module`, `Module`,
    /// `base`, `Base`), with why.
    package static let reservedModuleNames: [String: String] = {
        var names: [String: String] = [:]
        for (type, why) in reservedTypeNames {
            let stem = String(type.dropLast("Code".count))
            names[stem] = why
            names[stem.prefix(1).lowercased() + stem.dropFirst()] = why
        }
        return names
    }()

    /// The type name of a module's enum: `studyGroup` gives `StudyGroupCode`.
    package static func typeName(module name: String) -> String {
        capitalized(name) + "Code"
    }

    /// The name part of a catalog's base-tier file `BaseCode+<Name>.swift`: `default` gives `Default`.
    package static func typeName(catalog name: String) -> String {
        capitalized(name)
    }

    /// The type that holds a catalog in the form `errcat gen swift --installing` writes (the
    /// SwiftErrCatalogPlugin's): `shop` gives `ShopCatalog`. Its module enums refer to it, so no case
    /// may have this name.
    package static func catalogTypeName(catalog name: String) -> String {
        capitalized(name) + "Catalog"
    }

    private static func capitalized(_ name: String) -> String {
        guard let first = name.first else { return "" }
        return first.uppercased() + name.dropFirst()
    }

    /// Why `name` cannot be a case of a generated module enum, or `nil` when it can.
    package static func caseNameProblem(_ name: String) -> String? {
        if let what = generatedModuleMembers[name] { return what }
        if let what = inheritedModuleMembers[name] { return what }
        if referencedTypes.contains(name) { return "the type \(name), which the enum refers to" }
        if specialMembers.contains(name) {
            return "a name Swift does not allow as an enum case or gives its own meaning"
        }
        return nil
    }

    /// Why `name` cannot be a base-tier constant (`BaseCode.<name>`), or `nil` when it can.
    package static func baseNameProblem(_ name: String) -> String? {
        if let what = baseCodeMembers[name] { return what }
        if specialMembers.contains(name) { return "a name Swift does not allow as a member or gives its own meaning" }
        return nil
    }

    /// True for `[A-Za-z_][A-Za-z0-9_]*`, the names a catalog may use.
    package static func isIdentifier(_ name: String) -> Bool {
        var first = true
        for byte in name.utf8 {
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard letter || byte == UInt8(ascii: "_") || (digit && !first) else { return false }
            first = false
        }
        return !first
    }
}
