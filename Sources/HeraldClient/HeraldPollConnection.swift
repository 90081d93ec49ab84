import Glibc
import HeraldProtocol

/// A connection to heraldd for a program with a `poll` loop of its own: the program polls
/// ``fileDescriptor`` for ``pollEvents`` beside its other descriptors and hands what `poll`
/// said to ``handle(_:)``, which writes the requests waiting, reads the lines that came,
/// runs each answer's handler (matched by `id`) and ``onEvent`` for each notification.
///
/// ```swift
/// let herald = try HeraldPollConnection()
/// herald.onEvent = { event in if case .activeFocusChanged(let change) = event { print(change) } }
/// try herald.send(.getFocus(subscribe: true)) { answer in print(try answer.get().active) }
/// while true {
///     var descriptors = [pollfd(fd: herald.fileDescriptor, events: herald.pollEvents, revents: 0), …]
///     _ = poll(&descriptors, nfds_t(descriptors.count), -1)
///     try herald.handle(descriptors[0].revents)
/// }
/// ```
///
/// It sends the same requests as ``HeraldClient`` (``HeraldRequest``, one per method) and
/// reads the same events, with no thread of its own: everything runs on the thread that
/// calls it, and nothing waits but ``call(_:)``, which the caller asks to wait. A request is
/// queued and written as the socket takes it (``pollEvents`` asks for `POLLOUT` while
/// some is left), since a blocking write could wait forever on a heraldd that waits for
/// its client to read its answers. It does not reconnect: when heraldd closes the
/// connection, the answers still waiting fail with ``HeraldError/Kind/connectionLost``,
/// ``handle(_:)`` throws it, and the program makes a new connection and its subscribing
/// calls again. Not `Sendable`: one thread uses it.
public final class HeraldPollConnection {
    /// The socket to poll; -1 once closed.
    public private(set) var fileDescriptor: Int32
    /// Runs inside ``handle(_:)`` for each notification heraldd sends (a subscription's);
    /// the notification is read into a ``HeraldEvent`` only when this is set.
    public var onEvent: ((HeraldEvent) throws -> Void)?
    /// Runs inside ``handle(_:)`` for each notification, as heraldd wrote it (`method`, `params`).
    package var onNotification: ((String, JSONValue) throws -> Void)?
    /// Runs inside ``handle(_:)`` for each answer to a line of ``sendRendered(count:decoding:_:)``.
    package var onRenderedAnswer: ((RenderedAnswer) throws -> Void)?

    /// Past this much queued and not yet written, ``isCongested``.
    public static let congestionBytes = 256 << 10

