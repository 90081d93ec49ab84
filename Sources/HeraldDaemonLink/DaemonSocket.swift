import Foundation
import HeraldProtocol

/// Which socket a person's own client (herald-notify, herald-sync) reaches heraldd on.
package enum DaemonSocket {
    /// `--socket`, else `$HERALD_SOCKET`, else the first that exists of heraldd's defaults,
    /// asked again at each attempt (a socket-activated heraldd's socket may appear later).
    package static func path(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let variable = environment["HERALD_SOCKET"], !variable.isEmpty { return variable }
        let candidates = DefaultSocketPaths.candidates(environment: environment)
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.last!
    }
}
