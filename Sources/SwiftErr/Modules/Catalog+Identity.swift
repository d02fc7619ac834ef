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
    /// Hashed, in order: the success code; every entry (code, module id, flags, name, English
    /// and Chinese message); every module (name, English and Chinese title); every range
    /// (first, last, module id). Integers as little-endian bytes of fixed width, strings as a
    /// 4-byte length and their bytes (an absent string as length 0xFFFFFFFF). String pool
    /// offsets, the pool's layout and the classification index (derived from the rest) are
    /// not hashed, so the built-in table and the same catalog built from
    /// `catalog/default.json` hash equal.
    public var identity: String {
        var hash = FNV1a()
        hash.add(text: "errcat-catalog-identity/1")
        let table = pointer.pointee
        func string(_ offset: UInt32) {
            guard offset != UInt32(ERRCORE_NO_STRING), Int(offset) < table.strings_size else {
                hash.add(UInt64(0xFFFF_FFFF), bytes: 4)
                return
            }
            let start = UnsafeRawPointer(table.strings! + Int(offset))
            let length = strlen(start.assumingMemoryBound(to: CChar.self))
            hash.add(UInt64(length), bytes: 4)
            hash.add(UnsafeRawBufferPointer(start: start, count: length))
        }
        hash.add(UInt64(bitPattern: table.success_code), bytes: 8)
        hash.add(UInt64(table.entry_count), bytes: 8)
        for index in 0..<table.entry_count {
            let entry = table.entries[index]
            hash.add(UInt64(bitPattern: table.codes[index]), bytes: 8)
            hash.add(UInt64(entry.module), bytes: 2)
            hash.add(UInt64(entry.flags), bytes: 1)
            string(entry.name)
            string(entry.message_en)
            string(entry.message_zh)
        }
        hash.add(UInt64(table.module_count), bytes: 8)
        for index in 0..<table.module_count {
            let module = table.modules[index]
            string(module.name)
            string(module.title_en)
            string(module.title_zh)
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
