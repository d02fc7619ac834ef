// Context "gateway-handler": a listing that is the body of a gateway's request handler, which
// answers with the upstream's response or with its own.
import SwiftErr

func handle(_ request: Request, attempt: Int) async -> Response {
    // LISTING
    return response
}
