import Foundation
import Testing

@testable import HeraldProtocol

/// The direct path (`JSONDirectDecodable`) against `Decodable`, on `donate`'s params.
///
/// What must hold for any input: when the direct path reads a value, `Decodable` reads the
/// same one; and `JSONValueDecoder`, which tries the direct path first, answers exactly as
/// `Decodable` alone does — the same value or the same error, reason and pointer.
@Suite struct DirectDecodingTests {
    /// Every member a donation can have, at least once, nested where it nests.
    static let fullMessage: JSONValue = [
        "app": "org.example.chat",
        "interaction": [
            "identifier": "m-1",
            "groupIdentifier": "g-1",
            "direction": "incoming",
            "date": "2026-11-22T14:02:00.250Z",
            "intent": [
                "type": "sendMessage",
                "sender": [
                    "handle": ["value": "ann@example.org", "type": "emailAddress"],
                    "displayName": "Ann Lee",
                    "nameComponents": ["givenName": "Ann", "familyName": "Lee", "nickname": "Annie"],
                    "image": ["url": "file:///ann.png"],
                    "contactIdentifier": "contact-1",
                    "customIdentifier": "custom-1",
                    "aliases": [["value": "+15550100", "type": "phoneNumber"], ["value": "ann"]],
                    "suggestionType": "instantMessageAddress",
                    "isMe": false,
                ],
                "recipients": [
                    ["handle": ["value": "bo@example.org", "type": "emailAddress"], "displayName": "Bo Berg"],
                    ["displayName": "Cy", "image": ["data": "AAAA", "mimeType": "image/png"]],
                ],
                "content": "Lunch?",
                "speakableGroupName": "Lunch crew",
                "conversationIdentifier": "c-1",
                "serviceName": "chat",
                "outgoingMessageType": "text",
                "groupImage": ["url": "https://example.org/g.png"],
                "donationMetadata": [
                    "recipientCount": 3, "mentionsCurrentUser": true, "isReplyToCurrentUser": false,
                    "notifyRecipientAnyway": true,
                ],
            ],
        ],
        "extra": "ignored",
    ]

    static let fullCall: JSONValue = [
        "app": "org.example.phone",
        "interaction": [
            "direction": "outgoing",
            "intent": [
                "type": "startCall",
                "contacts": [["handle": ["value": "+15550100", "type": "phoneNumber"]], ["displayName": "Bo"]],
                "callCapability": "videoCall",
                "destinationType": "callBack",
                "audioRoute": "bluetooth",
                "callRecordToCallBack": ["identifier": "r-1", "nested": [1, 2.5, nil]],
                "groupImage": ["data": "AAAA", "mimeType": "image/png"],
            ],
        ],
    ]

    static let minimalMessage: JSONValue = [
        "app": "a",
        "interaction": ["direction": "incoming", "intent": ["type": "sendMessage", "conversationIdentifier": "c"]],
    ]

    /// Values a member is replaced with: every JSON type, and values only one path reads.
    static let replacements: [JSONValue] = [
        nil, true, 0, .number(JSONNumber(literal: "1.0")), .number(JSONNumber(literal: "1.5")),
        .number(JSONNumber(literal: "1e400")), .number(JSONNumber(literal: "99999999999999999999")),
        "", "sideways", "2026-11-22T14:02:00Z", [], [nil], [:], ["value": "x"],
    ]

    @Test func readsFullDonationsAsDecodableDoes() throws {
        for document in [Self.fullMessage, Self.fullCall, Self.minimalMessage] {
            let direct = try DonateParams(directlyFrom: document)
            #expect(direct == (try JSONValueDecoder(readsDirectly: false).decode(DonateParams.self, from: document)))
        }
    }

