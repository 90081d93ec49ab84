import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// Snapshots of format version 4 written before Storage had records of its own (through
/// Foundation's `JSONEncoder` and the wire types' `Codable`) still load, and what Storage
/// writes now is the same format: the JSON of its records, by member names it fixes.
@Suite("Snapshot format version 4 and Storage's records")
struct FormatVersion4Tests {
    typealias F = SnapshotFixtures

    /// `json` read by Foundation (an oracle independent of Herald's parser), with a client's
    /// objects written as `"\u{0}members"` pairs made plain, as inspection now shows them,
    /// and times to the second: the fixtures' builds printed no milliseconds.
    static func plain(_ json: String) throws -> NSDictionary {
        func plain(_ value: Any) -> Any {
            if let text = value as? String, text.count == 24, text.hasSuffix("Z"), RFC3339.parse(text) != nil {
                return String(text.prefix(19)) + "Z"
            }
            if let object = value as? [String: Any] {
                if object.count == 1, let pairs = object["\u{0}members"] as? [[Any]] {
                    return Dictionary(pairs.map { ($0[0] as! String, plain($0[1])) }, uniquingKeysWith: { $1 })
                }
                return object.mapValues(plain)
            }
            if let array = value as? [Any] { return array.map(plain) }
            return value
        }
        return plain(try JSONSerialization.jsonObject(with: Data(json.utf8))) as! NSDictionary
    }

    /// The sections a format 4 snapshot cannot have: they restore empty from it.
    static let newerSections = Set(SnapshotPayload.sections.filter { $0.since > 4 }.map { $0.name })

    /// `json`'s members of the sections format 4 had.
    static func version4(_ json: NSDictionary) -> NSDictionary {
        var members = json as! [String: Any]
        for name in newerSections { members[name] = nil }
        return members as NSDictionary
    }

    @Test("A format-4 snapshot Foundation's encoder wrote loads into the state it held")
    func foundationWrittenSnapshotLoads() throws {
        let (header, state) = try SnapshotFile.decode(FormatVersion4Fixture.bytes)
        #expect(header.version == 4)
        #expect(state.interactionCount == 4)
        #expect(state.storedNotifications.count == 4)
        #expect(state.storedPendingResponses.first?.responses.first?.notification.actions?.count == 2)
        // Every piece, as that build's `heraldctl inspect-snapshot --json` printed it.
        #expect(try Self.version4(Self.plain(F.json(state))) == Self.plain(FormatVersion4Fixture.json))
        // A client's JSON comes back in the order the app sent it.
        let answered = try #require(state.storedPendingResponses.first?.responses.first?.notification)
        #expect(answered.content.userInfo?.objectValue?.keys == ["z", "a", "deep"])
    }

