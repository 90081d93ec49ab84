import Foundation

/// Where heraldctl finds heraldd's socket: `--socket`, else `$HERALD_SOCKET`, else the
/// first that exists of the daemon's own defaults (see heraldd's `--socket`).
enum SocketLocation {
    /// heraldd's search order: `$RUNTIME_DIRECTORY/herald.sock`,
    /// `$XDG_RUNTIME_DIR/herald/herald.sock`, `/run/herald/herald.sock`.
    static func defaultCandidates(environment: [String: String]) -> [String] {
        var candidates: [String] = []
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            candidates.append("\(runtime)/herald.sock")
        }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
            candidates.append("\(xdg)/herald/herald.sock")
        }
        candidates.append("/run/herald/herald.sock")
        return candidates
    }

    static func resolve(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let variable = environment["HERALD_SOCKET"], !variable.isEmpty { return variable }
        let candidates = defaultCandidates(environment: environment)
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.last!
    }
}
