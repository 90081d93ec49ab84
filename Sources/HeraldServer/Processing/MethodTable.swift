import HeraldCore
import HeraldProtocol

/// The methods a server answers, by wire name.
///
/// Registering a `HeraldMethod` ties its name, its params' decoding, the administrator
/// check and its result's encoding together, so a handler sees typed params and returns
/// a typed result; everything a client can get wrong on the way becomes an `RPCError`.
public struct MethodTable: Sendable {
    /// One method as the processor calls it: JSON params in, JSON result and audit out.
    public struct Entry: Sendable {
        public var requiresAdministrator: Bool
        /// The method takes long (seconds, such as `snapshot`): a request for it is
        /// answered on a thread of its own, not on the connection's event loop.
        public var runsOffEventLoop = false
        public var invoke: @Sendable (JSONValue, RequestContext) throws(RPCError) -> (JSONValue, AuditRecord)
    }

    private var entries: [String: Entry] = [:]

    public init() {}

    public var methodNames: [String] { entries.keys.sorted() }

    public func entry(named name: String) -> Entry? {
        entries[name]
    }

    /// Whether `request` (an object, or a batch of them) calls a method that runs off the
    /// event loop.
    func runsOffEventLoop(_ request: JSONValue) -> Bool {
        switch request {
        case .object(let object):
            guard case .string(let name)? = object["method"] else { return false }
            return entries[name]?.runsOffEventLoop ?? false
        case .array(let elements):
            return elements.contains { runsOffEventLoop($0) }
        default:
            return false
        }
    }

    /// Registers `method`, whose handler gets decoded params and returns a typed outcome.
    public mutating func register<Method: HeraldMethod>(
        _ method: Method.Type,
        runsOffEventLoop: Bool = false,
        _ handler: @escaping @Sendable (Method.Params, RequestContext) throws(RPCError) -> MethodOutcome<Method.Result>
    ) {
        let name = Method.name
        let requiresAdministrator = Method.requiresAdministrator
        entries[name] = Entry(requiresAdministrator: requiresAdministrator, runsOffEventLoop: runsOffEventLoop) {
            (params: JSONValue, context: RequestContext) throws(RPCError) -> (JSONValue, AuditRecord) in
            if requiresAdministrator, !context.caller.isAdministrator {
                throw RPCError.permissionDenied(name)
            }
            let decoded = try Method.decodeParams(params)
            let outcome = try handler(decoded, context)
            let encoded: JSONValue
            do {
                encoded = try Method.encodeResult(outcome.result)
            } catch {
                throw RPCError(.internalError, reason: "Herald could not encode the result of \(name): \(error).")
            }
            return (encoded, outcome.audit)
        }
    }
}
