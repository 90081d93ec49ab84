import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct StateCodingTests {
    typealias F = Fixtures

    @Test func intentsDecodeByTypeAndRejectUnknownTypes() throws {
        let json = #"{"type":"startCall","contacts":[{"displayName":"Bo"}]}"#
        let intent = try JSONDecoder().decode(Intent.self, from: Data(json.utf8))
        #expect(intent == .startCall(StartCallIntent(contacts: [Person(displayName: "Bo")])))
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(intent))
        #expect(encoded.objectValue?["type"] == "startCall")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Intent.self, from: Data(#"{"type":"sendFax"}"#.utf8))
        }
    }

    @Test func focusConfigurationReadsWithDefaults() throws {
        let focus = try FocusConfiguration.read(params: ["name": "Work"])
        #expect(focus == FocusConfiguration(name: "Work"))
        let stored = try JSONDecoder().decode(FocusConfiguration.self, from: JSONEncoder().encode(focus))
        #expect(stored == focus, "the snapshot's Codable round trip")
    }

    @Test func nullsAreWrittenForAbsentFocusStatus() throws {
        let data = try JSONEncoder().encode(RequestFocusResult(authorizationStatus: .denied, focusStatus: nil))
        #expect(String(decoding: data, as: UTF8.self).contains(#""focusStatus":null"#))
    }
}

@Suite struct WireDecodingTests {
    @Test func aDonationDecodesFromJSON() throws {
        let params: JSONValue = [
            "app": "org.example.chat",
            "interaction": [
                "direction": "incoming",
                "date": "2027-01-15T08:00:00Z",
                "intent": [
                    "type": "sendMessage",
                    "sender": ["handle": ["value": "ann@example.org", "type": "emailAddress"], "displayName": "Ann"],
                    "conversationIdentifier": "c1",
                ],
            ],
        ]
        let decoded = try DonateParams.read(params: params)
        #expect(decoded.interaction.date == Fixtures.now)
        #expect(decoded.interaction.intent.type == .sendMessage)
    }

    @Test func anUnknownIntentTypeNamesTheAllowedTypes() {
        let params: JSONValue = ["app": "a", "interaction": ["direction": "incoming", "intent": ["type": "sendFax"]]]
        let error = rpcError { try DonateParams.read(params: params) }
        #expect(error?.code == .invalidParams)
        #expect(error?.pointer == "/interaction/intent/type")
        #expect(error?.reason == "`/interaction/intent/type` must be one of sendMessage, startCall; got \"sendFax\".")
    }

    @Test func resultsEncodeNullsAndDates() throws {
        let encoded = try JSONValueEncoder().encode(RequestFocusResult(authorizationStatus: .denied, focusStatus: nil))
        #expect(encoded == ["authorizationStatus": "denied", "focusStatus": nil])
        let donated = try JSONValueEncoder().encode(DonateResult(identifier: "m1", donatedAt: Fixtures.now))
        #expect(donated == ["identifier": "m1", "donatedAt": "2027-01-15T08:00:00.000Z"])
    }
}
