import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HeraldCore
import HeraldProtocol
import HeraldServer
import HeraldSystemd
import Logging
import ServiceLifecycle

/// heraldd's entry: Swift concurrency moves to SwiftNIO's event loops before any task runs
/// on Dispatch's global queues (``EventLoopConcurrency``), then the command runs.
@main
enum HeralddMain {
    static func main() async {
        EventLoopConcurrency.takeOver()
        await Heraldd.main()
    }
}

/// `heraldd`: Herald's daemon. Parses its flags, wires the services, runs them.
struct Heraldd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heraldd",
        abstract: "Herald, a local notification gateway: JSON-RPC 2.0 over a Unix socket.",
        discussion: """
            Under systemd socket activation heraldd serves the socket it is handed (the one \
            named "herald", else the first Unix stream socket) and binds nothing. Otherwise it \
            binds --socket.
            """,
        version: HeraldVersion.string
    )

    @OptionGroup(title: "Listening") var listening: ListeningOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Rules") var rules: RuleOptions
    @OptionGroup(title: "Logging") var logging: LoggingOptions
    @OptionGroup(title: "State") var storage: StorageOptions

    func validate() throws {
        try listening.validate()
        try rules.validate()
        try logging.validate()
        try storage.validate()
    }

    func run() async throws {
        // Past `ulimit -f`, a write should fail with EFBIG (and the snapshot be retried),
        // not kill the daemon.
        signal(SIGXFSZ, SIG_IGN)
        let daemon = try Daemon(listening: listening, limits: limits, rules: rules, logging: logging, storage: storage)
        try await daemon.run()
    }
}
