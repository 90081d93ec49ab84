import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Network namespaces for a test (`ip netns`): one for the broker, one per host, each host
/// joined to the broker's by a veth pair of its own (10.47.<n>.2 at the host, 10.47.<n>.1
/// at the broker), so that a host's link can be cut and restored alone. Deleted with the
/// value; needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN).
package final class NetworkNamespaces: @unchecked Sendable {
    package static let ip = "/usr/sbin/ip"
    package let broker: String
    package let hosts: [String]
    private let tag: String

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Whether this test may make namespaces here, and if not why (for the skip's reason).
    package static let unavailableReason: String? = {
        guard getuid() == 0 else { return "needs root to make network namespaces (ip netns)" }
        guard FileManager.default.isExecutableFile(atPath: ip) else { return "needs iproute2's ip" }
        let name = "herald-probe-\(getpid())"
        guard (try? run([ip, "netns", "add", name])) == true else { return "ip netns add is not permitted here" }
        _ = try? run([ip, "netns", "del", name])
        return nil
    }()

    /// The broker's namespace and `hostCount` hosts' namespaces, linked and up.
    package init(hostCount: Int) throws {
        let tag = String(UUID().uuidString.prefix(6)).lowercased()
        self.tag = tag
        broker = "herald-\(tag)-broker"
        hosts = (0..<hostCount).map { "herald-\(tag)-host\($0)" }
        try Self.check([Self.ip, "netns", "add", broker])
        try Self.check([Self.ip, "-n", broker, "link", "set", "lo", "up"])
        for (index, host) in hosts.enumerated() {
            try Self.check([Self.ip, "netns", "add", host])
            try Self.check([Self.ip, "-n", host, "link", "set", "lo", "up"])
            let (hostEnd, brokerEnd) = ("h\(tag)\(index)", "b\(tag)\(index)")
            try Self.check([Self.ip, "-n", host, "link", "add", hostEnd, "type", "veth", "peer", "name", brokerEnd, "netns", broker])
            try Self.check([Self.ip, "-n", host, "addr", "add", "\(hostAddress(index))/24", "dev", hostEnd])
            try Self.check([Self.ip, "-n", broker, "addr", "add", "\(brokerAddress(index))/24", "dev", brokerEnd])
            try Self.check([Self.ip, "-n", host, "link", "set", hostEnd, "up"])
            try Self.check([Self.ip, "-n", broker, "link", "set", brokerEnd, "up"])
        }
    }

    deinit {
        for name in [broker] + hosts { _ = try? Self.run([Self.ip, "netns", "del", name]) }
    }

    package func hostAddress(_ index: Int) -> String { "10.47.\(index + 1).2" }
    /// The broker's address as host `index` reaches it.
    package func brokerAddress(_ index: Int) -> String { "10.47.\(index + 1).1" }

    /// The command prefix that runs a program in namespace `name`.
    package static func exec(_ name: String) -> [String] { [ip, "netns", "exec", name] }

    /// Cuts (`up: false`) or restores host `index`'s link to the broker, at the host's end:
    /// its route to the broker goes with it, so the host learns at once that it cannot
    /// reach it, while the broker hears nothing more (it notices by the keepalive).
    package func setLink(_ index: Int, up: Bool) throws {
        try Self.check([Self.ip, "-n", hosts[index], "link", "set", "h\(tag)\(index)", up ? "up" : "down"])
    }

    static func run(_ arguments: [String]) throws -> Bool {
        let process = try ChildProcess(arguments[0], Array(arguments.dropFirst()))
        return process.waitForExit(timeout: 20) == 0
    }

    static func check(_ arguments: [String]) throws {
        guard try run(arguments) else { throw Failure(description: "\(arguments.joined(separator: " ")) failed") }
    }
}
