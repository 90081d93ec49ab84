import Foundation
import Testing

@testable import HeraldSystemd

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
            #expect(output == "priority=6 message=first\npriority=3 message=\"second\\nentry\" herald_method=stats\n")
            #expect(writer.counters.written == 2)
        }
    }
}
