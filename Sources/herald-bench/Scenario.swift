import ArgumentParser

/// What each request line asks Herald to do; the same lines go to the floor.
enum Scenario: String, CaseIterable, ExpressibleByArgument, Sendable, Codable {
    /// A typical incoming message: a sender with a handle and display name, one recipient,
    /// a short text, and an identifier of its own.
    case donate
    /// The same donation, 64 to a line as one JSON-RPC batch.
    case donateBatch = "donate-batch"
    /// Content for an interaction donated beforehand (a pool of `poolSize`), so each
    /// request runs the whole delivery decision.
    case updateContent = "update-content"
    /// An app asking for its Focus status: the smallest request that reaches the state.
    case requestFocus = "request-focus"

    /// The app every request names.
    static let app = "org.example.chat"

    /// Interactions donated before an `update-content` run.
    static let poolSize: UInt64 = 1024

    /// JSON-RPC requests per line.
    var requestsPerLine: Int {
        self == .donateBatch ? 64 : 1
    }

    /// Whether the run needs `poolSize` donations first.
    var needsPool: Bool { self == .updateContent }

    /// One request, with `{ID}` for the JSON-RPC id and `{KEY}` for the request's number.
    func requestTemplate(connection: Int) -> RequestTemplate {
        switch self {
        case .donate, .donateBatch:
            return RequestTemplate(Self.donation(identifier: "c\(connection)-{KEY}"))
        case .updateContent:
            return RequestTemplate(
                #"{"jsonrpc":"2.0","id":{ID},"method":"update-content","params":{"app":"\#(Self.app)","#
                    + #""interactionIdentifier":"pool-{KEY}","content":{"title":"New message","body":"Lunch at noon?"}}}"#
            )
        case .requestFocus:
            return RequestTemplate(
                #"{"jsonrpc":"2.0","id":{ID},"method":"request-focus","params":{"app":"\#(Self.app)"}}"#
            )
        }
    }

    /// The key spliced into the `sequence`th request of a connection.
    func key(sequence: UInt64) -> UInt64 {
        self == .updateContent ? sequence % Self.poolSize : sequence
    }

    /// A donation of an incoming message with the given identifier (which may hold `{KEY}`).
    static func donation(identifier: String) -> String {
        #"{"jsonrpc":"2.0","id":{ID},"method":"donate","params":{"app":"\#(app)","interaction":{"#
            + #""identifier":"\#(identifier)","direction":"incoming","intent":{"type":"sendMessage","#
            + #""sender":{"handle":{"value":"ann@example.org","type":"emailAddress"},"displayName":"Ann Lee"},"#
            + #""recipients":[{"handle":{"value":"bo@example.org","type":"emailAddress"},"displayName":"Bo Berg"}],"#
            + #""conversationIdentifier":"c-ann","content":"Lunch at noon?"}}}}"#
    }
}
