import FoundationEssentials
import HeraldProtocol

extension HeraldClient {
    /// Notifications from heraldd as they come, for as long as the stream is iterated; each
    /// call gives a stream of its own. At most ``Configuration/eventBuffer`` events wait
    /// unread; past that the oldest are dropped. A stream finishes when the client is closed,
    /// or when the connection ends and is not made again (``Configuration/reconnects`` off,
    /// or ``Configuration/maximumAttempts`` spent).
    public func events() -> AsyncStream<HeraldEvent> {
        openStream(\.streams)
    }

    /// The notification messages as heraldd wrote them (`{"jsonrpc", "method", "params"}`),
    /// for heraldctl's `watch`, which prints them as they are.
    package func notificationMessages() -> AsyncStream<JSONValue> {
        openStream(\.lineStreams)
    }

    /// A new stream, kept in `streams` until it is no longer iterated.
    private func openStream<Element: Sendable>(
        _ streams: any WritableKeyPath<State, [Int: AsyncStream<Element>.Continuation]> & Sendable
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(configuration.eventBuffer))
        let id: Int? = state.withLockedValue { state in
            guard !state.isClosed else { return nil }
            let id = state.nextStreamID
            state.nextStreamID += 1
            state[keyPath: streams][id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0[keyPath: streams].removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every event stream: nothing more will come.
    func finishStreams() {
        let (streams, lineStreams) = state.withLockedValue { state in
            defer {
                state.streams.removeAll()
                state.lineStreams.removeAll()
            }
            return (Array(state.streams.values), Array(state.lineStreams.values))
        }
        for stream in streams { stream.finish() }
        for stream in lineStreams { stream.finish() }
    }

    /// Hands a notification from heraldd to the streams; read as a ``HeraldEvent`` only when an app listens.
    func deliver(method: String, params: JSONValue) {
        let (listening, lineStreams) = state.withLockedValue { (!$0.streams.isEmpty, Array($0.lineStreams.values)) }
        if !lineStreams.isEmpty {
            let message = JSONValue.object(JSONObject(["jsonrpc": .string("2.0"), "method": .string(method), "params": params]))
            for stream in lineStreams { stream.yield(message) }
        }
        guard listening else { return }
        publish(.reading(method: method, params: params))
    }

    func publish(_ event: HeraldEvent) {
        for stream in state.withLockedValue({ Array($0.streams.values) }) { stream.yield(event) }
    }
}

extension HeraldEvent {
    /// The event for a notification heraldd sent, its params read once from their JSON text.
    static func reading(method: String, params: JSONValue) -> HeraldEvent {
        var text: [UInt8] = []
        params.write(to: &text)
        return reading(method: method, params: Data(text))
    }
}
