/// One error as a handler of an ``ErrorChannel`` receives it.
public struct ErrorDelivery<Failure: Error>: Sendable {
    /// The error.
    public let error: Failure
    /// The channel-wide position of this emission, from 0: gaps between consecutive deliveries
    /// to one handler are the errors dropped from its buffer.
    public let sequenceNumber: UInt64
    /// How many older errors this handler's buffer dropped since its previous delivery because
    /// the handler was too slow (`0` normally).
    public let droppedBefore: Int

    /// Creates a delivery.
    /// - Parameters:
    ///   - error: The error.
    ///   - sequenceNumber: The emission's position.
    ///   - droppedBefore: Errors dropped since the previous delivery.
    public init(error: Failure, sequenceNumber: UInt64, droppedBefore: Int) {
        self.error = error
        self.sequenceNumber = sequenceNumber
        self.droppedBefore = droppedBefore
    }
}
