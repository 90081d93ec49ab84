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
/// RFC 3339 line. Each delivered notification moves it on in memory; the file is written a
/// second later at most (a burst is one write, and no write waits on the disk: no fsync),
/// and at once at each loss of heraldd and at exit. The writes run on a queue of their own,
/// so that the loop never waits on the file system on its way to a bubble: a write due a
/// second after one notification comes due about when another arrives, at a steady pace. A crash or power cut may so lose the
/// last second or so: those notifications are shown once more at the next start, never
/// lost. heraldd is on the same machine, so its `deliveredAt` and this clock are one clock.
final class PresentedUntil {
    let path: String?
    private(set) var date: Date?
    /// What the file holds.
    private var written: Date?
    /// When the file is to be written with ``date``; nil when it holds it.
    private var writeDue: ContinuousClock.Instant?
    static let writeDelay: Duration = .seconds(1)
    /// Where the file is written, one write after another.
    private let disk = DispatchQueue(label: "herald-notify.presented-until")

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
            date = RFC3339.parse(text.trimmingWhitespace())
            written = date
        } else {
            path = nil
            Log.info("neither XDG_STATE_HOME nor HOME is set: what is delivered while herald-notify is stopped is not shown at its start")
        }
    }

    /// Records that everything delivered until `date` was presented (never moving back),
    /// to be written within ``writeDelay``.
    func record(_ date: Date) {
        if let known = self.date, known >= date { return }
        self.date = date
        if writeDue == nil { writeDue = .now + Self.writeDelay }
    }

    /// Records `date` and writes the file now.
    func recordNow(_ date: Date) {
        record(date)
        write()
    }

    /// Returns once every write begun has reached the file: at exit.
    func finishWriting() {
        disk.sync {}
    }

    /// How long a `poll` may wait before the file is due; -1 when nothing is.
    var pollTimeoutMilliseconds: Int32 {
        guard let writeDue else { return -1 }
        return writeDue.pollTimeoutMilliseconds()
    }

    /// Writes the file if it is due.
    func writeIfDue() {
        if let writeDue, writeDue <= .now { write() }
    }

    private func write() {
        writeDue = nil
        guard let path, let date, written != date else { return }
        // Taken as written: a failed write is logged, and the next date is written anyway.
        written = date
        disk.async { Self.write(date, to: path) }
    }

    private static func write(_ date: Date, to path: String) {
        do {
            try PrivateFile.replace(path, with: Array((RFC3339.format(date) + "\n").utf8))
        } catch {
            Log.info("\(error)")
        }
    }
}
