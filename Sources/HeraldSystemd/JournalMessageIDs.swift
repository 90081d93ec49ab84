/// The `MESSAGE_ID`s of heraldd's journal entries, one for each outcome an operator may
/// want to find with `journalctl MESSAGE_ID=…`.
///
/// Fixed random 128-bit ids; `Units/herald.catalog` explains each of them, and a test checks
/// that the two agree. Never change an id once released: operators' queries name them.
public enum JournalMessageID {
    /// The journal writer's queue was full and entries were dropped; `HERALD_DROPPED` says how many.
    public static let droppedEntries = "0b0c9b2c1d8e4f6aa3b1f1e2d3c4b5a6"
    /// A request was not valid JSON (JSON-RPC -32700); method "*".
    public static let parseError = "0844b92e0b6143c2aeb64a9c6a7b1f26"
    /// A request was JSON but not a valid JSON-RPC 2.0 request (-32600).
    public static let invalidRequest = "a6e4adec77a64ac49b7f511389b8a71e"
    /// A request named a method heraldd does not have (-32601); shared by every unknown method.
    public static let methodNotFound = "50e4ba23152b4ac795d928baf76dc55b"
    /// heraldd failed while handling a request, through no fault of the client (-32603).
    public static let internalError = "6384cb47c0784d159fac6340871c7bff"
    /// heraldd started and told systemd it is ready.
    public static let daemonStarted = "9b982e1688c74759906d3df869ddc5f7"
    /// heraldd is stopping.
    public static let daemonStopping = "b1f06898e36740e98baa13a47682108f"

    /// The ids of one method's outcomes.
    public struct MethodOutcomes: Sendable, Hashable {
        /// The method returned a result.
        public let ok: String
        /// The method returned an error.
        public let error: String
    }

    /// Each method's outcome ids, by JSON-RPC method name.
    public static let methods: [String: MethodOutcomes] = [
        "rpc.discover": MethodOutcomes(ok: "15a4baa5bd9943679109636d16dbacee", error: "249b0218e0a44d4daa1f90c4badf37cf"),
        "stats": MethodOutcomes(ok: "8b9bd77d524044298fd6f027d9b173b9", error: "8d6a889fe2a048c58bedcb441d96b06f"),
        "donate": MethodOutcomes(ok: "b7952d7964fd42f5b32c641aec601e0d", error: "df614d306e6b4f76ad020186fcf36fa2"),
        "update-content": MethodOutcomes(ok: "afe661ecb1d342169dc1ccd79572fa78", error: "a2a8bc37233241819d22ef54b85b7640"),
        "request-focus": MethodOutcomes(ok: "8c4f6be1eca846229e816323b2b6b8b0", error: "0fd0a2c29e49419cbc354029948fb5ad"),
        "delete-interactions": MethodOutcomes(ok: "a84e32ba3f8941929561b6f5325da147", error: "bb28269acf6d4e2ead79eb08a570c41c"),
        "set-focus": MethodOutcomes(ok: "3720377470f441fa934dfd9467e2b44a", error: "0585a11238234cadbb817bea3f306a23"),
        "set-focus-authorization": MethodOutcomes(ok: "03d3884674f04d4aabfd15a47e6907cb", error: "08d029798d9249e19fe8923a9dcdf565"),
        "set-summary": MethodOutcomes(ok: "ffba532f28144121a67827d949d2e766", error: "fc14d830c41f463daa573c3a1d0739e3"),
        "set-capabilities": MethodOutcomes(ok: "386d30862687470c91b56d36d7415fd0", error: "ddf10de9725942caa9c607686ed4f824"),
        "suggest-people": MethodOutcomes(ok: "6a80e02f4a034ab6bc84dea5a1d76c63", error: "e252e067e21841a6af82264ac3111272"),
        "snapshot": MethodOutcomes(ok: "835cae421b4a47c48b2ef1231ea1e120", error: "b7c6250a9c1544b3aab2884b769dd5dd"),
    ]

    /// The method name logged for a request whose method could not be read (a parse error).
    public static let unreadableMethod = "*"

    /// The id for a request to `method` that succeeded (`ok`) or failed: ``parseError`` for
    /// ``unreadableMethod``, ``methodNotFound`` for a method that is not in ``methods``.
    public static func forMethod(_ method: String, ok: Bool) -> String {
        if method == unreadableMethod { return parseError }
        guard let outcomes = methods[method] else { return methodNotFound }
        return ok ? outcomes.ok : outcomes.error
    }

    /// Every id above, each once.
    public static var all: [String] {
        [droppedEntries, parseError, invalidRequest, methodNotFound, internalError, daemonStarted, daemonStopping]
            + methods.values.flatMap { [$0.ok, $0.error] }
    }
}
