import Foundation
import HeraldProtocol

/// Reads a daemon's entries back from the real journal with `journalctl -o json`.
package struct JournalReader {
    /// Whether a journald listens here (`make test` starts one when it can).
    package static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: "/run/systemd/journal/socket")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/journalctl")
    }

    package let pid: Int32
    /// When the process started, in whole seconds since 1970 (rounded down): pids are
    /// reused (pid_max is often 32768), so an earlier process's entries under the same pid
    /// are older than this and left out. Nil when /proc does not say.
    package let since: Int?

    package init(pid: Int32) {
        self.pid = pid
        self.since = Self.startTime(of: pid)
    }

    /// The start of process `pid` in seconds since 1970: the boot time (`btime` of
    /// /proc/stat) plus its start in clock ticks after boot (field 22 of /proc/PID/stat).
    static func startTime(of pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After the name: field 3 (state) is the first, so field 22 is the 20th.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
            let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let bootTime = Double(line.split(separator: " ")[1])
        else { return nil }
        return Int(bootTime + ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Every entry the process wrote so far, oldest first, as the raw `journalctl -o json` text and parsed.
    package func entries(matching matches: [String] = []) throws -> (raw: String, entries: [JSONObject]) {
        let raw = try runCapturingOutput(
            "/usr/bin/journalctl",
            ["-o", "json", "--no-pager", "--all"] + (since.map { ["--since", "@\($0)"] } ?? []) + ["_PID=\(pid)"] + matches,
            input: ""
        )
        let entries = try raw.split(separator: "\n").compactMap { line -> JSONObject? in
            try IndependentJSON.parse(String(line)).objectValue
        }
        return (raw, entries)
    }

    /// Waits (at most `timeout` seconds) until at least `count` entries match, and returns them.
    /// Waits as long as `timeout` only while entries are missing: under `make test` other
    /// tests flood the same journald, which can then take many seconds to catch up.
    package func waitForEntries(count: Int, matching matches: [String] = [], timeout: Double = 60) throws -> [JSONObject] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let found = try entries(matching: matches).entries
            if found.count >= count || Date() > deadline { return found }
            usleep(100_000)
        }
    }
}

extension JSONObject {
    /// A journal field's value as text.
    package func field(_ name: String) -> String? {
        self[name]?.stringValue
    }
}
