// Context "ahc": async-http-client, for the listings of Integrations/SwiftErrAsyncHTTPClient (with
// the context "server").
import AsyncHTTPClient
import SwiftErrAsyncHTTPClient

public let request = HTTPClientRequest(url: "https://api.example.com/class/c-1")
