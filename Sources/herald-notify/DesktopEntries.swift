import Foundation
import HeraldDesktop

/// Apps' `.desktop` files, found through the XDG data folders: each app's name and icon.
///
/// Each app's is read at most every ``freshness`` (a burst of one app's notifications reads
/// its file once), so an app installed while herald-notify runs is named within seconds.
final class DesktopEntries {
    let environment: [String: String]
    let languages: [String]
    private var read: [String: (entry: DesktopEntry?, at: ContinuousClock.Instant)] = [:]
    static let freshness: Duration = .seconds(10)
    static let maximumKept = 256

    init(environment: [String: String]) {
        self.environment = environment
        languages = DesktopEntry.languages(environment: environment)
    }

    /// `app`'s entry: the first of its candidate files that exists, nil when none does or
    /// that one is hidden (a user's hidden copy hides the system's, as the specification says).
    func entry(for app: String) -> DesktopEntry? {
        let now = ContinuousClock.now
        if let known = read[app], now - known.at < Self.freshness { return known.entry }
        if read.count >= Self.maximumKept { read.removeAll() }
        let entry = readEntry(for: app)
        read[app] = (entry, now)
        return entry
    }

    private func readEntry(for app: String) -> DesktopEntry? {
        for path in DesktopEntry.candidatePaths(for: app, environment: environment) {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return DesktopEntry(id: app, contents: String(decoding: data, as: UTF8.self), languages: languages)
        }
        return nil
    }
}
