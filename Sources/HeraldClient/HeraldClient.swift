import FoundationEssentials
import HeraldProtocol
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A connection to heraldd for an app: one typed call per protocol method, the
/// notifications of its subscriptions as an `AsyncSequence` (``events()``), and a
/// reconnection that repeats the subscribing calls when heraldd restarts.
///
/// ```swift
/// let herald = try await HeraldClient.connect()
/// try await herald.requireProtocol("1.0")
/// let events = herald.events()
/// _ = try await herald.requestFocus(app: "org.example.chat", subscribe: true)
/// for await case .focusChanged(let change) in events { print(change.focusStatus?.isFocused ?? false) }
/// ```
///
/// Calls may run at once: each has an `id`, and answers are matched by it. Nothing blocks a
/// thread: the connection is SwiftNIO's, on its shared event loop group.
public final class HeraldClient: Sendable {
    public let configuration: Configuration
    let group: any EventLoopGroup
    let state = NIOLockedValueBox(State())

    struct State {
        /// The connection calls go through, once made (and its subscriptions repeated).
        var channel: (any Channel)?
        /// The connection being made, which every call made meanwhile waits for.
        var connecting: Task<Result<any Channel, HeraldError>, Never>?
        var nextID = 1
        /// The subscribing calls that succeeded, in order, to repeat after a reconnection.
        var subscriptions: [SubscribingCall] = []
        var streams: [Int: AsyncStream<HeraldEvent>.Continuation] = [:]
        /// heraldctl's: the notifications as heraldd wrote them.
        var lineStreams: [Int: AsyncStream<JSONValue>.Continuation] = [:]
        var nextStreamID = 0
        var isClosed = false
    }

    /// A subscribing call (`request-focus` with `subscribe`, `subscribe-responses`, …) as it was sent.
    struct SubscribingCall: Equatable {
        var method: String
        var params: [UInt8]
    }

    init(configuration: Configuration, group: any EventLoopGroup) {
        self.configuration = configuration
        self.group = group
    }

    /// A client dropped without ``close()`` closes its connection.
    deinit {
        state.withLockedValue { $0.channel }?.close(promise: nil)
    }

    /// Connects to heraldd (``Configuration/socketPath``), or throws ``HeraldError/Kind/unreachable``.
    public static func connect(_ configuration: Configuration = Configuration()) async throws(HeraldError) -> HeraldClient {
        let client = HeraldClient(configuration: configuration, group: MultiThreadedEventLoopGroup.singleton)
        _ = try await client.connection()
        return client
    }

    /// Closes the connection; calls waiting fail with ``HeraldError/Kind/closed`` or
    /// ``HeraldError/Kind/connectionLost``, and the event streams finish.
    public func close() async {
        let (channel, connecting) = state.withLockedValue { state in
            state.isClosed = true
            defer { state.channel = nil }
            return (state.channel, state.connecting)
        }
        connecting?.cancel()
        try? await channel?.close()
        finishStreams()
    }

    /// Sends `request` and waits for its result: `try await herald.call(.stats())`.
    ///
    /// The generated methods (``donate(app:interaction:)`` and the others) call this.
    public func call<Result>(_ request: HeraldRequest<Result>) async throws(HeraldError) -> Result {
        try await call(request.method, params: request.params)
    }

    /// Calls `method` with the params that are not nil, and reads its result as `Result`:
    /// a method this client has no request for, by name.
    public func call<Result: Decodable>(
        _ method: String, params: [(String, (any Encodable & Sendable)?)], as type: Result.Type = Result.self
    ) async throws(HeraldError) -> Result {
        let text = try Self.paramsText(params)
        return try Self.reading(Result.self, from: try await call(method, paramsText: text), of: method)
    }

    /// An answer's `result` read as `Result`.
    static func reading<Result: Decodable>(_ type: Result.Type, from result: JSONValue, of method: String) throws(HeraldError) -> Result {
        do {
            var bytes: [UInt8] = []
            result.write(to: &bytes)
            return try JSONDecoder().decode(Result.self, from: Data(bytes))
        } catch {
            throw HeraldError(kind: .unreadable, message: "the result of \(method) is not what the protocol says: \(error)")
        }
    }

    /// Calls `method` with params already written as a JSON object, and returns the result;
    /// remembers a subscribing call to repeat it after a reconnection.
    package func call(_ method: String, paramsText: [UInt8]) async throws(HeraldError) -> JSONValue {
        let channel = try await connection()
        let result = try await send(method, paramsText: paramsText, on: channel)
        if Self.subscribes(method, paramsText: paramsText) {
            let call = SubscribingCall(method: method, params: paramsText)
            state.withLockedValue { state in
                if !state.subscriptions.contains(call) { state.subscriptions.append(call) }
            }
        }
        return result
    }

    /// Whether a call subscribes its connection: `subscribe-…`, or `subscribe: true`.
    static func subscribes(_ method: String, paramsText: [UInt8]) -> Bool {
        guard subscribingMethods.contains(method) else { return false }
        if method.hasPrefix("subscribe-") { return true }
        guard let params = try? JSONParser.parse(paramsText) else { return false }
        return params.member("subscribe") == .bool(true)
    }

    /// The params as one JSON object, leaving out those that are nil: an older heraldd never
    /// sees a member it may not know.
    static func paramsText(_ params: [(String, (any Encodable & Sendable)?)]) throws(HeraldError) -> [UInt8] {
        var text: [UInt8] = Array("{".utf8)
        let encoder = JSONEncoder()
        for (name, value) in params {
            guard let value else { continue }
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            JSONValue.string(name).write(to: &text)
            text.append(UInt8(ascii: ":"))
            do {
                text += try encoder.encode(value)
            } catch {
                throw HeraldError(kind: .unreadable, message: "the param \(name) cannot be written as JSON: \(error)")
            }
        }
        text.append(UInt8(ascii: "}"))
        return text
    }
}
