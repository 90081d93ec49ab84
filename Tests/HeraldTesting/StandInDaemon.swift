import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Unix socket a test listens on in heraldd's place, to speak to a presenter
/// (herald-notify) with presenter lines written by the test: a stand-in for heraldd
/// while heraldd has no presenter events of its own.
package final class StandInDaemon: @unchecked Sendable {
    package let path: String
    private let fd: Int32

    package init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketClient.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        guard withUnixAddress(path, { bind(fd, $0, $1) }) == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw UnixSocketClient.Failure(description: "listen on \(path): \(reason)")
        }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next connection, within `timeout` seconds.
    package func accept(timeout: Double = 20) throws -> UnixSocketClient {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else {
            throw UnixSocketClient.Failure(description: "no connection to \(path) within \(timeout) s")
        }
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { throw UnixSocketClient.Failure(description: "accept: \(String(cString: strerror(errno)))") }
        return UnixSocketClient(adopting: client)
    }

    /// Accepts a presenter and answers its `subscribe-notifications` (checking it is that,
    /// for `uid`) with `result`, or with `error`; then answers the `list-authorization-requests`
    /// a subscribed presenter sends with `waitingRequests` (a JSON array). Returns the
    /// connection and the subscribe request.
    package func acceptPresenter(uid: UInt32 = getuid(), error: String? = nil, waitingRequests: String = "[]") throws -> (UnixSocketClient, [String: Any]) {
        let connection = try accept()
        guard let line = try connection.readLine(timeout: 20),
            let request = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            request["method"] as? String == "subscribe-notifications",
            let id = request["id"] as? Int
        else { throw UnixSocketClient.Failure(description: "the presenter did not subscribe first") }
        let params = request["params"] as? [String: Any]
        guard (params?["uid"] as? NSNumber)?.uint32Value == uid else {
            throw UnixSocketClient.Failure(description: "the presenter subscribed with \(String(describing: params)), not uid \(uid)")
        }
        if let error {
            try connection.send(#"{"jsonrpc":"2.0","id":\#(id),"error":\#(error)}"# + "\n")
        } else {
            try connection.send(#"{"jsonrpc":"2.0","id":\#(id),"result":{}}"# + "\n")
            guard let line = try connection.readLine(timeout: 20),
                let list = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                list["method"] as? String == "list-authorization-requests",
                ((list["params"] as? [String: Any])?["uid"] as? NSNumber)?.uint32Value == uid,
                let listID = list["id"] as? Int
            else { throw UnixSocketClient.Failure(description: "the presenter did not list its uid's waiting authorization requests after subscribing") }
            try connection.send(#"{"jsonrpc":"2.0","id":\#(listID),"result":{"requests":\#(waitingRequests)}}"# + "\n")
        }
        return (connection, request)
    }
}
