import FoundationEssentials
import HeraldProtocol

/// Where heraldctl finds heraldd's socket: `--socket`, else `$HERALD_SOCKET`, else the
/// first that exists of the daemon's own defaults (see heraldd's `--socket`).
enum SocketLocation {
    static func resolve(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let variable = environment["HERALD_SOCKET"], !variable.isEmpty { return variable }
        let candidates = DefaultSocketPaths.candidates(environment: environment)
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.last!
    }
}
