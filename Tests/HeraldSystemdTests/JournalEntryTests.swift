import Testing

@testable import HeraldSystemd

extension SystemdTests {
    @Suite("JournalEntry and field names")
    struct JournalEntryTests {
        @Test(arguments: ["MESSAGE", "HERALD_METHOD", "A", "X1_2", "CODE_LINE", String(repeating: "A", count: 64)])
        func acceptsValidNames(_ name: String) throws {
            let field = try JournalField(name: name, value: "v")
            #expect(field.name == name)
        }

        @Test(arguments: [
            ("", "empty"), ("_PID", "reserved"), ("1ABC", "digit"), ("message", "uppercase"),
            ("HERALD-METHOD", "uppercase"), ("HÉRALD", "uppercase"), ("A B", "uppercase"),
            (String(repeating: "A", count: 65), "at most"),
        ])
        func rejectsInvalidNames(_ name: String, reasonContains: String) {
            #expect {
                try JournalField.validate(name: name)
            } throws: { error in
                let error = error as? JournalFieldNameError
                return error?.name == name && error?.reason.contains(reasonContains) == true
            }
        }

        @Test func sanitizesMetadataKeys() {
            #expect(JournalField.sanitizedName("request-id", prefix: "HERALD_") == "HERALD_REQUEST_ID")
            #expect(JournalField.sanitizedName("error.message", prefix: "HERALD_") == "HERALD_ERROR_MESSAGE")
            #expect(JournalField.sanitizedName("Ünïcode9", prefix: "HERALD_") == "HERALD___N__CODE9")
            let long = JournalField.sanitizedName(String(repeating: "k", count: 100), prefix: "HERALD_")
            #expect(long.utf8.count == JournalField.maximumNameLength)
            #expect((try? JournalField.validate(name: long)) != nil)
        }

        @Test func convenienceInitKeepsOrderAndNewlines() throws {
            let entry = try JournalEntry(
                message: "donate ok\nsecond line",
                priority: .info,
                fields: ["HERALD_METHOD": "donate", "HERALD_METHOD": "again"]
            )
            #expect(entry.fields.map(\.name) == ["PRIORITY", "MESSAGE", "HERALD_METHOD", "HERALD_METHOD"])
            #expect(entry["PRIORITY"] == "6")
            #expect(entry["MESSAGE"] == "donate ok\nsecond line")
            #expect(entry["HERALD_METHOD"] == "donate")
            #expect(entry.contains(name: "HERALD_METHOD"))
            #expect(!entry.contains(name: "HERALD"))
            #expect(
                String(decoding: entry.storage, as: UTF8.self)
                    == "PRIORITY=6MESSAGE=donate ok\nsecond lineHERALD_METHOD=donateHERALD_METHOD=again")
        }

        @Test func convenienceInitRejectsBadFieldNames() {
            #expect(throws: JournalFieldNameError.self) {
                try JournalEntry(message: "m", priority: .info, fields: ["bad": "x"])
            }
        }

        @Test func appendChecksNames() throws {
            var entry = JournalEntry()
            try entry.append(name: "HERALD_X", value: "=value=")
            #expect(throws: JournalFieldNameError.self) { try entry.append(name: "_X", value: "") }
            #expect(entry.fields == [try JournalField(name: "HERALD_X", value: "=value=")])
        }
    }
}
