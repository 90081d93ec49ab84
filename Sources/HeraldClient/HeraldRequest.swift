/// One call of a protocol method, ready to send: its name, its params and the type its
/// result is read as.
///
/// There is one per method (`.donate(app:interaction:)`, `.getFocus(subscribe:)`, …,
/// generated from Protocol/openrpc.json), and both connections send them: ``HeraldClient``
/// with `try await herald.call(.stats())`, ``HeraldPollConnection`` with
/// `try connection.send(.stats()) { answer in … }`.
public struct HeraldRequest<Result: Decodable & Sendable>: Sendable {
    /// The protocol method, such as `update-content`.
    public var method: String
    /// The params by name; those that are nil are not sent, so an older heraldd never sees
    /// a member it may not know.
    public var params: [(String, (any Encodable & Sendable)?)]

    public init(_ method: String, params: [(String, (any Encodable & Sendable)?)]) {
        self.method = method
        self.params = params
    }
}