    @Test("Written again, it is the same state, in JSON Foundation reads as the same")
    func rewrittenIsTheSameFormat() throws {
        let state = try SnapshotFile.decode(FormatVersion4Fixture.bytes).state
        let again = try F.file(state)
        let restored = try SnapshotFile.decode(again).state
        #expect(try Self.version4(Self.plain(F.json(restored))) == Self.plain(FormatVersion4Fixture.json))
        // Section by section, the JSON reads as what Foundation's encoder wrote: an older
        // heraldd reads what this one writes.
        let old = Dictionary(uniqueKeysWithValues: try F.sections(of: FormatVersion4Fixture.bytes).map { ($0.name, $0.bytes) })
        for section in try F.sections(of: again) where section.name != InteractionsSection.name && !Self.newerSections.contains(section.name) {
            let before = try JSONSerialization.jsonObject(with: Data(try #require(old[section.name]))) as? NSObject
            let now = try JSONSerialization.jsonObject(with: Data(section.bytes)) as? NSObject
            #expect(before == now, "\(section.name)")
        }
    }

    @Test("Every piece comes back as it was, on one thread or many")
    func recordsRoundTrip() throws {
        var state = try F.fullState()
        _ = try state.setNotificationCategories(.init(app: F.app, categories: [CategoriesAndResponsesSectionTests.category]), caller: F.user)
        var content = NotificationContent(title: "Ann", subtitle: "Trip", body: "Lunch? \" \\ / \u{1}", threadIdentifier: "t")
        content.categoryIdentifier = "message"
        content.relevanceScore = 0.1 + 0.2
        content.badge = -3
        content.userInfo = .object(JSONObject([.init(key: "z", value: 1.50), .init(key: "a", value: ["x", nil, true]), .init(key: "z", value: .number(JSONNumber(literal: "1e400")))]))
        content.sound = ["name": "ding", "volume": 0.75]
        for identifier in ["r1", "r2"] {
            _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: identifier, content: content), caller: F.user, now: F.now + 0.001)
        }
        _ = try state.respondToNotification(
            RespondToNotificationParams(app: F.app, identifier: "r1", actionIdentifier: "reply", userText: "Yes"), caller: F.user, now: F.now + 2
        ) { _, _ in false }
        for parallel in [nil, runOnEveryCore] {
            let back = try SnapshotFile.decode(try F.file(state, parallel: parallel)).state
            let sameNotifications = back.storedNotifications == state.storedNotifications
            #expect(sameNotifications)
            #expect(back.storedPendingResponses.map(\.responses) == state.storedPendingResponses.map(\.responses))
            #expect(back.storedCategories.map(\.categories) == state.storedCategories.map(\.categories))
            #expect(back.storedFocuses.uids == state.storedFocuses.uids)
            #expect(try F.json(back) == F.json(state))
            // Member order, duplicate names and number literals of a client's JSON survive.
            let userInfo = try #require(back.storedNotifications.first { $0.notification.identifier == "r2" }?.notification.content.userInfo?.objectValue)
            #expect(userInfo.members == content.userInfo?.objectValue?.members)
        }
    }

    @Test("A notification's record is written by the names Storage fixes")
    func notificationRecordText() throws {
        var notification = HeraldNotification(
            identifier: "n", app: "a", content: NotificationContent(title: "T", userInfo: ["k": [1]]),
            delivery: Delivery(presentation: .alert, sound: true, reasons: [DeliveryReason(code: .delivered, message: "m")]),
            state: .delivered, receivedAt: Date(timeIntervalSinceReferenceDate: 1.5), deliveredAt: Date(timeIntervalSinceReferenceDate: 2)
        )
        notification.categoryOptions = [.customDismissAction]
        var text: [UInt8] = []
        NotificationRecord.json(notification, .snapshot).write(to: &text)
        let expected = #"{"app":"a","categoryOptions":["customDismissAction"],"content":{"title":"T","userInfo":{"\u0000members":[["k",[1]]]}},"#
            + #""deliveredAt":2,"delivery":{"announce":false,"breaksThroughFocus":false,"breaksThroughSummary":false,"bypassesRinger":false,"#
            + #""lightsScreen":false,"presentation":"alert","reasons":[{"code":"delivered","message":"m"}],"sound":true},"identifier":"n","#
            + #""receivedAt":1.5,"state":"delivered"}"#
        #expect(String(decoding: text, as: UTF8.self) == expected)
        let back = try NotificationRecord.read(try RecordReader(try JSONParser.parse(text)))
        #expect(back == notification)
    }

    @Test("A record that is not one names the member at fault")
    func damageNamesTheMember() throws {
        var state = try F.fullState()
        let content = NotificationContent(title: "x")
        for index in 0..<3 {
            _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: "d\(index)", content: content), caller: F.user, now: F.now)
        }
        let file = try F.fileOfFormat6(state)
        let noReceivedAt = try SnapshotPayloadDamageTests.resealed(file) { payload in
            let needle = Array(#""receivedAt":"#.utf8)
            let at = payload.indices.first { payload[$0...].starts(with: needle) }!
            payload.replaceSubrange(at..<(at + needle.count), with: Array(#""receivedAx":"#.utf8))
        }
        let error = SnapshotPayloadDamageTests.refusal(noReceivedAt)
        #expect(error?.code == .undecodable)
        #expect(error?.reason.contains("the notifications section") == true, "\(String(describing: error))")
        #expect(error?.reason.contains("notifications.0.notification.receivedAt: the member is missing.") == true, "\(String(describing: error))")
    }
}
