/// The payload of a study-group request.
struct ClassItemModel: Decodable, Equatable, Sendable {
    let classId: String
    let name: String
}
