import Foundation
import HeraldDesktop

/// Apps' `.desktop` files, found through the XDG data folders: each app's name and icon.
///
/// Read again for each bubble (a few small files at most, a few bubbles a second), so an
/// app installed while herald-notify runs is named from its next notification on.
struct DesktopEntries {
    let environment: [String: String]
    let languages: [String]

    init(environment: [String: String]) {
        self.environment = environment
        languages = DesktopEntry.languages(environment: environment)
    }

    /// `app`'s entry: the first of its candidate files that exists, nil when none does or
    /// that one is hidden (a user's hidden copy hides the system's, as the specification says).
    func entry(for app: String) -> DesktopEntry? {
        for path in DesktopEntry.candidatePaths(for: app, environment: environment) {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return DesktopEntry(id: app, contents: String(decoding: data, as: UTF8.self), languages: languages)
        }
        return nil
    }
}
