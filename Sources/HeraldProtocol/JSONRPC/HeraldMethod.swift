/// A JSON-RPC method Herald serves, described in one place: its name, its params and its
/// result, who may call it, whether it leaves the event loop, and its journal message ids —
/// one conforming type per method, in `Methods/`, as sourcekit-lsp does for LSP requests.
/// Dispatch, the journal and the tests that hold `openrpc.json` and the journal catalog to
/// the code all read these descriptors; ``HeraldMethods/all`` lists them.
///
/// Params are by name only. A request without `params` decodes its params from `{}`,
/// so a method whose members are all optional can be called without any.
package protocol HeraldMethod: Sendable {
    associatedtype Params: ParamsReadable & Sendable
    associatedtype Result: Encodable & Sendable

    /// The method's wire name, kebab-case: `donate`, `update-content`.
    static var name: String { get }

    /// Who may call it (``MethodAccess``): anyone, an app for itself, the person, or an
    /// administrator; others get error 1006. Every method says so itself.
    static var access: MethodAccess { get }

    /// Whether a request may change the state that snapshots keep (a donation, a setting,
    /// a response). While heraldd cannot write its state folder, these are refused with
    /// 1011 and the others answered (`--on-write-failure`). Every method says so itself.
    static var changesState: Bool { get }

    /// Where a request for it is answered: on the event loop, or on a thread of its own
    /// because it takes long (milliseconds and more); its connection waits, the others do not.
    static var placement: MethodPlacement { get }

    /// Whether a request reads or changes the interactions or the notifications. At start
    /// heraldd answers before a large snapshot's interactions and notifications are
    /// restored; a request that needs them waits off the event loop until they are (and
    /// until what fell due while heraldd was stopped is done). True unless a method says
    /// otherwise, which only one that touches neither may.
    static var needsStore: Bool { get }

    /// Where a request with these `params` is answered: `placement`, unless the method
    /// knows from them that this request is short (`delete-interactions` of a few identifiers).
    /// Read on the event loop for every request: look at a member, build nothing.
    static func placement(for params: JSONNode?) -> MethodPlacement

    /// The `MESSAGE_ID`s of its result and error entries in the journal. Fixed once
    /// released: operators' queries name them, and `Units/herald.catalog` explains them.
    static var journalMessageIDs: JournalMessageIDs { get }

    /// Reads a request's params (``ParamsReadable``); every failure is an "Invalid params"
    /// error, an unknown member among them.
    static func decodeParams(_ params: JSONNode) throws(RPCError) -> Params

    /// Appends a result to the response being written, as compact JSON text.
    static func writeResult(_ result: Result, to output: inout [UInt8]) throws
}

extension HeraldMethod {
    /// Whether only administrators (uid 0, the daemon's uid, `--admin-group`) may call it.
    package static var requiresAdministrator: Bool { access == .administrator }

    package static var placement: MethodPlacement { .eventLoop }

    package static var needsStore: Bool { true }

    package static func placement(for params: JSONNode?) -> MethodPlacement { placement }

    package static func decodeParams(_ params: JSONNode) throws(RPCError) -> Params {
        try Params.read(params: params)
    }

    /// Reads params built in memory (a test's).
    package static func decodeParams(_ params: JSONValue) throws(RPCError) -> Params {
        try decodeParams(JSONTape(params).root)
    }

    /// A result through its `Encodable` conformance, as a tree, then written.
    package static func writeResult(_ result: Result, to output: inout [UInt8]) throws {
        try JSONValueEncoder().encode(result).write(to: &output)
    }
}

// Where the result takes the direct way, this more specific default is the one a method
// gets, without a dynamic cast on each request: written straight into the response, with
// no `JSONValue` between.

extension HeraldMethod where Result: JSONDirectEncodable {
    package static func writeResult(_ result: Result, to output: inout [UInt8]) {
        result.writeJSON(to: &output)
    }
}

/// The params of a method that takes none (a request may still send `{}`, and nothing else).
package struct NoParams: Codable, Sendable, Hashable, ParamsReadable {
    package init() {}

    package init(reading value: ParamsReader) throws(RPCError) {
        try value.object { _ throws(RPCError) in }
    }
}

/// A method's two journal `MESSAGE_ID`s: 128-bit lowercase hex, one for a result, one for
/// an error.
package struct JournalMessageIDs: Sendable, Hashable {
    package let ok: String
    package let error: String

    package init(ok: String, error: String) {
        self.ok = ok
        self.error = error
    }
}
