import Logging
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    @Suite("JournalLogHandler")
    struct JournalLogHandlerTests {
        struct Failure: Error {}

        @Test(arguments: [
            (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ])
        func mapsLevelsToPriorities(_ level: Logger.Level, priority: Int) {
            #expect(JournalLogHandler.priority(for: level).rawValue == priority)
        }

        @Test func turnsARecordIntoAnEntry() {
            let writer = JournalWriter(target: .none, capacity: 4)
            defer { writer.shutdown() }
            var handler = JournalLogHandler(label: "herald.server", writer: writer, metadataProvider: nil)
            handler[metadataKey: "method"] = "donate"
            handler[metadataKey: "request-id"] = "7"
            let event = LogEvent(
                level: .warning,
                message: "slow request\ntook 2 s",
                error: Failure(),
                metadata: ["method": "stats", "caller": .stringConvertible(1000)],
                source: "HeraldServer",
                file: "HeraldServer/Dispatch.swift",
                function: "handle(_:)",
                line: 42
            )
            let entry = handler.entry(for: event)
            #expect(
                entry.fields.map(\.name) == [
                    "PRIORITY", "MESSAGE", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SYSLOG_IDENTIFIER", "HERALD_LOGGER",
                    "HERALD_CALLER", "HERALD_ERROR_MESSAGE", "HERALD_ERROR_TYPE", "HERALD_METHOD", "HERALD_REQUEST_ID",
                ])
            #expect(entry["PRIORITY"] == "4")
            #expect(entry["MESSAGE"] == "slow request\ntook 2 s")
            #expect(entry["CODE_FILE"] == "HeraldServer/Dispatch.swift")
            #expect(entry["CODE_LINE"] == "42")
            #expect(entry["CODE_FUNC"] == "handle(_:)")
            #expect(entry["SYSLOG_IDENTIFIER"] == "heraldd")
            #expect(entry["HERALD_LOGGER"] == "herald.server")
            #expect(entry["HERALD_METHOD"] == "stats", "the record's metadata wins over the handler's")
            #expect(entry["HERALD_REQUEST_ID"] == "7")
            #expect(entry["HERALD_CALLER"] == "1000")
            #expect(entry["HERALD_ERROR_TYPE"]?.hasSuffix("Failure") == true)
        }

        @Test func submitsToTheWriterAndHonoursTheLevel() {
            let writer = JournalWriter(target: .none, capacity: 4)
            defer { writer.shutdown() }
            var logger = Logger(label: "test") { label in JournalLogHandler(label: label, writer: writer, metadataProvider: nil) }
            logger.logLevel = .info
            logger.debug("not written")
            logger.info("written")
            #expect(writer.flush())
            #expect(writer.counters.written == 1)
        }
    }
}
