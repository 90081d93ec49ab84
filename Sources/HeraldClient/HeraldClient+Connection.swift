import HeraldProtocol
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension HeraldClient {
    /// The connection to call through: the open one, else the one being made, else a new
    /// one (a single attempt: only a lost connection is retried, by ``reconnection()``).
    func connection() async throws(HeraldError) -> any Channel {
        enum Next {
            case open(any Channel)
            case wait(Task<Result<any Channel, HeraldError>, Never>)
        }
        let next: Next? = state.withLockedValue { state in
            if state.isClosed { return nil }
            if let channel = state.channel {
                if channel.isActive { return .open(channel) }
                // It ended before it was published, so nothing else saw it end.
                state.channel = nil
            }
            if let connecting = state.connecting { return .wait(connecting) }
            let connecting = Task { await self.connectOnce() }
            state.connecting = connecting
            return .wait(connecting)
        }
        switch next {
        case nil: throw HeraldError(kind: .closed, message: "the client was closed")
        case .open(let channel): return channel
        case .wait(let task): return try await task.value.get()
        }
    }

    /// One attempt to connect; publishes the connection.
    private func connectOnce() async -> Result<any Channel, HeraldError> {
        let result = await open()
        state.withLockedValue { state in
            state.connecting = nil
            if case .success(let channel) = result { state.channel = channel }
        }
        return result
    }

    /// A new connection to the socket, not yet published to calls.
    func open() async -> Result<any Channel, HeraldError> {
        let path = configuration.socketPath
        let bootstrap = ClientBootstrap(group: group).channelInitializer { [weak self] channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(
                    ByteToMessageHandler(LineFrameDecoder()),
                    AnswerRouter { [weak self] method, params in self?.deliver(method: method, params: params) }
                )
            }
        }
        let timeout = configuration.connectTimeout
        let channel: any Channel
        do {
            // NIO's own connect opens its socket without close-on-exec: the socket is ours.
            let descriptor = try await NIOThreadPool.singleton.runIfActive {
                try ClientSocket.connected(to: path, timeout: timeout)
            }
            channel = try await bootstrap.withConnectedSocket(descriptor).get()
        } catch let error as HeraldError {
            return .failure(error)
        } catch let error as IOError {
            return .failure(
                HeraldError(
                    kind: .unreachable, message: "cannot connect to \(path): \(String(cString: strerror(error.errnoCode)))",
                    systemErrno: error.errnoCode
                )
            )
        } catch {
            return .failure(HeraldError(kind: .unreachable, message: "cannot connect to \(path): \(error)"))
        }
        channel.closeFuture.whenComplete { [weak self] _ in self?.connectionEnded(channel) }
        return .success(channel)
    }

    /// Writes one request on `channel` and waits for its answer's `result`.
    func send(_ method: String, paramsText: [UInt8], on channel: any Channel) async throws(HeraldError) -> JSONValue {
        let id = state.withLockedValue { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        var text = channel.allocator.buffer(capacity: paramsText.count + method.utf8.count + 48)
        text.writeString(#"{"jsonrpc":"2.0","id":\#(id),"method":"#)
        var name: [UInt8] = []
        JSONValue.string(method).write(to: &name)
        text.writeBytes(name)
        text.writeString(#","params":"#)
        text.writeBytes(paramsText)
        text.writeString("}\n")
        let answer = channel.eventLoop.makePromise(of: JSONValue.self)
        channel.writeAndFlush(AnswerRouter.Call(id: id, text: text, answer: answer)).whenFailure { _ in
            answer.fail(HeraldError(kind: .connectionLost, message: "heraldd closed the connection before \(method) was sent"))
        }
        do {
            return try await answer.futureResult.get()
        } catch let error as HeraldError {
            throw error
        } catch {
            throw HeraldError(kind: .connectionLost, message: "\(error)")
        }
    }

    /// A connection ended: calls now connect again, and when the app has subscriptions or
    /// listens to events, the client reconnects at once and repeats its subscribing calls.
    private func connectionEnded(_ channel: any Channel) {
        let ended = state.withLockedValue { state -> Bool in
            guard let current = state.channel, current === channel else { return false }
            state.channel = nil
            let listening = !state.subscriptions.isEmpty || !state.streams.isEmpty || !state.lineStreams.isEmpty
            guard configuration.reconnects, !state.isClosed, state.connecting == nil, listening else { return listening }
            state.connecting = Task { await self.reconnection() }
            return false
        }
        if ended { finishStreams() }
    }

    /// Connects again, waiting ``Configuration/initialDelay`` and doubling up to
    /// ``Configuration/maximumDelay`` between attempts, repeats the subscribing calls on the
    /// new connection before any other call uses it, and tells the event streams (``HeraldEvent/reconnected``).
    private func reconnection() async -> Result<any Channel, HeraldError> {
        var delay = configuration.initialDelay
        var attempts = 0
        var failure = HeraldError(kind: .unreachable, message: "heraldd could not be reached again")
        while !Task.isCancelled, !state.withLockedValue({ $0.isClosed }) {
            if let maximum = configuration.maximumAttempts, attempts >= maximum { break }
            attempts += 1
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, configuration.maximumDelay)
            switch await open() {
            case .failure(let error):
                failure = error
            case .success(let channel):
                do {
                    for subscription in state.withLockedValue({ $0.subscriptions }) {
                        do {
                            _ = try await send(subscription.method, paramsText: subscription.params, on: channel)
                        } catch where error.kind == .answered {
                            // heraldd refuses it now (the app's authorization was revoked, say):
                            // asking again would not change that.
                            state.withLockedValue { $0.subscriptions.removeAll { $0 == subscription } }
                        }
                    }
                } catch {
                    failure = error
                    try? await channel.close()
                    continue
                }
                state.withLockedValue { state in
                    state.connecting = nil
                    state.channel = channel
                }
                publish(.reconnected)
                return .success(channel)
            }
        }
        state.withLockedValue { $0.connecting = nil }
        finishStreams()
        return .failure(failure)
    }
}
