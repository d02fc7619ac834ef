/// A model for requests whose successful response carries no payload worth decoding.
///
/// Decoding `NoData` never fails and reads nothing: it succeeds when `data` is missing, `null`
/// or any value. Use `Optional<Model>` instead when `data` is either a model or absent/`null`.
public struct NoData: Decodable, Sendable, Hashable {
    /// Creates the value.
    public init() {}

    /// Creates the value without reading the decoder.
    /// - Parameter decoder: Ignored.
    public init(from decoder: any Decoder) {}
}
