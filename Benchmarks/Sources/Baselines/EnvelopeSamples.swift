// EnvelopeSamples.swift — response bodies for the envelope benchmarks (a small one and one of
// about 64 KB, each as a success and as a study-group error), the payload models, and the
// baseline: `JSONDecoder` decoding the whole envelope into a `Decodable` struct, then the Int enums'
// `Base(rawValue:)` / `Module(rawValue:)` on its code.

import Foundation

/// One class of the study-group module: the payload of the sample responses.
public struct ClassInfo: Decodable, Sendable {
    /// Class id.
    public var id: Int
    /// Display name.
    public var name: String
    /// Number of members.
    public var members: Int
    /// Whether the class is open to join requests.
    public var open: Bool
}

/// The payload of the large sample: a page of classes.
public struct ClassPage: Decodable, Sendable {
    /// The classes.
    public var items: [ClassInfo]
    /// The next page token, if any.
    public var next: String?
}

/// The envelope as a `Decodable` struct: every member decoded at once.
public struct DecodableEnvelope<Payload: Decodable & Sendable>: Decodable, Sendable {
    /// The response code.
    public var ret: Int?
    /// The server message.
    public var msg: String?
    /// The payload.
    public var data: Payload?
}

/// Why the baseline gave no payload.
public enum DecodableEnvelopeError: Error, Sendable {
    /// The JSON did not decode.
    case decoding
    /// A base-tier code (`IntEnumBase32`).
    case base(IntEnumBase32)
    /// A module code (`IntEnumModule32`).
    case module(IntEnumModule32)
    /// A code neither enum knows.
    case other(Int)
    /// A success without a payload.
    case noData
}

/// The sample bodies.
public enum EnvelopeSamples {
    /// `{"ret":0,"msg":"OK","data":{one class}}`, 85 bytes.
    public static let smallSuccess = Data(
        #"{"ret":0,"msg":"OK","data":{"id":42,"name":"Grade 3 maths","members":31,"open":true}}"#.utf8)
    /// The same shape with the study-group code 11210006 (class not found) and `data` null.
    public static let smallFailure = Data(#"{"ret":11210006,"msg":"班级不存在","data":null}"#.utf8)
    /// A success whose `data` is a page of classes, about 64 KB in all.
    public static let largeSuccess = Data(largeBody(ret: 0).utf8)
    /// The same 64 KB body with the study-group code 11210018 (class full) instead of success.
    public static let largeFailure = Data(largeBody(ret: 11210018).utf8)

    private static func largeBody(ret: Int) -> String {
        var items: [String] = []
        var size = 0
        var i = 0
        while size < 65_000 {
            let item =
                #"{"id":\#(100_000 + i),"name":"Class \#(i) of the spring term","members":\#(i % 47),"open":\#(i % 3 == 0)}"#
            items.append(item)
            size += item.utf8.count + 1
            i += 1
        }
        return #"{"ret":\#(ret),"msg":"OK","data":{"items":[\#(items.joined(separator: ","))],"next":null}}"#
    }

    /// The baseline: decodes the whole envelope with `decoder`, then resolves the code with the Int enums.
    /// - Parameters:
    ///   - payload: the payload type.
    ///   - body: the response body.
    ///   - decoder: the decoder (reused across calls, which favours the baseline).
    /// - Returns: the payload or why there is none.
    public static func decodableResult<Payload: Decodable & Sendable>(
        _ payload: Payload.Type, from body: Data, decoder: JSONDecoder
    ) -> Result<Payload, DecodableEnvelopeError> {
        guard let envelope = try? decoder.decode(DecodableEnvelope<Payload>.self, from: body) else {
            return .failure(.decoding)
        }
        let code = envelope.ret ?? -99999
        if code == 0 {
            guard let data = envelope.data else { return .failure(.noData) }
            return .success(data)
        }
        if let base = IntEnumBase32(rawValue: code) { return .failure(.base(base)) }
        if let module = IntEnumModule32(rawValue: code) { return .failure(.module(module)) }
        return .failure(.other(code))
    }
}
