import Foundation
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Until when this person's notifications were presented: the `since` of the next
/// `subscribe-notifications`, so that what heraldd delivered while no herald-notify was
/// subscribed (stopped, or heraldd restarting) is shown once when it next subscribes.
///
/// Kept in `$XDG_STATE_HOME/herald-notify/presented-until` (default `~/.local/state`), one
/// RFC 3339 line, written at each delivered notification, at each loss of heraldd and at
/// exit. heraldd is on the same machine, so its `deliveredAt` and this clock are one clock.
final class PresentedUntil {
    let path: String?
    private(set) var date: Date?

    init(environment: [String: String]) {
        var folder: String?
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = home + "/.local/state"
        }
        if let folder {
            path = folder + "/herald-notify/presented-until"
            let text = (try? String(contentsOfFile: path!, encoding: .utf8)) ?? ""
            date = RFC3339.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            path = nil
            Log.info("neither XDG_STATE_HOME nor HOME is set: what is delivered while herald-notify is stopped is not shown at its start")
        }
    }

    /// Records that everything delivered until `date` was presented (never moving back).
    func record(_ date: Date) {
        if let known = self.date, known >= date { return }
        self.date = date
        guard let path else { return }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".\(getpid())"
        do {
            try Data((RFC3339.format(date) + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            unlink(temporary)
            Log.info("cannot write \(path): \(error)")
        }
    }
}
