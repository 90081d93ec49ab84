import Foundation
import Testing

@testable import HeraldSystemd

extension ISO8601DateFormatter {
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

extension SystemdTests {
    @Suite("console target: logfmt")
    struct LogfmtTests {
        @Test func formatsFieldsInOrderWithLowercaseNames() throws {
            let entry = try JournalEntry(
                message: "donate ok 3 interactions",
                priority: .info,
                fields: ["HERALD_METHOD": "donate", "HERALD_MS": "0.25"]
            )
            #expect(Logfmt.line(entry) == "priority=6 message=\"donate ok 3 interactions\" herald_method=donate herald_ms=0.25\n")
        }

        @Test func aTimeLeadsTheLine() throws {
            let entry = try JournalEntry(message: "stopped", priority: .info, fields: [:])
            #expect(Logfmt.line(entry, time: "2026-11-23T09:26:24.289Z") == "time=2026-11-23T09:26:24.289Z priority=6 message=stopped\n")
            let now = Logfmt.now()
            let shape = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/#
            #expect(now.wholeMatch(of: shape) != nil, "\(now)")
            let parsed = try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: now))
            #expect(abs(parsed.timeIntervalSinceNow) < 60)
        }

        @Test(arguments: [
            ("plain", "plain"),
            ("", "\"\""),
            ("a b", "\"a b\""),
            ("k=v", "\"k=v\""),
            ("say \"hi\"", "\"say \\\"hi\\\"\""),
            ("back\\slash", "back\\slash"),
            ("back\\slash and space", "\"back\\\\slash and space\""),
            ("two\nlines", "\"two\\nlines\""),
            ("tab\there", "\"tab\\there\""),
            ("bell\u{7}", "\"bell\\u0007\""),
            ("naïve→ok", "naïve→ok"),
        ])
        func quotesAndEscapesValues(_ value: String, expected: String) {
            var line = ""
            Logfmt.appendValue(value, to: &line)
            #expect(line == expected)
        }

        @Test func consoleBackendWritesOneLinePerEntryToItsDescriptor() throws {
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            defer { close(fds[0]) }
            let writer = JournalWriter(backend: .console(fileDescriptor: fds[1]), capacity: 16)
            writer.submit(try JournalEntry(message: "first", priority: .info))
            writer.submit(try JournalEntry(message: "second\nentry", priority: .error, fields: ["HERALD_METHOD": "stats"]))
            #expect(writer.flush(timeout: .seconds(5)))
            writer.shutdown()
            close(fds[1])
            let output = String(decoding: FileHandle(fileDescriptor: fds[0]).readDataToEndOfFile(), as: UTF8.self)
            // Each line is stamped with the time its batch was written.
            let unstamped = output.split(separator: "\n").map { line in
                line.replacing(#/^time=\S+ /#, with: "")
            }
            #expect(output.split(separator: "\n").allSatisfy { $0.hasPrefix("time=") }, "\(output)")
            #expect(unstamped == ["priority=6 message=first", "priority=3 message=\"second\\nentry\" herald_method=stats"])
            #expect(writer.counters.written == 2)
        }
    }
}