    @Test func readsNullOptionalsAndDuplicateMembersAsDecodableDoes() throws {
        let document = try JSONParser.parse(
            Array(
                #"""
                {"app":"first","app":"second","interaction":{"identifier":null,"date":null,"direction":"outgoing",
                "intent":{"type":"startCall","contacts":[],"callRecordToCallBack":null,"audioRoute":null}}}
                """#.utf8
            )
        )
        let direct = try DonateParams(directlyFrom: document)
        #expect(direct.app == "second")
        #expect(direct == (try JSONValueDecoder(readsDirectly: false).decode(DonateParams.self, from: document)))
    }

    /// Every member of every document removed, and replaced by each of `replacements`.
    @Test func agreesWithDecodableOnEveryMutation() {
        var mutations = 0
        for document in [Self.fullMessage, Self.fullCall, Self.minimalMessage] {
            for mutated in Self.mutations(of: document) {
                Self.expectAgreement(on: mutated.document, label: mutated.label)
                mutations += 1
            }
        }
        #expect(mutations > 1000)
    }

    @Test func errorsNameTheMemberAtFault() {
        var document = Self.fullMessage
        document = Self.replacing(in: document, at: ["interaction", "intent", "recipients", "1", "image", "data"], with: 7)!
        let error = Self.decode(document, readsDirectly: true)
        #expect(
            error
                == .failure(
                    .invalidParams(
                        "`/interaction/intent/recipients/1/image/data` must be a string, not a number.",
                        at: "/interaction/intent/recipients/1/image/data")))
    }

    // MARK: Helpers

    static func decode(_ document: JSONValue, readsDirectly: Bool) -> Result<DonateParams, RPCError> {
        Result { () throws(RPCError) in
            try JSONValueDecoder(readsDirectly: readsDirectly).decode(DonateParams.self, from: document, pointerPrefix: "")
        }
    }

    static func expectAgreement(on document: JSONValue, label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let throughDecodable = decode(document, readsDirectly: false)
        #expect(decode(document, readsDirectly: true) == throughDecodable, "\(label)", sourceLocation: sourceLocation)
        if let direct = try? DonateParams(directlyFrom: document) {
            #expect(throughDecodable == .success(direct), "direct path more lenient at \(label)", sourceLocation: sourceLocation)
        }
    }

    /// The document with each member or element removed, and with each one replaced.
    static func mutations(of document: JSONValue) -> [(label: String, document: JSONValue)] {
        var result: [(String, JSONValue)] = []
        for path in paths(in: document) where !path.isEmpty {
            let pointer = "/" + path.joined(separator: "/")
            if let removed = replacing(in: document, at: path, with: nil, removing: true) {
                result.append(("removed \(pointer)", removed))
            }
            for replacement in replacements {
                if let replaced = replacing(in: document, at: path, with: replacement) {
                    result.append(("\(pointer) = \(replacement.compactText)", replaced))
                }
            }
        }
        result.append(("root = []", []))
        result.append(("root = null", nil))
        return result
    }

    /// Every path in `value`, the root's included, as member names and array positions.
    static func paths(in value: JSONValue) -> [[String]] {
        var result: [[String]] = [[]]
        switch value {
        case .object(let object):
            for member in object {
                result += paths(in: member.value).map { [member.key] + $0 }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                result += paths(in: element).map { [String(index)] + $0 }
            }
        default:
            break
        }
        return result
    }

    static func replacing(in value: JSONValue, at path: [String], with replacement: JSONValue?, removing: Bool = false) -> JSONValue? {
        guard let first = path.first else { return replacement }
        let rest = Array(path.dropFirst())
        switch value {
        case .object(var object):
            guard let member = object[first] else { return nil }
            if rest.isEmpty, removing {
                object[first] = nil
            } else {
                guard let changed = replacing(in: member, at: rest, with: replacement, removing: removing) else { return nil }
                object[first] = changed
            }
            return .object(object)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else { return nil }
            if rest.isEmpty, removing {
                elements.remove(at: index)
            } else {
                guard let element = replacing(in: elements[index], at: rest, with: replacement, removing: removing) else { return nil }
                elements[index] = element
            }
            return .array(elements)
        default:
            return nil
        }
    }
}
