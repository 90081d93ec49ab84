import HeraldCore
import HeraldProtocol

/// The requests a client pipelined in one read, answered with one hold of the state's lock.
///
/// A connection takes into its run each text that ``RequestProcessor/joinsRun(_:)`` admits
/// (one request for a method whose call is staged, ``LockedCall``, answered on the event
/// loop) and answers the run before anything else it writes, and at the end of the read.
/// The calls are read and prepared in order, their steps applied in one hold, and their
/// results written after it, in order: answers, journal records and the change log's
/// records are those of the requests answered one by one.
package struct RequestRun {
    /// The most texts a run holds: a longer read is answered in runs of this many.
    static let maximumTexts = 64

    private(set) var texts: [RequestText] = []

    package init() {}

    var isEmpty: Bool { texts.isEmpty }
    var isFull: Bool { texts.count >= Self.maximumTexts }

    mutating func append(_ text: RequestText) {
        texts.append(text)
    }

    /// The texts, leaving the run empty (its array kept for the next read).
    mutating func take() -> [RequestText] {
        defer { texts.removeAll(keepingCapacity: true) }
        return texts
    }
}

extension RequestProcessor {
    /// Whether `text` may join its read's run (``RequestRun``): one request, parsed on the
    /// way, for a staged method answered on the event loop, the store restored.
    package func joinsRun(_ text: RequestText, context: RequestContext) -> Bool {
        guard case .parsed(let tape) = text, methods.storeRestore.isFinished else { return false }
        let root = tape.root
        return methods.isStaged(root) && methods.placement(of: root, context: context) == .eventLoop
    }

    /// One request of a run between its parts.
    private enum RunMember {
        /// No request object: answered with its error.
        case invalid(RequestEnvelope.Invalid)
        /// Refused before its step (bad params, a caller who may not call it).
        case refused(RequestEnvelope, RPCError)
        case staged(RequestEnvelope, any StagedRequest)
    }

    /// Appends the response lines to `texts` (each one ``joinsRun(_:context:)`` admitted),
    /// in order: each call read and prepared, the steps applied in one hold of the state's
    /// lock (more only when a step leaves work that must come before the next: a
    /// donation's retry), then each result written and recorded.
    package func reply(toRun texts: [RequestText], context: RequestContext, appendingTo output: inout [UInt8]) {
        var members: [(member: RunMember, context: RequestContext, start: ContinuousClock.Instant)] = []
        members.reserveCapacity(texts.count)
        var staged: [any StagedRequest] = []
        staged.reserveCapacity(texts.count)
        for text in texts {
            let start = ContinuousClock.now
            let context = context.sized(text.byteCount)
            guard case .parsed(let tape) = text else { preconditionFailure("A run holds parsed texts only.") }
            let member = prepare(tape.root, context: context)
            if case .staged(_, let request) = member { staged.append(request) }
            members.append((member, context, start))
        }
        if let state = methods.state {
            var next = 0
            while next < staged.count {
                next = state.withLock(applying: staged, from: next)
                staged[next - 1].settle()
            }
        }
        for (member, context, start) in members {
            let wrote: Bool
            switch member {
            case .invalid(let invalid):
                refuse(invalid, context: context, since: start, appendingTo: &output)
                wrote = true
            case .refused(let envelope, let error):
                wrote = answer(envelope, context: context, since: start, appendingTo: &output) { _ throws(RPCError) in throw error }
            case .staged(let envelope, let request):
                wrote = answer(envelope, context: context, since: start, appendingTo: &output) { output throws(RPCError) in
                    try request.answer(appendingTo: &output)
                }
            }
            if wrote { output.append(UInt8(ascii: "\n")) }
        }
    }

    /// A run's request read and its call prepared, or what refuses it.
    private func prepare(_ element: JSONNode, context: RequestContext) -> RunMember {
        let envelope: RequestEnvelope
        switch RequestEnvelope.read(element) {
        case .success(let read): envelope = read
        case .failure(let invalid): return .invalid(invalid)
        }
        do throws(RPCError) {
            guard let stage = methods.entry(named: envelope.method)?.stage else {
                throw RPCError(.internalError, reason: "Herald could not answer \(envelope.method): it takes no part in a run.")
            }
            return .staged(envelope, try stage(try Self.paramsObject(envelope), context))
        } catch {
            return .refused(envelope, error)
        }
    }
}
