import Foundation
import Logging
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    /// Writes through a real journald and reads the entries back with `journalctl -o json`.
    /// Needs journald running: `scripts/ensure-journald.sh` starts one in a container.
    @Suite(
        "real journald",
        .enabled(
            if: LogTarget.journalSocketExists(),
            "no journald: /run/systemd/journal/socket is missing (run scripts/ensure-journald.sh)"
        )
    )
    struct JournaldTests {
        @Test func entryRoundTripsThroughJournald() throws {
            let marker = UUID().uuidString
            let writer = JournalWriter(target: .journal, capacity: 16, syslogIdentifier: "herald-test")
            defer { writer.shutdown() }
            let entry = try JournalEntry(
                message: "donate ok\nsecond line with \"quotes\" and = signs",
                priority: .notice,
                fields: [
                    "HERALD_TEST_MARKER": marker,
                    "HERALD_METHOD": "donate",
                    "MESSAGE_ID": "b7952d7964fd42f5b32c641aec601e0d",  // donate's result id
                    "HERALD_EMPTY": "",
                    "HERALD_UNICODE": "Fokus → ✓",
                ]
            )
            writer.submit(entry)
            #expect(writer.flush(timeout: .seconds(5)))
            #expect(writer.counters == JournalWriterCounters(written: 1, dropped: 0, failed: 0, dropReports: 0))

            let record = try #require(try Self.readBack(marker: marker).first)
            for field in entry.fields {
                #expect(record[field.name] == field.value, "field \(field.name)")
            }
            #expect(record["SYSLOG_IDENTIFIER"] == "herald-test", "added by the writer")
            #expect(record["_TRANSPORT"] == "journal")
            #expect(record["_PID"] == String(getpid()))
        }

        /// Larger than any datagram the kernel takes here (twice `net.core.wmem_max`, the
        /// largest send buffer), an entry reaches journald through libsystemd's memfd.
        @Test func anEntryLargerThanADatagramRoundTripsThroughJournald() throws {
            let marker = UUID().uuidString
            let writer = JournalWriter(target: .journal, capacity: 16, syslogIdentifier: "herald-test")
            defer { writer.shutdown() }
            let sendBufferLimit = try #require(Int(try String(contentsOfFile: "/proc/sys/net/core/wmem_max", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            let large = String(repeating: "0123456789abcdef", count: sendBufferLimit * 2 / 16 + 65536)
            writer.submit(try JournalEntry(message: "large", priority: .info, fields: ["HERALD_TEST_MARKER": marker, "HERALD_LARGE": large]))
            writer.submit(try JournalEntry(message: "after", priority: .info, fields: ["HERALD_TEST_MARKER": marker]))
            #expect(writer.flush(timeout: .seconds(10)))
            #expect(writer.counters == JournalWriterCounters(written: 2, dropped: 0, failed: 0, dropReports: 0))

            let records = try Self.readBack(marker: marker, count: 2, all: true)
            #expect(records.map { $0["MESSAGE"] } == ["large", "after"])
            #expect(records.first?["HERALD_LARGE"]?.count == large.utf8.count)
        }

        @Test func logHandlerRecordsRoundTripThroughJournald() throws {
            let marker = UUID().uuidString
            let writer = JournalWriter(target: .journal, capacity: 16)
            defer { writer.shutdown() }
            let logger = Logger(label: "herald.test") { label in
                JournalLogHandler(label: label, writer: writer, metadataProvider: nil)
            }
            let line: UInt = #line + 1
            logger.error("it failed", metadata: ["test-marker": "\(marker)", "method": "stats"])
            #expect(writer.flush(timeout: .seconds(5)))

            let record = try #require(try Self.readBack(marker: marker).first)
            #expect(record["MESSAGE"] == "it failed")
            #expect(record["PRIORITY"] == "3")
            #expect(record["SYSLOG_IDENTIFIER"] == "heraldd")
            #expect(record["HERALD_METHOD"] == "stats")
            #expect(record["HERALD_LOGGER"] == "herald.test")
            #expect(record["CODE_FILE"]?.hasSuffix("JournaldTests.swift") == true)
            #expect(record["CODE_LINE"] == String(line))
            #expect(record["CODE_FUNC"] == "logHandlerRecordsRoundTripThroughJournald()")
        }

        /// The entries with `HERALD_TEST_MARKER=marker`, as field name → value; retries for
        /// up to 3 s, since journald stores entries a moment after accepting them.
        /// Waits for `count` of them; `all` prints fields over 4,096 bytes too.
        static func readBack(marker: String, count: Int = 1, all: Bool = false) throws -> [[String: String]] {
            let deadline = Date().addingTimeInterval(3)
            while true {
                let records = try journalctl(["--no-pager", "-o", "json"] + (all ? ["--all"] : []) + ["HERALD_TEST_MARKER=\(marker)"])
                if records.count >= count || Date() > deadline {
                    return records
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }

        static func journalctl(_ arguments: [String]) throws -> [[String: String]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/journalctl")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return try data.split(separator: UInt8(ascii: "\n")).map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
                return object.compactMapValues(Self.text)
            }
        }

        /// journalctl writes a value as a JSON string, or as an array of bytes when it is
        /// not printable UTF-8.
        static func text(_ value: Any) -> String? {
            if let string = value as? String {
                return string
            }
            if let bytes = value as? [Int] {
                return String(decoding: bytes.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
            }
            return nil
        }
    }
}
