import Foundation
import SwiftErr

/// Recorded envelopes and small models used across tests.
enum Fixtures {
    static func body(_ text: String) -> Data { Data(text.utf8) }

    static let joinedClass = body(#"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"三年二班"}}"#)
    static let wrongTeamCode = body(#"{"ret":11210005,"msg":"班级码错误","data":null}"#)
    static let classNotFound = body(#"{"ret":11210006,"msg":"班级不存在"}"#)
    static let unlistedStudyGroup = body(#"{"ret":11219999,"msg":"new server code"}"#)
    static let tokenExpired = body(#"{"ret":11001,"msg":"token expired"}"#)
    /// Neither a base code nor a study-group code: another module's.
    static let tagCode = body(#"{"ret":11160002,"msg":"invalid tag"}"#)
    static let unknownCode = body(#"{"ret":424242,"msg":"?"}"#)
    static let successNoData = body(#"{"ret":0,"msg":"ok"}"#)
    static let successNullData = body(#"{"ret":0,"msg":"ok","data":null}"#)
    static let stringCode = body(#"{"ret":"0","data":{}}"#)
    static let noCode = body(#"{"msg":"?","data":{}}"#)
    static let badData = body(#"{"ret":0,"data":{"classId":7}}"#)
    static let notJSON = body("<html>502 Bad Gateway</html>")
}

/// The payload of a study-group request.
struct ClassItemModel: Decodable, Equatable, Sendable {
    let classId: String
    let name: String
}
