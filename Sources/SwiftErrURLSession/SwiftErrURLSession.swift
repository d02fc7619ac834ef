// SwiftErrURLSession: ResponseClient on URLSession. Importing it gives SwiftErr too and, on Linux,
// FoundationNetworking, where URLSession and URLRequest live.
@_exported import SwiftErr

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
