import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The real `herald-notify`, built beside heraldd, running in a ``DesktopSession``.
package final class HeraldNotifyProcess: @unchecked Sendable {
    package let process: ChildProcess
    let stderrPath: String

    package static var binaryPath: String {
        URL(fileURLWithPath: HeraldProcess.binaryPath).deletingLastPathComponent().appendingPathComponent("herald-notify").path
    }

    /// `environment` adds to (or replaces in) the session's. The XDG data folders, where
    /// apps' desktop files are looked for, are the session's own (empty) unless named there.
    package init(session: DesktopSession, socket: String, arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        stderrPath = session.folder.appendingPathComponent("herald-notify-\(UUID().uuidString.prefix(8)).log").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        var environment = session.environment
        environment["XDG_DATA_HOME"] = session.folder.appendingPathComponent("data-home").path
        environment["XDG_DATA_DIRS"] = session.folder.appendingPathComponent("data-dirs").path
        environment.merge(extra) { $1 }
        environment.removeValue(forKey: "HERALD_SOCKET")
        process = try ChildProcess(Self.binaryPath, ["--socket", socket] + arguments, environment: environment, standardError: stderrPath)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    /// What it logged so far.
    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until its log holds `text` (at most `timeout` seconds).
    package func waitForLog(containing text: String, timeout: Double = 20) -> Bool {
        waitUntil(timeout: timeout) { stderr.contains(text) }
    }

    /// SIGTERM, and the exit status (nil if it did not exit within `timeout` seconds).
    package func stop(timeout: Double = 10) -> Int32? {
        process.signal(SIGTERM)
        return process.waitForExit(timeout: timeout)
    }
}
