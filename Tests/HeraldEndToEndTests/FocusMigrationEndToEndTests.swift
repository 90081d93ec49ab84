import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// A format 3 snapshot — one host Focus and summary — loaded by the real heraldd: every uid
/// with interactions has that Focus and summary after the start.
@Suite("Focus migration from format 3, end to end", .enabled(if: getuid() == 0, "needs root to donate as another uid"))
struct FocusMigrationEndToEndTests {
    /// The sections of a format 2+ snapshot's payload, in order.
    static func sections(_ bytes: [UInt8]) -> [(name: String, bytes: [UInt8])] {
        var sections: [(name: String, bytes: [UInt8])] = []
        var at = 56
        func varint() -> Int {
            var value = 0
            var shift = 0
            while true {
                let byte = bytes[at]
                at += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        while at < bytes.count {
            let nameLength = varint()
            let name = String(decoding: bytes[at..<at + nameLength], as: UTF8.self)
            at += nameLength
            let length = (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
            at += 8
            sections.append((name, Array(bytes[at..<at + length])))
            at += length
        }
        return sections
    }

    /// `bytes` (a snapshot of format 4 or later) as format 3 wrote it: the host's `focus` and
    /// `summary` sections in place of `focuses` and `summaries`, without the other sections
    /// versions 4 and later added, the notification list as JSON, header resealed.
    static func asFormat3(_ bytes: [UInt8], focus: String, summary: String) -> [UInt8] {
        var payload: [UInt8] = []
        func append(_ name: String, _ section: [UInt8]) {
            var length = name.utf8.count
            repeat {
                payload.append(UInt8(length & 0x7F) | (length > 0x7F ? 0x80 : 0))
                length >>= 7
            } while length > 0
            payload += Array(name.utf8)
            withUnsafeBytes(of: UInt64(section.count).littleEndian) { payload += $0 }
            payload += section
        }
        for (name, section) in sections(bytes) {
            switch name {
            case "focuses", "summaries", "categories", "responses", "authorizationRequests", "removed-notifications", "conversations",
                "focusDigests", "cooldowns", "leading-checksum":
                continue
            case "interactions":
                append(name, section)
                append("focus", Array(focus.utf8))
            case "silenced":
                append(name, section)
                append("summary", Array(summary.utf8))
            case "notification-records":
                // Format 7's binary list; the snapshots this test converts hold no notifications.
                append("notifications", Array(#"{"notifications":[]}"#.utf8))
            default: append(name, section)
            }
        }
        var header = Array(bytes[0..<56])
        header[8] = 3
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { header.replaceSubrange(40..<48, with: $0) }
        withUnsafeBytes(of: SnapshotEndToEndTests.crc32c(payload).littleEndian) { header.replaceSubrange(48..<52, with: $0) }
        withUnsafeBytes(of: SnapshotEndToEndTests.crc32c(Array(header[0..<52])).littleEndian) { header.replaceSubrange(52..<56, with: $0) }
        return header + payload
    }

    static func donation(_ identifier: String) -> String {
        #"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"app":"org.example.chat","interaction":{"identifier":""#
            + identifier
            + #"","direction":"incoming","intent":{"type":"sendMessage","sender":{"handle":{"value":"eve"}},"conversationIdentifier":"c"}}}}"#
    }

    @Test("The host Focus and summary of a format 3 snapshot become each uid's with interactions")
    func migrates() throws {
        let stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-migration-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: stateFolder) }
        let arguments = ["--state-dir", stateFolder.path, "--snapshot-interval", "0"]
        do {
            let first = try FocusPerUIDEndToEndTests.startOpenToEveryone(arguments)
            let donated = try FocusPerUIDEndToEndTests.call(as: 60001, [Self.donation("m1")], socket: first.socketPath)
            #expect(donated.first?[pointer: "/result"] != nil, "\(donated)")
            _ = try first.connect().call("snapshot")
            _ = first.stop()
        }
        let file = stateFolder.appendingPathComponent("state.snapshot")
        let until = Date().addingTimeInterval(3600)
        let focus = #"{"activation":3,"configuration":{"allowMentions":false,"allowRepeatedCalls":true,"allowTimeSensitive":true,"#
            + #""allowedApps":["org.example.pager"],"allowedPeople":[],"name":"Work","until":\#(until.timeIntervalSinceReferenceDate)}}"#
        let summary = #"{"apps":["org.example.news"],"times":[{"hour":18,"minute":30}]}"#
        let format3 = Self.asFormat3(Array(try Data(contentsOf: file)), focus: focus, summary: summary)
        try Data(format3).write(to: file)

        let second = try FocusPerUIDEndToEndTests.startOpenToEveryone(arguments)
        let read = try FocusPerUIDEndToEndTests.call(
            as: 60001,
            [#"{"jsonrpc":"2.0","id":1,"method":"get-focus"}"#, #"{"jsonrpc":"2.0","id":2,"method":"get-summary"}"#],
            socket: second.socketPath
        )
        #expect(read.first?[pointer: "/result/active/name"] == "Work", "\(read)")
        #expect(read.first?[pointer: "/result/active/reason"] == "until", "\(read)")
        #expect(read.first?[pointer: "/result/focuses/0/allowedApps/0"] == "org.example.pager", "\(read)")
        #expect(read.last?[pointer: "/result/apps/0"] == "org.example.news", "\(read)")
        #expect(read.last?[pointer: "/result/times/0"] == "18:30", "\(read)")
        // A uid without interactions has nothing migrated.
        let other = try second.connect().call("get-focus", ["uid": .number(JSONNumber(60002))])
        #expect(other[pointer: "/result/active"] == .null, "\(other)")
        #expect(other[pointer: "/result/focuses"] == .array([]), "\(other)")
    }
}
