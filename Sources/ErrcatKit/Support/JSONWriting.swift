// A tiny JSON writer: strings escaped per RFC 8259, straight into an OutputBuffer.

extension OutputBuffer {
    /// Appends `text` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else (including non-ASCII) written as UTF-8.
    mutating func write(jsonString text: String) {
        write(byte: UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                write(byte: UInt8(ascii: "\\"))
                write(byte: UInt8(ascii: "\""))
            case UInt8(ascii: "\\"):
                write(byte: UInt8(ascii: "\\"))
                write(byte: UInt8(ascii: "\\"))
            case 0x0A:
                write(byte: UInt8(ascii: "\\"))
                write(byte: UInt8(ascii: "n"))
            case 0x0D:
                write(byte: UInt8(ascii: "\\"))
                write(byte: UInt8(ascii: "r"))
            case 0x09:
                write(byte: UInt8(ascii: "\\"))
                write(byte: UInt8(ascii: "t"))
            case 0x00..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                for escapeByte in [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ] {
                    write(byte: escapeByte)
                }
            default: write(byte: byte)
            }
        }
        write(byte: UInt8(ascii: "\""))
    }

    /// Appends `"key":` (the key escaped).
    mutating func write(jsonKey key: String) {
        write(jsonString: key)
        write(byte: UInt8(ascii: ":"))
    }

    /// Appends a JSON string or `null`.
    mutating func write(jsonOptionalString text: String?) {
        if let text { write(jsonString: text) } else { write("null") }
    }

    /// Appends a JSON array of strings.
    mutating func write(jsonStrings texts: [String]) {
        write(byte: UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { write(byte: UInt8(ascii: ",")) }
            write(jsonString: text)
        }
        write(byte: UInt8(ascii: "]"))
    }
}
