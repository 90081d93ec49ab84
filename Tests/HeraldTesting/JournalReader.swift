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

    package init(pid: Int32) {
        self.pid = pid
    }

    /// Every entry the process wrote so far, oldest first, as the raw `journalctl -o json` text and parsed.
    package func entries(matching matches: [String] = []) throws -> (raw: String, entries: [JSONObject]) {
        let raw = try runCapturingOutput(
            "/usr/bin/journalctl",
            ["-o", "json", "--no-pager", "--all", "_PID=\(pid)"] + matches,
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
