import HeraldClient
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// heraldctl speaks to heraldd through the client library, each call waiting on the main
/// thread, its failures turned into what a person reads (``CtlFailure``).
extension HeraldClient {
    /// The deepest nesting heraldctl reads in the JSON a person gives it: as deep as
    /// Foundation's reader went.
    static let deepestInput = 512

    /// Connects to `path`, or fails with a message that says why and what to do (exit status 69).
    /// A lost connection is not made again: heraldctl reports it.
    static func ctlConnect(path: String) throws(CtlFailure) -> HeraldClient {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw CtlFailure(.usage, ["heraldctl: the socket path \(path) is longer than a Unix socket address allows (107 bytes)."])
        }
        var configuration = Configuration(socketPath: path)
        configuration.reconnects = false
        do {
            return try connectWaiting(configuration)
        } catch {
            throw CtlFailure.unreachable(path: path, error: error)
        }
    }

    /// Calls `method` and returns its result, throwing a JSON-RPC error as a failure (exit status 1).
    func call(_ method: String, params: JSONValue? = nil) throws(CtlFailure) -> JSONValue {
        do {
            return try callWaiting(method, params: params)
        } catch {
            if error.kind == .answered, let object = error.errorObject { throw CtlFailure.rpc(method: method, error: object) }
            throw lost(error)
        }
    }

    func call(_ method: String, params: [String: JSONValue]) throws(CtlFailure) -> JSONValue {
        try call(method, params: .members(params))
    }

    /// What a person reads when the connection ended or failed under a command.
    func lost(_ error: HeraldError) -> CtlFailure {
        let path = configuration.socketPath
        if error.kind == .connectionLost {
            return CtlFailure(.unavailable, ["heraldctl: heraldd closed the connection on \(path) (it may be stopping)."])
        }
        return CtlFailure(.unavailable, ["heraldctl: \(path): \(error.message)."])
    }
}
