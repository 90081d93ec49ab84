import HeraldCore
import HeraldProtocol

/// The methods a server answers, by wire name.
///
/// Registering a `HeraldMethod` ties its name, its params' decoding, the administrator
/// check and its result's encoding together, so a handler sees typed params and returns
/// a typed result; everything a client can get wrong on the way becomes an `RPCError`,
/// a broken rule (``RuleError``) by ``RPCError/init(_:)``. Who may call a method is checked
/// here, once, from its descriptor's ``MethodAccess``, before the params are read: for an
/// app's method, a verified app's `app` member too.
package struct MethodTable: Sendable {
    /// One method as the processor calls it: JSON params in, the audit out, and the result
    /// appended to the response being written (on an error, what it appended is the
    /// caller's to drop).
    package struct Entry: Sendable {
        package var access: MethodAccess
        package var requiresAdministrator: Bool { access == .administrator }
        package var invoke: @Sendable (JSONNode, RequestContext, inout [UInt8]) throws(RPCError) -> AuditRecord
    }

    private var entries: [String: Entry] = [:]
    /// The methods whose descriptor places them off the event loop — they take long (a full
    /// `list-notifications`, `snapshot`), so a request for one is answered on a thread of
    /// its own — with the descriptor's placement by params. Checked for every request: a
    /// few comparisons, not a second look-up in `entries`.
    private var offEventLoop: [(name: String, placement: @Sendable (JSONNode?) -> MethodPlacement)] = []
    /// The known size of a method's result, in bytes, for those whose result is large
    /// whatever the params (`rpc.discover`): a batch is bounded by them before it runs.
    private var resultSizes: [String: Int] = [:]

    /// Run on every method's params, with the request's context, before they are decoded,
    /// such as the limit on a string's bytes; applies to the methods registered after it
    /// is set.
    package var checkParams: @Sendable (JSONNode, RequestContext) throws(RPCError) -> Void = { _, _ throws(RPCError) in }
    /// Whether an app's methods are refused to callers without a verified app
    /// (`--require-app-identity`); applies to the methods registered after it is set.
    package var requireAppIdentity = false
    /// Why the methods that change the state are refused now (error 1011), or nil; applies
    /// to the methods registered after it is set.
    package var changesRefused: @Sendable () -> String? = { nil }
    /// Whether each change is captured for the change log (``PendingChange``); applies to
    /// the methods registered after it is set.
    package var capturesChanges = false
    /// Whether results are written into the response; applies to the methods registered
    /// after it is set.
    package var writesResults = true
    /// Whether the interactions and notifications are restored: until they are, a request
    /// for a method that needs them (``needsStore(_:)``) waits for them off the event loop.
    package var storeRestore = StoreRestore()
    /// The methods whose descriptor says they need neither interactions nor notifications.
    private var storeFree: Set<String> = []
    /// Whether a change by this caller must first revoke a gateway's standing grants
    /// (``GrantRevocations``): such a request leaves the event loop to wait for it.
    package var mustRevokeGrants: @Sendable (RequestContext) -> Bool = { _ in false }
    /// Revokes them before a change; returns what to run once the change is applied.
    package var revokeGrants: @Sendable (RequestContext) -> (@Sendable () -> Void)? = { _ in nil }
    /// The methods that change the state.
    private var changingMethods: Set<String> = []

    package init() {}

    package var methodNames: [String] { entries.keys.sorted() }

    package func entry(named name: String) -> Entry? {
        entries[name]
    }

    /// The reason of -32601 for `name`: the closest method's name when one is close
    /// ("did you mean `donate`?"), and where the list is.
    func unknownMethodReason(_ name: String) -> String {
        let known = "Herald has no method named \(JSONValue.string(name).compactText)"
        guard let closest = ClosestName.closest(to: name, among: methodNames) else {
            return known + "; rpc.discover lists them all."
        }
        return known + "; did you mean `\(closest)`? rpc.discover lists them all."
    }

    /// Declares that `name` always returns about `bytes` bytes of result.
    package mutating func declareResultSize(_ bytes: Int, for name: String) {
        resultSizes[name] = bytes
    }

    /// The bytes the responses to `elements` will take at least, counting the declared
    /// result sizes and a small envelope for each; only a few dictionary look-ups each.
    func leastResponseBytes(_ elements: [JSONNode]) -> Int {
        var total = 0
        for element in elements {
            total += 40
            if !resultSizes.isEmpty, let name = element[member: "method"]?.stringValue {
                total += resultSizes[name] ?? 0
            }
        }
        return total
    }

    /// Where `request` (an object, or a batch of them) is answered: off the event loop when
    /// it calls a method placed there; a batch goes where its most demanding request does.
    /// Where `request` runs for `context`: off the event loop also when it changes a uid
    /// whose gateway holds standing grants, since the change waits for their revocation.
    func placement(of request: JSONNode, context: RequestContext) -> MethodPlacement {
        let placement = placement(of: request)
        guard placement == .eventLoop, !changingMethods.isEmpty, changes(request), mustRevokeGrants(context) else { return placement }
        return .thread
    }

    /// Whether `request` (or one of its batch) calls a method that changes the state.
    private func changes(_ request: JSONNode) -> Bool {
        switch request.kind {
        case .object:
            guard let method = request[member: "method"]?.stringValue else { return false }
            return changingMethods.contains(method)
        case .array:
            return request.elements.contains { changes($0) }
        default:
            return false
        }
    }

    func placement(of request: JSONNode) -> MethodPlacement {
        guard !offEventLoop.isEmpty else { return .eventLoop }
        switch request.kind {
        case .object:
            guard let method = request[member: "method"],
                let off = offEventLoop.indices.first(where: { method.stringEquals(offEventLoop[$0].name) })
            else { return .eventLoop }
            return offEventLoop[off].placement(request[member: "params"])
        case .array:
            return request.elements.lazy.map { placement(of: $0) }.max() ?? .eventLoop
        default:
            return .eventLoop
        }
    }

    /// Whether `request` (an object, or a batch of them) calls a method that needs the
    /// interactions or notifications (`HeraldMethod.needsStore`); an unknown method needs
    /// nothing, its error is answered at once.
    func needsStore(_ request: JSONNode) -> Bool {
        switch request.kind {
        case .object:
            guard let name = request[member: "method"]?.stringValue, entries[name] != nil else { return false }
            return !storeFree.contains(name)
        case .array:
            return request.elements.contains { needsStore($0) }
        default:
            return false
        }
    }

    /// Where a request built in memory is answered (a test's).
    func placement(of request: JSONValue) -> MethodPlacement {
        placement(of: JSONTape(request).root)
    }

    /// Refuses a caller who may not call method `name` (`access`), and a verified app whose
    /// params name another app: checked before the rest of the params are read.
    static func checkCaller(
        _ caller: Caller, of name: String, _ access: MethodAccess, params: JSONNode, requireAppIdentity: Bool
    ) throws(RPCError) {
        do throws(RuleError) {
            try caller.checkAccess(to: name, access, requireAppIdentity: requireAppIdentity)
        } catch {
            // The request as a whole, so no pointer, as before its params are read.
            var refusal = RPCError(.permissionDenied, reason: error.reason)
            refusal.isRoutineRefusal = error.isRoutineRefusal
            throw refusal
        }
        // Before the rest of the params: another app's request is refused as such,
        // whatever else is wrong with it. An `app` that is no string is the params'
        // reader's to refuse (-32602).
        guard access == .app, caller.app != nil else { return }
        let app = params[member: "app"]
        guard app == nil || app?.stringValue != nil else { return }
        do throws(RuleError) {
            try caller.checkNamedApp(app?.stringValue)
        } catch {
            throw RPCError(error)
        }
    }

    /// Registers `method`, whose handler gets decoded params and returns a typed outcome or
    /// throws a ``RuleError`` (or an `RPCError`); who may call it and where it runs come
    /// from its descriptor.
    package mutating func register<Method: HeraldMethod>(
        _ method: Method.Type,
        _ handler: @escaping @Sendable (Method.Params, RequestContext) throws -> MethodOutcome<Method.Result>
    ) {
        let name = Method.name
        let access = Method.access
        let requireAppIdentity = self.requireAppIdentity
        offEventLoop.removeAll { $0.name == name }
        if Method.placement != .eventLoop { offEventLoop.append((name, { Method.placement(for: $0) })) }
        if Method.needsStore { storeFree.remove(name) } else { storeFree.insert(name) }
        let checkParams = self.checkParams
        let changesRefused: (@Sendable () -> String?)? = Method.changesState ? self.changesRefused : nil
        let captures = Method.changesState && capturesChanges
        let revokeGrants: (@Sendable (RequestContext) -> (@Sendable () -> Void)?)? = Method.changesState ? self.revokeGrants : nil
        if Method.changesState { changingMethods.insert(name) } else { changingMethods.remove(name) }
        let writesResults = self.writesResults
        entries[name] = Entry(access: access) {
            (params: JSONNode, context: RequestContext, output: inout [UInt8]) throws(RPCError) -> AuditRecord in
            let caller = context.caller
            try Self.checkCaller(caller, of: name, access, params: params, requireAppIdentity: requireAppIdentity)
            try checkParams(params, context)
            let decoded = try Method.decodeParams(params)
            // After the client's own mistakes, which are worth fixing either way.
            if let reason = changesRefused?() {
                throw RPCError(.stateNotWritable, reason: reason)
            }
            let grantsBack = revokeGrants?(context)
            defer { grantsBack?() }
            let outcome: MethodOutcome<Method.Result>
            do {
                if captures, !ChangeCapture.isCapturing {
                    let change = PendingChange(method: name, caller: caller, parsedParams: params)
                    outcome = try ChangeCapture.run(change) { try handler(decoded, context) }
                } else {
                    outcome = try handler(decoded, context)
                }
            } catch let error as RuleError {
                throw RPCError(error)
            } catch let error as RPCError {
                throw error
            } catch {
                throw RPCError(.internalError, reason: "Herald could not answer \(name): \(error).")
            }
            guard writesResults else { return outcome.audit }
            do {
                try Method.writeResult(outcome.result, to: &output)
            } catch {
                throw RPCError(.internalError, reason: "Herald could not encode the result of \(name): \(error).")
            }
            return outcome.audit
        }
    }
}
