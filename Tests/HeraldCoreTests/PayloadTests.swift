import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct PayloadTests {
    typealias F = Fixtures

    @Test func mapsApsOntoContentAndTheRestOntoUserInfo() throws {
        let payload: JSONValue = [
            "aps": [
                "alert": ["title": "T", "subtitle": "S", "body": "B"],
                "interruption-level": "time-sensitive",
                "relevance-score": 0.5,
                "thread-id": "th",
                "category": "cat",
                "sound": "ping.caf",
                "badge": 2,
                "mutable-content": 1,
                "target-content-id": "tc",
            ],
            "chatID": 7,
        ]
        let content = try APNsPayload.content(from: payload)
        #expect(
            content
                == NotificationContent(
                    title: "T",
                    subtitle: "S",
                    body: "B",
                    threadIdentifier: "th",
                    categoryIdentifier: "cat",
                    targetContentIdentifier: "tc",
                    interruptionLevel: .timeSensitive,
                    relevanceScore: 0.5,
                    badge: 2,
                    sound: "ping.caf",
                    userInfo: ["chatID": 7]
                )
        )
    }

    @Test func aStringAlertIsTheBody() throws {
        let content = try APNsPayload.content(from: ["aps": ["alert": "Hi", "mutable-content": 1]])
        #expect(content == NotificationContent(body: "Hi"))
    }

    @Test func withoutMutableContentIs1008() {
        let missing = rpcError { try APNsPayload.content(from: ["aps": ["alert": "Hi"]]) }
        #expect(missing?.code == .notMutable)
        #expect(missing?.pointer == "/payload/aps/mutable-content")
        let zero = rpcError { try APNsPayload.content(from: ["aps": ["alert": "Hi", "mutable-content": 0]]) }
        #expect(zero?.code == .notMutable)
        let noAps = rpcError { try APNsPayload.content(from: ["other": 1]) }
        #expect(noAps?.code == .notMutable)
    }

    @Test func withoutAlertTextIs1008() {
        let error = rpcError { try APNsPayload.content(from: ["aps": ["mutable-content": 1, "badge": 1]]) }
        #expect(error?.code == .notMutable)
        #expect(error?.pointer == "/payload/aps/alert")
        let empty = rpcError { try APNsPayload.content(from: ["aps": ["alert": ["title": ""], "mutable-content": 1]]) }
        #expect(empty?.code == .notMutable)
    }

    @Test func wrongTypesAreInvalidParamsWithPointers() {
        let level = rpcError { try APNsPayload.content(from: ["aps": ["alert": "x", "mutable-content": 1, "interruption-level": "loud"]]) }
        #expect(level?.code == .invalidParams)
        #expect(level?.pointer == "/payload/aps/interruption-level")
        let title = rpcError { try APNsPayload.content(from: ["aps": ["alert": ["title": 3], "mutable-content": 1]]) }
        #expect(title?.pointer == "/payload/aps/alert/title")
        #expect(rpcError { try APNsPayload.content(from: "x") }?.pointer == "/payload")
    }

    @Test func aPayloadBecomesACommunication() throws {
        var state = F.state()
        try state.donate(F.message())
        let payload: JSONValue = ["aps": ["alert": ["title": "x", "body": "Lunch?"], "mutable-content": 1]]
        let outcome = try state.updateContent(
            .init(app: F.app, interactionIdentifier: "m1", payload: payload),
            payloadContent: try APNsPayload.content(from: payload),
            caller: F.user,
            now: F.now
        )
        #expect(outcome.result.content.title == "Ann")
        #expect(outcome.result.content.body == "Lunch?")
        let critical: JSONValue = ["aps": ["alert": "x", "mutable-content": 1, "interruption-level": "critical"]]
        let mapped = try APNsPayload.content(from: critical)
        let error = ruleError {
            try state.updateContent(
                .init(app: F.app, payload: critical),
                payloadContent: mapped,
                caller: F.user,
                now: F.now
            )
        }
        #expect(error?.code == .capabilityRequired)
        #expect(error?.path == ["payload", "aps", "interruption-level"])
    }

    @Test func aPayloadTheProtocolDidNotMapIsRefused() {
        var state = F.state()
        let error = ruleError {
            try state.updateContent(
                .init(app: F.app, payload: ["aps": ["alert": "x", "mutable-content": 1]]),
                caller: F.user,
                now: F.now
            )
        }
        #expect(error?.code == .invalidParams)
        #expect(error?.path == ["payload"])
    }
}
