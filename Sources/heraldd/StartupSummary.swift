import Foundation
import HeraldStorage

/// What the start-up line tells an operator about the state: where it lives, which
/// generation was restored and how old it is, and whether the daemon before this one
/// stopped without its final snapshot (then what it acknowledged after that generation,
/// within the crash window, is lost).
struct StartupSummary: CustomStringConvertible {
    var folder: String
    var restored: SnapshotHeader?
    var uncleanPredecessor: Int32?
    var now: Date

    var description: String {
        var parts = ["state in \(folder)"]
        if let restored {
            parts.append(
                "generation \(restored.generation) restored (\(restored.interactions) interaction\(restored.interactions == 1 ? "" : "s"), written \(Self.age(now.timeIntervalSince(restored.createdAt))) ago)"
            )
        } else {
            parts.append("no snapshot yet: starting empty")
        }
        if let pid = uncleanPredecessor {
            parts.append(
                "the previous heraldd (pid \(pid)) did not stop cleanly: what it acknowledged after its last snapshot is lost"
            )
        }
        return parts.joined(separator: "; ")
    }

    /// `42 s`, `7 min`, `3 h 5 min`, `2 d 4 h`: an age a person reads at a glance.
    static func age(_ seconds: TimeInterval) -> String {
        let whole = max(0, Int(seconds.rounded()))
        switch whole {
        case ..<120: return "\(whole) s"
        case ..<7200: return "\(whole / 60) min"
        case ..<172_800: return "\(whole / 3600) h \(whole % 3600 / 60) min"
        default: return "\(whole / 86400) d \(whole % 86400 / 3600) h"
        }
    }
}
