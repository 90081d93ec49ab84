import FoundationEssentials
import HeraldCore

/// Where Herald keeps its snapshots.
package enum StateFolder {
    /// `$STATE_DIRECTORY` (systemd's `StateDirectory=`), else `$XDG_STATE_HOME/herald`,
    /// else `~/.local/state/herald`.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return String(state)
        }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            return "\(xdg)/herald"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return "\(home)/.local/state/herald"
    }
}