    private typealias Answer = (Result<JSONValue, HeraldError>) throws -> Void
    private var waiting: [Int: Answer] = [:]
    // The state read and changed for every line is not checked for exclusive access at
    // run time: one thread uses the connection, and no access to it spans a handler's
    // call. The checks cost a load generator a few percent (docs/performance.md, "The
    // load generator's own cost").
    /// The rendered lines waiting for their answer.
    @exclusivity(unchecked) var rendered = RenderedLines()
    @exclusivity(unchecked) var nextID = 1
    @exclusivity(unchecked) var output: [UInt8] = []
    @exclusivity(unchecked) private var outputStart = 0
    /// A write failed: heraldd is gone, and reading finds the connection's end.
    private var writeFailed = false
    @exclusivity(unchecked) private var input: [UInt8] = []
    /// Where the search for the next line's end goes on: a long line is searched once.
    @exclusivity(unchecked) private var inputScanned = 0
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    /// Connects to heraldd (``HeraldClient/Configuration/socketPath``), waiting at most
    /// ``HeraldClient/Configuration/connectTimeout`` while its listen backlog is full, or
    /// throws ``HeraldError/Kind/unreachable``. The other settings (reconnection, the event
    /// buffer) are the async client's.
    public init(_ configuration: HeraldClient.Configuration = HeraldClient.Configuration()) throws(HeraldError) {
        fileDescriptor = try ClientSocket.connected(to: configuration.socketPath, timeout: configuration.connectTimeout)
        _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) | O_NONBLOCK)
    }

    /// A connection whose ``handle(_:)`` waits in `read` for heraldd's next lines and in
    /// `send` until its requests are written, when `waitsInRead`: for a thread with nothing
    /// else to poll (herald-bench's load), which so makes no `poll` call per read.
    package convenience init(_ configuration: HeraldClient.Configuration, waitsInRead: Bool) throws(HeraldError) {
        try self.init(configuration)
        if waitsInRead { _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) & ~O_NONBLOCK) }
    }

    deinit { close() }

    /// Closes the connection: no handler runs after this, even for lines already read (a
    /// handler may close it).
    public func close() {
        guard fileDescriptor >= 0 else { return }
        Glibc.close(fileDescriptor)
        fileDescriptor = -1
        waiting.removeAll()
        _ = rendered.removeAll()
    }

    /// What to poll ``fileDescriptor`` for: `POLLIN`, and `POLLOUT` while requests wait to be written.
    public var pollEvents: Int16 { Int16(POLLIN) | (hasOutput && !writeFailed ? Int16(POLLOUT) : 0) }

    /// Whether requests wait to be written.
    public var hasOutput: Bool { outputStart < output.count }

    /// Whether more than ``congestionBytes`` wait to be written: heraldd is not reading, and a
    /// program that takes work from others (herald-notify's gateway) takes no more for now.
    public var isCongested: Bool { output.count - outputStart > Self.congestionBytes }

    /// How many requests wait for their answer (a rendered line counts once).
    public var answersWaiting: Int { waiting.count + rendered.count }

    /// Queues `request`, writes what the socket takes now, and returns its `id`; `answer`
    /// runs inside a later ``handle(_:)`` with its result, heraldd's error, or
    /// ``HeraldError/Kind/connectionLost`` when the connection ends first.
    @discardableResult
    public func send<Result>(
        _ request: HeraldRequest<Result>, answer: @escaping (Swift.Result<Result, HeraldError>) throws -> Void
    ) throws(HeraldError) -> Int {
        let method = request.method
        return try send(method, paramsText: HeraldClient.paramsText(request.params)) { outcome in
            try answer(
                outcome.flatMap { value in
                    Swift.Result { () throws(HeraldError) in try HeraldClient.reading(Result.self, from: value, of: method) }
                }
            )
        }
    }

    /// Sends `request` and waits on the calling thread for its result, handling whatever
    /// else comes meanwhile (events, other answers): for a program's start, or one with
    /// nothing else to do. Throws heraldd's error, or what a handler run meanwhile threw.
    public func call<Result>(_ request: HeraldRequest<Result>) throws -> Result {
        var outcome: Swift.Result<Result, HeraldError>?
        try send(request) { outcome = $0 }
        while outcome == nil {
            var descriptor = pollfd(fd: fileDescriptor, events: pollEvents, revents: 0)
            if poll(&descriptor, 1, -1) < 0, errno != EINTR {
                throw HeraldError(kind: .connectionLost, message: "poll: \(String(cString: strerror(errno)))")
            }
            try handle(descriptor.revents)
        }
        return try outcome!.get()
    }

    /// Queues a request with params written as a JSON object (herald-sync's, which reads
    /// heraldd's JSON as it is); `answer` gets the answer's `result`.
    @discardableResult
    package func send(
        _ method: String, params: JSONObject, answer: @escaping (Result<JSONValue, HeraldError>) throws -> Void
    ) throws(HeraldError) -> Int {
        var text: [UInt8] = []
        JSONValue.object(params).write(to: &text)
        return try send(method, paramsText: text, answer: answer)
    }

    private func send(_ method: String, paramsText: [UInt8], answer: @escaping Answer) throws(HeraldError) -> Int {
        guard fileDescriptor >= 0 else { throw HeraldError(kind: .closed, message: "the connection was closed") }
        let id = nextID
        nextID += 1
        output += #"{"jsonrpc":"2.0","id":\#(id),"method":"#.utf8
        JSONValue.string(method).write(to: &output)
        output += #","params":"#.utf8
        output += paramsText
        output += "}\n".utf8
        waiting[id] = answer
        flush()
        return id
    }

    /// Acts on what `poll` said of ``fileDescriptor`` (its `revents`): writes what is
    /// queued, reads what came, runs a handler for each complete line, and writes what
    /// those handlers queued.
    ///
    /// When heraldd closed the connection, handles the lines it wrote before, closes, runs
    /// the handlers of the answers still waiting with ``HeraldError/Kind/connectionLost``
    /// (in the order sent) and throws it, or the first error those handlers threw. What a
    /// handler of a line throws ends the call; the lines after that one are handled at the
    /// next call (with 0, when the program goes on without another `poll`). A line that is
    /// not a JSON-RPC object throws ``HeraldError/Kind/unreadable`` and is skipped.
    public func handle(_ revents: Int16) throws {
        try handle(revents) { answer in try onRenderedAnswer?(answer) }
    }

    /// ``handle(_:)``, with the answers to rendered lines handed to `renderedAnswer` rather
    /// than to ``onRenderedAnswer``: a closure that is not kept, so a load generator's
    /// counters in it are a function's own variables, not a stored closure's.
    package func handle(_ revents: Int16, renderedAnswer: (RenderedAnswer) throws -> Void) throws {
        guard fileDescriptor >= 0 else { throw HeraldError(kind: .closed, message: "the connection was closed") }
        if revents & Int16(POLLOUT) != 0 { flush() }
        var ended = false
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { ended = read() }
        try handleLines(renderedAnswer)
        if ended, fileDescriptor >= 0 { try connectionEnded(renderedAnswer) }
        if hasOutput, fileDescriptor >= 0 { flush() }
    }

    private func connectionEnded(_ renderedAnswer: (RenderedAnswer) throws -> Void) throws {
        let lost = HeraldError(kind: .connectionLost, message: "heraldd closed the connection before answering")
        let answers = waiting.sorted { $0.key < $1.key }.map(\.value)
        let renderedAnswers = renderedLost(lost)
        close()
        var first: (any Error)?
        for answer in answers {
            do { try answer(.failure(lost)) } catch { first = first ?? error }
        }
        for answer in renderedAnswers {
            do { try renderedAnswer(answer) } catch { first = first ?? error }
        }
        throw first ?? HeraldError(kind: .connectionLost, message: "heraldd closed the connection")
    }

    /// Writes what is queued, as far as the socket takes it now; after a failed write,
    /// nothing more (reading finds the end).
    private func flush() {
        while outputStart < output.count, !writeFailed {
            let written = output[outputStart...].withUnsafeBytes { Glibc.send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            guard written > 0 else {
                writeFailed = true
                break
            }
            outputStart += written
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.count <= 1 << 20)
            outputStart = 0
        } else if outputStart > 1 << 20 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }

    /// Reads what the socket holds now; true when heraldd closed the connection.
    private func read() -> Bool {
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return false }
        guard count > 0 else { return true }
        input += chunk[..<count]
        return false
    }

    /// Runs the handler of each complete line read, removing it before it runs.
    private func handleLines(_ renderedAnswer: (RenderedAnswer) throws -> Void) throws {
        var start = 0
        defer {
            input.removeSubrange(..<start)
            inputScanned = max(0, inputScanned - start)
        }
        while fileDescriptor >= 0, let newline = newline(from: max(start, inputScanned)) {
            let line = input[start..<newline]
            start = newline + 1
            inputScanned = start
            try handleLine(line, renderedAnswer)
        }
        inputScanned = input.count
        guard input.count - start <= LineFrameDecoder.maximumLineBytes else {
            close()
            throw HeraldError(kind: .unreadable, message: "heraldd sent a line longer than \(LineFrameDecoder.maximumLineBytes) bytes")
        }
    }

    /// The index of the first newline read at or after `start`.
    private func newline(from start: Int) -> Int? {
        input.withUnsafeBytes { bytes in
            guard start < bytes.count else { return nil }
            guard let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else { return nil }
            return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
        }
    }

    private func handleLine(_ line: ArraySlice<UInt8>, _ renderedAnswer: (RenderedAnswer) throws -> Void) throws {
        if !rendered.isEmpty, try handleRenderedLine(line, renderedAnswer) { return }
        let message = try? JSONParser.parse(line, maxDepth: AnswerRouter.maximumDepth)
        // Rendered requests' answers not in heraldd's own shape (a floor server's, say).
        if let message, !rendered.isEmpty, let id = (message.member("id") ?? message.arrayValue?.first?.member("id"))?.integer,
            rendered.line(id) != nil
        {
            return try answerRendered(id, bytes: line.count, parsed: message, renderedAnswer)
        }
        guard let message, case .object = message else {
            throw HeraldError(kind: .unreadable, message: "heraldd sent a line that is not a JSON-RPC object")
        }
        if message.member("id") == nil, let method = message.member("method")?.string {
            let params = message.member("params") ?? .null
            try onNotification?(method, params)
            if let onEvent { try onEvent(.reading(method: method, params: params)) }
            return
        }
        // An error heraldd could not tie to a request (`"id": null`) concerns no request of ours.
        guard let id = message.member("id")?.integer, let answer = waiting.removeValue(forKey: id) else { return }
        if let error = message.member("error") {
            try answer(.failure(HeraldError(answer: error)))
        } else {
            try answer(.success(message.member("result") ?? .null))
        }
    }
}
