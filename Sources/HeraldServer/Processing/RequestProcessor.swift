import HeraldCore
import HeraldProtocol
import NIOCore

/// Turns one framed JSON text into its response, following JSON-RPC 2.0 to the letter.
///
/// - A single request gets one response object; a notification (no `id` member) gets none.
/// - A batch gets an array of the responses to its requests, in order; an empty batch is
///   one Invalid Request; an all-notification batch gets nothing at all, never `[]`.
/// - Every result, notifications' included, is counted and handed to the recorder.
///
/// The processor does no I/O of its own and runs on the connection's event loop, except
/// what ``reply(to:context:)`` hands back as work for a thread of its own: a text that
/// calls a method whose descriptor places it off the event loop.
package struct RequestProcessor: Sendable {
    package let methods: MethodTable
    package let limits: RequestLimits
    package let statistics: ServerStatistics
    package let recorder: any ResultRecorder

    package init(
        methods: MethodTable,
        limits: RequestLimits,
        statistics: ServerStatistics,
        recorder: any ResultRecorder
    ) {
        self.methods = methods
        self.limits = limits
        self.statistics = statistics
        self.recorder = recorder
    }

    /// How a text is answered: at once, or by work to run off the event loop.
    package enum Reply: Sendable {
        /// Answered: the response line, if one is due, was appended to the output.
        case now
        /// Work that calls a method placed off the event loop, for a thread of that
        /// placement; it returns the response.
        case offEventLoop(MethodPlacement, @Sendable () -> [UInt8]?)
    }

    /// The reply to `text`: answered here, its line appended to `output` (a connection
    /// reuses one array for all its responses), unless it calls a method that takes long.
    package func reply(to text: RequestText, context: RequestContext, appendingTo output: inout [UInt8]) -> Reply {
        let start = ContinuousClock.now
        let context = context.sized(text.byteCount)
        switch parse(text, context: context, since: start) {
        case .failure(let refusal):
            output.append(contentsOf: refusal.response)
            return .now
        case .success(let value):
            let placement = methods.placement(of: value, context: context)
            if !methods.storeRestore.isFinished, methods.needsStore(value) {
                // The store is still restoring at start: wait for it on a thread, not here.
                let restore = methods.storeRestore
                return .offEventLoop(max(placement, .thread)) {
                    restore.wait()
                    return respond(toParsed: value, context: context, since: start)
                }
            }
            guard placement == .eventLoop else {
                return .offEventLoop(placement) { respond(toParsed: value, context: context, since: start) }
            }
            respond(toParsed: value, context: context, since: start, appendingTo: &output)
            return .now
        }
    }

    /// The response to `text` as one compact line ending in `\n`, or nil when nothing is
    /// due; every method runs on the calling thread.
    package func process(text: [UInt8], context: RequestContext) -> [UInt8]? {
        let start = ContinuousClock.now
        let context = context.sized(text.count)
        switch parse(.unparsed(ByteBuffer(bytes: text)), context: context, since: start) {
        case .failure(let refusal): return refusal.response
        case .success(let value):
            if methods.needsStore(value) { methods.storeRestore.wait() }
            return respond(toParsed: value, context: context, since: start)
        }
    }

    /// The error line answering a text refused before any request in it could be read.
    private struct Refusal: Error {
        var response: [UInt8]
    }

    /// The parsed text, with a batch's length checked; or the error line that answers it.
    private func parse(
        _ text: RequestText, context: RequestContext, since start: ContinuousClock.Instant
    )
        -> Result<JSONNode, Refusal>
    {
        let value: JSONNode
        do throws(JSONParseError) {
            switch text {
            case .parsed(let tape):
                value = tape.root
            case .unparsed(let bytes):
                let maxDepth = limits.maxDepth
                value = try bytes.withUnsafeReadableBytes { raw in
                    Result { () throws(JSONParseError) in try JSONTape.parse(raw, maxDepth: maxDepth) }
                }.get().root
            }
        } catch {
            let rpcError =
                error.isDepthExceeded
                ? RPCError(
                    .invalidRequest,
                    reason: "The request nests arrays and objects deeper than \(limits.maxDepth) levels.",
                    extraData: ["limit": .number(JSONNumber(limits.maxDepth))]
                )
                : RPCError(.parseError, reason: error.reason)
            return .failure(Refusal(response: standaloneError(rpcError, context: context, since: start)))
        }
        if value.kind == .array {
            let elements = value.elements
            if elements.isEmpty {
                let error = RPCError(.invalidRequest, reason: "A batch must hold at least one request; this one is empty.")
                return .failure(Refusal(response: standaloneError(error, context: context, since: start)))
            }
            if elements.count > limits.maxBatchLength {
                let error = RPCError(
                    .invalidRequest,
                    reason: "A batch may hold at most \(limits.maxBatchLength) requests; this one holds \(elements.count).",
                    extraData: ["limit": .number(JSONNumber(limits.maxBatchLength))]
                )
                return .failure(Refusal(response: standaloneError(error, context: context, since: start)))
            }
            let least = methods.leastResponseBytes(elements)
            if least > limits.maxResponseBytes {
                statistics.recordRefusedBatch()
                let error = RPCError(
                    .invalidRequest,
                    reason:
                        "The responses to this batch would take at least \(least) bytes, more than the \(limits.maxResponseBytes) a response may take; none of it was run. Send its requests in smaller batches.",
                    extraData: ["limit": .number(JSONNumber(limits.maxResponseBytes))]
                )
                return .failure(Refusal(response: standaloneError(error, context: context, since: start)))
            }
        }
        return .success(value)
    }

    /// The response line to a parsed request or batch, or nil when nothing is due.
    private func respond(
        toParsed value: JSONNode, context: RequestContext, since start: ContinuousClock.Instant
    )
        -> [UInt8]?
    {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        respond(toParsed: value, context: context, since: start, appendingTo: &output)
        return output.isEmpty ? nil : output
    }

    /// Appends the response line to a parsed request or batch to `output`; nothing when
    /// nothing is due.
    private func respond(
        toParsed value: JSONNode, context: RequestContext, since start: ContinuousClock.Instant,
        appendingTo output: inout [UInt8]
    ) {
        switch value.kind {
        case .array:
            let elements = value.elements
            let lineStart = output.count
            output.append(UInt8(ascii: "["))
            output.reserveCapacity(lineStart + elements.count * 64)
            var wroteAny = false
            for element in elements {
                let elementStart = ContinuousClock.now
                // Past the limit, the rest of the batch is not run: each request in it is
                // answered with a short error instead, so the array stays bounded.
                let isOverLimit = output.count - lineStart > limits.maxResponseBytes
                let separator = output.count
                if wroteAny { output.append(UInt8(ascii: ",")) }
                let wrote =
                    isOverLimit
                    ? refuseOverLimit(element, context: context, since: elementStart, appendingTo: &output)
                    : respond(to: element, context: context, since: elementStart, appendingTo: &output)
                if wrote {
                    wroteAny = true
                } else {
                    output.removeSubrange(separator...)
                }
            }
            guard wroteAny else {
                output.removeSubrange(lineStart...)
                return
            }
            output.append(UInt8(ascii: "]"))
            output.append(UInt8(ascii: "\n"))
        default:
            guard respond(to: value, context: context, since: start, appendingTo: &output) else { return }
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// The line answering an error found before any request could be read: a garbage line,
    /// a truncated text, a text over the size limit, a read timeout. Its `id` is null.
    package func standaloneError(_ error: RPCError, context: RequestContext) -> [UInt8] {
        standaloneError(error, context: context, since: .now)
    }

    private func standaloneError(
        _ error: RPCError, context: RequestContext, since start: ContinuousClock.Instant
    )
        -> [UInt8]
    {
        finish(method: nil, id: .null, error: error, audit: AuditRecord(), context: context, since: start)
        var output: [UInt8] = []
        ResponseObject.writeError(id: .null, error: error, to: &output)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// Appends the error answering a request of a batch whose responses already passed
    /// `maxResponseBytes`; the request is not run. Nothing for a notification; returns
    /// whether it wrote a response.
    private func refuseOverLimit(
        _ element: JSONNode, context: RequestContext, since start: ContinuousClock.Instant, appendingTo output: inout [UInt8]
    ) -> Bool {
        let id = element[member: "id"]?.value
        let method = element[member: "method"]?.stringValue
        let error = RPCError(
            .serverBusy,
            reason:
                "The responses before this request in its batch passed the \(limits.maxResponseBytes) bytes a response may take, so it was not run; send it again in a smaller batch.",
            extraData: ["limit": .number(JSONNumber(limits.maxResponseBytes))]
        )
        finish(method: method, id: id, error: error, audit: AuditRecord(), context: context, since: start)
        guard let id else { return false }
        ResponseObject.writeError(id: id, error: error, to: &output)
        return true
    }

    /// Appends the response to one request object (alone or from a batch); nothing for a
    /// notification. Returns whether it wrote a response.
    ///
    /// A result is written by its method straight after the response's opening; a method
    /// that fails has what it wrote dropped, and the error written instead.
    private func respond(
        to element: JSONNode, context: RequestContext, since start: ContinuousClock.Instant, appendingTo output: inout [UInt8]
    ) -> Bool {
        let envelope: RequestEnvelope
        switch RequestEnvelope.read(element) {
        case .success(let read):
            envelope = read
        case .failure(let invalid):
            finish(method: invalid.method, id: invalid.id, error: invalid.error, audit: AuditRecord(), context: context, since: start)
            ResponseObject.writeError(id: invalid.id, error: invalid.error, to: &output)
            return true
        }

        let responseStart = output.count
        do throws(RPCError) {
            guard let entry = methods.entry(named: envelope.method) else {
                throw RPCError(.methodNotFound, reason: methods.unknownMethodReason(envelope.method))
            }
            let params = envelope.params ?? JSONTape.emptyObject.root
            guard params.kind == .object else {
                throw RPCError(
                    .invalidParams,
                    reason: "Herald takes params by name only: send an object, not an array.",
                    pointer: ""
                )
            }
            if let id = envelope.id { ResponseObject.writeResultOpening(id: id, to: &output) }
            let audit = try entry.invoke(params, context, &output)
            finish(
                method: envelope.method, countedAs: envelope.method, id: envelope.id, error: nil, audit: audit, context: context,
                since: start)
            guard envelope.id != nil else {
                // A notification's result is not sent.
                output.removeSubrange(responseStart...)
                return false
            }
            ResponseObject.writeResultClosing(to: &output)
            return true
        } catch {
            output.removeSubrange(responseStart...)
            finish(
                method: envelope.method,
                id: envelope.id,
                error: error,
                audit: AuditRecord(failedParams: envelope.params),
                context: context,
                since: start
            )
            guard let id = envelope.id else { return false }
            ResponseObject.writeError(id: id, error: error, to: &output)
            return true
        }
    }

    /// Counts and records one result, under `countedAs` when the caller already knows the
    /// statistics key (saving a second look-up of the method).
    private func finish(
        method: String?,
        countedAs knownKey: String? = nil,
        id: JSONValue?,
        error: RPCError?,
        audit: AuditRecord,
        context: RequestContext,
        since start: ContinuousClock.Instant
    ) {
        // Only Herald's own method names become keys, so clients cannot grow the table.
        let countedAs: String
        if let knownKey {
            countedAs = knownKey
        } else if let method {
            countedAs = methods.entry(named: method) == nil ? ServerStatistics.unknownMethodKey : method
        } else {
            countedAs = ServerStatistics.invalidRequestKey
        }
        statistics.recordRequest(method: countedAs, failed: error != nil)
        guard recorder.keepsRecords else { return }
        let elapsed = ContinuousClock.now - start
        let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        var record = ResultRecord(
            method: method,
            requestID: id?.compactText,
            outcome: error == nil ? .ok : .error,
            errorCode: error?.code,
            errorPointer: error?.pointer,
            errorLimit: error?.extraData["limit"]?.numberValue?.intValue,
            caller: context.caller,
            durationMicroseconds: UInt64(max(0, microseconds)),
            audit: audit
        )
        record.isRoutineRefusal = error?.isRoutineRefusal ?? false
        recorder.record(record)
    }
}

extension AuditRecord {
    /// What the journal can say about a request that failed, read from its params: which
    /// app, and which interaction (identifiers only, never content). A request that
    /// succeeds is recorded as its method's outcome says instead, so each record is
    /// filled in one place.
    init(failedParams params: JSONNode?) {
        self.init(
            app: params?[member: "app"]?.stringValue.flatMap(auditableAppName),
            interactionIdentifier: (params?[member: "interactionIdentifier"] ?? params?[member: "interaction"]?[member: "identifier"])?
                .stringValue.flatMap(auditableIdentifier)
        )
    }
}

/// An interaction identifier from a failed request, when it is short and printable.
private func auditableIdentifier(_ identifier: String) -> String? {
    guard !identifier.isEmpty, identifier.utf8.count <= 255,
        !identifier.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
    else { return nil }
    return identifier
}

/// The `app` member of a failed request, when it is a well-formed app name, so that the
/// journal can say which app an error belongs to without recording arbitrary text.
private func auditableAppName(_ app: String) -> String? {
    guard !app.isEmpty, app.utf8.count <= 255 else { return nil }
    for byte in app.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            continue
        default:
            return nil
        }
    }
    return app
}
