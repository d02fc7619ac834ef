import ServiceLifecycle
import UnixSignals

/// A service that reloads the gateway's catalog each time the process receives `SIGHUP`, the
/// usual "read your configuration again" signal of a daemon (`kill -HUP <pid>`,
/// `systemctl reload`). A bad file is logged and counted, and the catalog in use stays (see
/// ``GatewayCatalog/reload(trigger:)``).
///
/// While it runs, `SIGHUP` no longer ends the process; it stops on graceful shutdown or
/// cancellation.
public struct CatalogHangupReloads: Service {
    /// The catalog reloaded.
    public let catalog: GatewayCatalog

    /// A service reloading `catalog` on `SIGHUP`.
    /// - Parameter catalog: The gateway's catalog.
    public init(catalog: GatewayCatalog) {
        self.catalog = catalog
    }

    /// Waits for `SIGHUP` and reloads, until graceful shutdown or cancellation.
    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            // A failure is logged and counted by the reload itself; the signal has no one to answer.
            _ = try? catalog.reload(trigger: .hangup)
        }
    }
}

extension Gateway {
    /// The service that reloads ``catalog`` on `SIGHUP` (``CatalogHangupReloads``).
    /// - Returns: The service; run it beside the application, in one `ServiceGroup`.
    public func hangupReloads() -> CatalogHangupReloads {
        CatalogHangupReloads(catalog: catalog)
    }
}
