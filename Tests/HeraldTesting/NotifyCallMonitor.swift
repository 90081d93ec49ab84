import Foundation

/// `dbus-monitor` on a ``DesktopSession``'s bus: when each `Notify` call was answered by
/// the notification server — the moment the bubble exists in the server.
package final class NotifyCallMonitor: @unchecked Sendable {
    let process: ChildProcess
    let output: String

    package init(session: DesktopSession) throws {
        output = session.folder.appendingPathComponent("monitor-\(UUID().uuidString.prefix(8)).log").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process = try ChildProcess("/usr/bin/dbus-monitor", ["--session"], environment: session.environment, standardOutput: output)
        // dbus-monitor prints its own NameAcquired signal once it is monitoring.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("NameAcquired") {
            usleep(20_000)
        }
    }

    deinit {
        process.signal(9)
        _ = process.waitForExit(timeout: 10)
    }

    /// The wall-clock times (seconds since 1970) of each answered `Notify` call, in order.
    package func answeredNotifyTimes() -> [Double] {
        answeredNotifyCalls().map(\.answered)
    }

    /// When each answered `Notify` call was made and answered (seconds since 1970), in order.
    package func answeredNotifyCalls() -> [(called: Double, answered: Double)] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        var calls: [String: Double] = [:]
        var times: [(called: Double, answered: Double)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("method ") {
            let fields = Dictionary(
                line.split(separator: " ").compactMap { field -> (String, String)? in
                    let parts = field.split(separator: "=", maxSplits: 1)
                    return parts.count == 2 ? (String(parts[0]), String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: ";"))) : nil
                },
                uniquingKeysWith: { first, _ in first }
            )
            guard let time = fields["time"].flatMap(Double.init) else { continue }
            if line.hasPrefix("method call "), fields["member"] == "Notify", let sender = fields["sender"], let serial = fields["serial"] {
                calls["\(sender)/\(serial)"] = time
            } else if line.hasPrefix("method return "), let destination = fields["destination"], let serial = fields["reply_serial"],
                let called = calls["\(destination)/\(serial)"]
            {
                times.append((called, time))
            }
        }
        return times
    }
}

/// Median and 99th percentile of `values`, for figures.
package func medianAndP99(_ values: [Double]) -> (median: Double, p99: Double) {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return (0, 0) }
    let index = { (fraction: Double) in sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))] }
    return (index(0.5), index(0.99))
}

/// A process's resident memory in KiB (`VmRSS`), or nil once it is gone.
package func residentKiB(pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
}
