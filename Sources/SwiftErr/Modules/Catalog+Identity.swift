// A catalog's identity: a hash of what the built C table says, so that two catalogs that
// classify and describe every code alike hash alike, however they were made. errcat's summaries
// carry it, and a service shows the identity of the catalog it classifies with.

import CErrCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Catalog {
    /// The catalog's identity: FNV-1a (64-bit) over the table's contents, as 16 lowercase hex
    /// digits after `fnv1a64:`, e.g. `fnv1a64:3f5c0e2a9b7d4c11`.
    ///
    /// Two catalogs with one identity classify and describe every code alike: it tells which
    /// catalog a summary was made with (`errcat merge` refuses to add summaries of two), and which
    /// catalog a service classifies with now (``ReloadableCatalog/Snapshot/identity``). It is
    /// computed on each use, in time proportional to the table's size: keep it rather than ask
    /// again on a hot path.
    ///
    /// Hashed, in order: the success code; the message languages (their number and tags, the
    /// default first); every entry (code, module id, flags, name, and its message in each
    /// language as a lookup for that language's tag returns it, fallback included); every module
    /// (name, and its title in each language, likewise); every range (first, last, module id).
    /// Integers as little-endian bytes of fixed width, strings as a 4-byte length and their bytes
    /// (an absent string as length 0xFFFFFFFF). String pool offsets, the pool's layout, how the
    /// table stores its languages and the classification index (derived from the rest) are not
    /// hashed, so the built-in table and the same catalog built from `catalog/default.json` hash
    /// equal, and so do two tables whose lookups give the same text for every language.
    public var identity: String {
        var hash = FNV1a()
        hash.add(text: "errcat-catalog-identity/2")
        let table = pointer.pointee
        func string(_ text: UnsafePointer<CChar>?) {
            guard let text else {
                hash.add(UInt64(0xFFFF_FFFF), bytes: 4)
                return
            }
            let length = strlen(text)
            hash.add(UInt64(length), bytes: 4)
            hash.add(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length))
        }
        let tags = (0..<errcore_language_count(pointer)).map { errcore_language_tag(pointer, $0) }
        hash.add(UInt64(bitPattern: table.success_code), bytes: 8)
        hash.add(UInt64(tags.count), bytes: 8)
        for tag in tags { string(tag) }
        hash.add(UInt64(table.entry_count), bytes: 8)
        for index in 0..<table.entry_count {
            let entry = table.entries[index]
            hash.add(UInt64(bitPattern: table.codes[index]), bytes: 8)
            hash.add(UInt64(entry.module), bytes: 2)
            hash.add(UInt64(entry.flags), bytes: 1)
            string(errcore_entry_name(pointer, UInt32(index)))
            for tag in tags { string(errcore_entry_message_for_tag(pointer, UInt32(index), tag)) }
        }
        hash.add(UInt64(table.module_count), bytes: 8)
        for index in 0..<table.module_count {
            let id = UInt16(index + 1)
            string(errcore_module_name(pointer, id))
            for tag in tags { string(errcore_module_title_for_tag(pointer, id, tag)) }
        }
        hash.add(UInt64(table.range_count), bytes: 8)
        for index in 0..<table.range_count {
            let range = table.ranges[index]
            hash.add(UInt64(bitPattern: range.first), bytes: 8)
            hash.add(UInt64(bitPattern: range.last), bytes: 8)
            hash.add(UInt64(range.module), bytes: 2)
        }
        let digits = String(hash.value, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The 64-bit FNV-1a hash (Fowler–Noll–Vo): small, fast, and stable across platforms and
/// releases, which a catalog's identity needs; not a defence against a forged collision.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    /// Adds the low `bytes` bytes of `integer`, least significant first.
    mutating func add(_ integer: UInt64, bytes: Int) {
        for index in 0..<bytes {
            value = (value ^ ((integer >> (8 * UInt64(index))) & 0xFF)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func add(text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }
}
