import FoundationEssentials
import HeraldProtocol

/// A hold of a named Focus (`hold-focus`): it keeps the Focus on while the connection that
/// took it stays open, as `systemd-inhibit` keeps a lock while a command runs.
///
/// The server ties a hold to its connection and releases it when the connection closes;
/// Core knows only the hold's identifier. Holds are not in snapshots: a restart closes
/// every connection, so the holds of the heraldd before end as released (issue 45).
struct FocusHold: Sendable, Hashable {
    var id: String
    var name: String
    var reason: String?
    /// The holding process and its command name, from the connection's peer credentials.
    var pid: Int32
    var command: String?
    var since: Date
    /// A choice made by hand (or the Focus's deletion) came after the hold and wins over
    /// it: the hold no longer decides the Focus in effect, and its end changes nothing.
    var overridden = false

    /// The most holds a uid may have at once, overridden ones included: each takes a
    /// connection too, but a client may take many on one connection.
    static let maxPerUID = 16

    var wire: FocusHoldInfo {
        FocusHoldInfo(hold: id, name: name, reason: reason, pid: pid, command: command, since: since, overridden: overridden)
    }
}
