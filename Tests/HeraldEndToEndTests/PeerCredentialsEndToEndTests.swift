import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// SO_PEERCRED decides who may do what: uid 0 and the daemon's uid are administrators,
/// and so are members of --admin-group; others get 1006 from administrator methods.
@Suite("Peer credentials, end to end", .enabled(if: getuid() == 0, "needs root to connect as another uid"))
struct PeerCredentialsEndToEndTests {
    /// Sends `request` as uid/gid 65534 (nobody) through socat, and returns the response.
    private func callAsNobody(_ request: String, socket: String, groups: String = "--clear-groups") throws -> JSONValue {
        let output = try runCapturingOutput(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", groups, "/usr/bin/socat", "-t", "10", "-", "UNIX-CONNECT:\(socket)"],
            input: request + "\n"
        )
        return try IndependentJSON.parse(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("Another uid gets 1006 from snapshot and its own view from stats; root gets the whole stats")
    func nonAdministrator() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        let denied = try callAsNobody(#"{"jsonrpc":"2.0","id":1,"method":"snapshot"}"#, socket: herald.socketPath)
        #expect(denied[pointer: "/error/code"] == .number(JSONNumber(1006)))
        #expect(denied[pointer: "/error/data/reason"]?.stringValue?.isEmpty == false)
        let own = try callAsNobody(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#, socket: herald.socketPath)
        #expect(own[pointer: "/result/view"] == "person", "\(own)")
        #expect(own[pointer: "/result/methods"] == nil, "\(own)")
        #expect(try herald.connect().call("stats")[pointer: "/result/view"] == "administrator")
    }

    @Test("A member of --admin-group is an administrator")
    func adminGroup() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666", "--admin-group", "65534"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        let allowed = try callAsNobody(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#, socket: herald.socketPath)
        #expect(allowed[pointer: "/result/view"] == "administrator", "\(allowed)")
        #expect(allowed[pointer: "/result/methods"] != nil)
    }
}
