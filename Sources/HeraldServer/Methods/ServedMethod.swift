import HeraldCore
import HeraldProtocol

/// A method as the server answers it: its descriptor (`HeraldMethod`: name, params, result,
/// who may call it, where it runs, journal ids) and its handler.
///
/// Each method's handler is in a file of this folder named after it; the method table
/// registers every method `HeraldMethods.all` lists through this protocol, so a method is
/// listed once, and one without a handler stops the server at its start (and fails
/// `MethodDescriptorTests`).
protocol ServedMethod: HeraldMethod {
    /// Answers one request: params to a Core call to a result and its audit record. Throws
    /// a ``RuleError`` for a broken rule, an `RPCError` for what the protocol refuses.
    static func handle(_ params: Params, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<Result>

    /// The size in bytes of a result that is large whatever the params (`rpc.discover`),
    /// so that a batch is bounded before it runs; nil for most methods.
    static func resultSize(_ services: MethodServices) -> Int?

    /// Registers the method in `table`. A requirement, so that the table, which reaches
    /// each method through `HeraldMethods.all`, calls a registration compiled for the
    /// method's own types: a handler registered generically from the list would look its
    /// types' metadata up on every call.
    static func register(in table: inout MethodTable, _ services: MethodServices)
}

extension ServedMethod {
    static func resultSize(_ services: MethodServices) -> Int? { nil }

    static func register(in table: inout MethodTable, _ services: MethodServices) {
        table.register(Self.self) { params, context in try handle(params, context, services) }
        if let bytes = resultSize(services) { table.declareResultSize(bytes, for: name) }
    }
}

/// What a handler needs beyond its params: the environment and the connections it tells.
struct MethodServices: Sendable {
    var environment: MethodEnvironment
    var subscriptions: FocusSubscriptions
    var presenters: NotificationPresenters
    var responses: ResponseSubscriptions
    var holds: FocusHolds
    /// The revocations of gateways' standing grants that changes wait for.
    var grants = GrantRevocations()

    var state: SharedState { environment.state }
    var clock: any HeraldClock { environment.clock }
}

extension MethodTable {
    /// Every method Herald serves: each one `HeraldMethods.all` lists, with its handler.
    static func herald(
        _ environment: MethodEnvironment, subscriptions: FocusSubscriptions,
        presenters: NotificationPresenters = NotificationPresenters(registry: ConnectionRegistry()),
        responses: ResponseSubscriptions = ResponseSubscriptions(registry: ConnectionRegistry()),
        holds: FocusHolds = FocusHolds(registry: ConnectionRegistry()),
        grants: GrantRevocations = GrantRevocations()
    ) -> MethodTable {
        var table = MethodTable()
        let maxStringBytes = environment.maxStringBytes
        let stringsRefused = environment.stringsRefused
        table.checkParams = { params, context throws(RPCError) in
            // A string's UTF-8 is never longer than the JSON that writes it (an escape only
            // shortens), so a text of at most maxStringBytes bytes needs no walk.
            if let textBytes = context.textByteCount, textBytes <= maxStringBytes { return }
            if let error = RPCError.stringTooLong(in: params, maxBytes: maxStringBytes) {
                stringsRefused.withLockedValue { $0 += 1 }
                throw error
            }
        }
        table.requireAppIdentity = environment.requireAppIdentity
        table.changesRefused = environment.changesRefused
        table.capturesChanges = environment.capturesChanges
        table.writesResults = environment.writesResults
        table.storeRestore = environment.state.storeRestore
        let services = MethodServices(
            environment: environment, subscriptions: subscriptions, presenters: presenters, responses: responses, holds: holds,
            grants: grants)
        let state = environment.state
        table.mustRevokeGrants = { context in grants.mustRevoke(context, state: state) }
        table.revokeGrants = { context in grants.revoke(before: context, state: state, presenters: presenters) }
        for method in HeraldMethods.all {
            guard let served = method as? any ServedMethod.Type else {
                preconditionFailure(
                    "\(method.name) has no handler: add an extension of \(method) to ServedMethod in Sources/HeraldServer/Methods.")
            }
            served.register(in: &table, services)
        }
        return table
    }
}

extension RequestProcessor {
    /// The processor heraldd runs, on `environment`'s state, with no connection to
    /// subscribe or present to: for a request's whole path measured in one thread
    /// (`herald-bench request-path`).
    package static func herald(_ environment: MethodEnvironment, limits: RequestLimits, recorder: any ResultRecorder) -> RequestProcessor {
        RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
            limits: limits,
            statistics: environment.statistics,
            recorder: recorder
        )
    }
}
