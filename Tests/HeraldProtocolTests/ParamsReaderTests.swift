import Foundation
import Testing

@testable import HeraldProtocol

/// `ParamsReader`: each leaf, each error kind with its pointer and reason, unknown members
/// with and without a suggestion, and the open-ended members that stay open.
@Suite struct ParamsReaderTests {
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

    private func failure<Value: ParamsReadable>(_ type: Value.Type, _ text: String, at pointer: String = "") throws -> RPCError? {
        let value = try JSONParser.parse(text)
        return #expect(throws: RPCError.self) { try Value(reading: ParamsReader(value, at: pointer)) }
    }

    private func read<Value: ParamsReadable>(_ type: Value.Type, _ text: String) throws -> Value {
        try Value.read(params: try JSONParser.parse(text))
    }

    // MARK: Values

    @Test("full donations read as Foundation's JSONDecoder reads them through Decodable")
    func fullDonationsAsFoundationReadsThem() throws {
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = RFC3339.parse(text) else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: text)) }
            return date
        }
        for document in [Self.fullMessage, Self.fullCall, Self.minimalMessage] {
            let read = try DonateParams.read(params: document)
            let oracle = try foundation.decode(DonateParams.self, from: Data(document.compactText.utf8))
            #expect(read == oracle, "\(document.compactText)")
        }
    }

    @Test("null for an optional member is nil; defaults fill absent members")
    func nullsAndDefaults() throws {
        let params = try read(SuggestPeopleParams.self, #"{"limit":null,"app":"a"}"#)
        #expect(params.limit == nil && params.app == "a")
        let focus = try read(SetFocusParams.self, #"{"focus":{"name":"Work","allowMentions":null}}"#).focus
        #expect(focus == FocusUpdate(name: "Work"))
        #expect(focus?.applied(to: nil) == FocusConfiguration(name: "Work"))
    }

    @Test(
        "integers must be integral and fit",
        arguments: [("1.0", 1), ("1e2", 100), ("-0", 0), ("4294967295", 4_294_967_295), ("42.90e1", 429)])
    func integers(_ literal: String, _ expected: Int) throws {
        #expect(try ParamsReader(.number(JSONNumber(literal: literal))).integer(UInt32.self) == UInt32(expected))
    }

    @Test("doubles come from any finite number")
    func doubles() throws {
        #expect(try Double(reading: ParamsReader(.number(JSONNumber(literal: "-1.5e3")))) == -1500)
        let error = #expect(throws: RPCError.self) { try Double(reading: ParamsReader(.number(JSONNumber(literal: "1e400")), at: "/s")) }
        #expect(error?.reason == "`/s` is out of range for a Double; got 1e400.")
    }

    @Test("open-ended members keep whatever the client put in them")
    func openEndedMembers() throws {
        let update = try read(
            UpdateContentParams.self,
            #"{"app":"a","content":{"title":"t","userInfo":{"anything":[1.50,{"x":null}]},"filterCriteria":{"mine":1},"sound":{"name":"ping","custom":true},"attachments":[{"any":"thing"}],"communication":{"made":"up"}}}"#
        )
        #expect(update.content?.userInfo?.compactText == #"{"anything":[1.50,{"x":null}]}"#)
        #expect(update.content?.filterCriteria?.compactText == #"{"mine":1}"#)
        #expect(update.content?.communication == nil, "communication is Herald's, ignored on input")
        let payload = try read(UpdateContentParams.self, #"{"app":"a","payload":{"aps":{"alert":"hi","mutable-content":1},"acme-id":7}}"#)
        #expect(payload.payload?.objectValue?["acme-id"] == 7)
        let call = try DonateParams.read(params: Self.fullCall)
        guard case .startCall(let intent) = call.interaction.intent else { Issue.record("not a call"); return }
        #expect(intent.callRecordToCallBack?.compactText == #"{"identifier":"r-1","nested":[1,2.5,null]}"#)
    }

    @Test("a repeated member is not an unknown one; the last counts")
    func repeatedMember() throws {
        #expect(try read(RequestFocusParams.self, #"{"app":"a","app":"b"}"#).app == "b")
        let both = try failure(RequestFocusParams.self, #"{"app":"a","app":"b","colour":1}"#)
        #expect(both?.pointer == "/colour")
        let nested = try failure(
            DonateParams.self,
            #"{"app":"a","interaction":{"direction":"incoming","direction":"incoming","intent":{"type":"sendMessage","conversationIdentifier":"c","sender":{"displayName":"A","displayName":"B"}}},"interaction2":1}"#
        )
        #expect(nested?.pointer == "/interaction2")
        #expect(nested?.reason == "`/interaction2` is not a known member; did you mean `interaction`?")
    }

    @Test(
        "every member is found, whatever the order it is read in, then other names are absent",
        arguments: [1, 2, 63, 64, 65, 70]
    )
    func membersReadInAnyOrder(count: Int) throws {
        let text = "{" + (0..<count).map { #""m\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let reader = ParamsReader(try JSONParser.parse(text))
        let read = try reader.object { members throws(RPCError) in
            var values: [Int?] = []
            // Absent names before, between and after the members, which are read last first.
            values.append(try members.optional("before", as: Int.self))
            for number in (0..<count).reversed() {
                values.append(try members.optional(named: "m\(number)", as: Int.self))
                if number == count / 2 { values.append(try members.optional("between", as: Int.self)) }
            }
            values.append(try members.optional("after", as: Int.self))
            return values
        }
        var expected: [Int?] = [nil]
        for number in (0..<count).reversed() {
            expected.append(number)
            if number == count / 2 { expected.append(nil) }
        }
        expected.append(nil)
        #expect(read == expected)
    }

    @Test("with a repeated name, the members after it are still found")
    func repeatedNameThenOthers() throws {
        let reader = ParamsReader(try JSONParser.parse(#"{"a":1,"b":2,"a":3,"c":4}"#))
        let read = try reader.object { members throws(RPCError) in
            [try members.optional("a", as: Int.self), try members.optional("b", as: Int.self), try members.optional("c", as: Int.self)]
        }
        #expect(read == [3, 2, 4])
    }

    @Test("names are compared whole, escaped or not, the last of a name counting")
    func namesComparedWhole() throws {
        let text = #"{"abcdefghY":1,"abcdefgh":2,"abcdefghX":3,"\u0061pp":4,"a\u00e9":5,"aé":6,"q":7}"#
        let reader = ParamsReader(try JSONTape.parse(Array(text.utf8)).root)
        let values = try reader.object { members throws(RPCError) in
            try ["abcdefghX", "abcdefgh", "abcdefghY", "abcdefghZ", "app", "aé", "q", "abcdefg"].map { name throws(RPCError) in
                try members.optional(named: name, as: Int.self)
            }
        }
        #expect(values == [3, 2, 1, nil, 4, 6, 7, nil])
        #expect(try read(RequestFocusParams.self, #"{"app":"a","\u0061pp":"b"}"#).app == "b")
        #expect(try read(RequestFocusParams.self, #"{"\u0061pp":"a","app":"b"}"#).app == "b")
    }

    @Test("the outermost reader holds its tape, which its members' readers borrow")
    func readerHoldsItsTape() throws {
        weak var held: JSONTape?
        var reader: ParamsReader? = try {
            let text =
                #"{"app":"a","interaction":{"direction":"incoming","intent":{"type":"sendMessage","#
                + #""conversationIdentifier":"c","recipients":[{"displayName":"Bo"}]}}}"#
            let tape = try JSONTape.parse(Array(text.utf8))
            held = tape
            return ParamsReader(tape.root)
        }()
        // Nothing but the reader holds the tape now; every value is read from it.
        #expect(held != nil)
        let params = try DonateParams(reading: try #require(reader))
        #expect(params.app == "a")
        guard case .sendMessage(let message) = params.interaction.intent else { Issue.record("not a message"); return }
        #expect(message.recipients?.first?.displayName == "Bo")
        reader = nil
        #expect(held == nil)
    }

    // MARK: Errors

    @Test("a missing member points at the member")
    func missing() throws {
        let error = try failure(DonateParams.self, #"{"app":"a","interaction":{"intent":{"type":"sendMessage"}}}"#)
        #expect(error?.code == .invalidParams)
        #expect(error?.pointer == "/interaction/direction")
        #expect(error?.reason == "`/interaction/direction` is required.")
    }

    @Test("a member of the wrong type names both types; null is a wrong type for a required member")
    func wrongType() throws {
        let error = try failure(DonateParams.self, #"{"app": 5, "interaction": {}}"#)
        #expect(error?.pointer == "/app")
        #expect(error?.reason == "`/app` must be a string, not a number.")
        let null = try failure(DonateParams.self, #"{"app": null, "interaction": {}}"#)
        #expect(null?.reason == "`/app` must be a string, not null.")
        let root = try failure(DonateParams.self, "[1]")
        #expect(root?.pointer == "")
        #expect(root?.reason == "params must be an object, not an array.")
        let array = try failure(SetSummaryParams.self, #"{"apps":"a","times":[]}"#)
        #expect(array?.reason == "`/apps` must be an array, not a string.")
        let bool = try failure(RequestFocusParams.self, #"{"app":"a","subscribe":"yes"}"#)
        #expect(bool?.reason == "`/subscribe` must be a boolean, not a string.")
    }

    @Test("an unknown enum value lists the accepted ones, below a given pointer")
    func enumValue() throws {
        let error = try failure(
            DonateParams.self,
            #"{"app":"a","interaction":{"direction":"sideways","intent":{"type":"sendMessage","conversationIdentifier":"c"}}}"#,
            at: "/params"
        )
        #expect(error?.pointer == "/params/interaction/direction")
        #expect(error?.reason == #"`/params/interaction/direction` must be one of incoming, outgoing; got "sideways"."#)
        let intent = try failure(DonateParams.self, #"{"app":"a","interaction":{"direction":"incoming","intent":{"type":"sendFax"}}}"#)
        #expect(intent?.pointer == "/interaction/intent/type")
        #expect(intent?.reason == "`/interaction/intent/type` must be one of sendMessage, startCall; got \"sendFax\".")
    }

    @Test("an error inside an array element points through the index")
    func nestedArrayElement() throws {
        var text = Self.fullMessage.compactText
        text = text.replacingOccurrences(of: #""value":"bo@example.org""#, with: #""value":7"#)
        let error = try failure(DonateParams.self, text)
        #expect(error?.pointer == "/interaction/intent/recipients/0/handle/value")
        #expect(error?.reason == "`/interaction/intent/recipients/0/handle/value` must be a string, not a number.")
    }

    @Test("integers out of range or fractional are refused with a reason")
    func integerErrors() throws {
        let range = try failure(SuggestPeopleParams.self, #"{"uid":-1}"#)
        #expect(range?.pointer == "/uid")
        #expect(range?.reason == "`/uid` must be an integer from 0 to 4294967295; got -1.")
        let fraction = try failure(SuggestPeopleParams.self, #"{"limit":1.5}"#)
        #expect(fraction?.reason == "`/limit` must be an integer, not 1.5.")
        let huge = try failure(SuggestPeopleParams.self, #"{"limit":1e400}"#)
        #expect(huge?.reason == "`/limit` must be an integer from \(Int.min) to \(Int.max); got 1e400.")
        #expect(try ParamsReader(.number(JSONNumber(literal: "9007199254740993"))).integer(Int64.self) == 9_007_199_254_740_993)
    }

    @Test("dates must be RFC 3339")
    func dates() throws {
        let error = try failure(SetFocusParams.self, #"{"focus":{"name":"W","until":"yesterday"}}"#)
        #expect(error?.pointer == "/focus/until")
        #expect(error?.reason == #"`/focus/until` must be an RFC 3339 date-time such as 2026-11-22T14:02:00Z; got "yesterday"."#)
        let number = try failure(SetFocusParams.self, #"{"focus":{"name":"W","until":5}}"#)
        #expect(number?.reason == "`/focus/until` must be an RFC 3339 date-time such as 2026-11-22T14:02:00Z; not a number.")
    }

    @Test("pointers escape '~' and '/' in member names")
    func escapedPointer() throws {
        let error = try failure(RequestFocusParams.self, #"{"app":"a","a/b~c": "x"}"#)
        #expect(error?.pointer == "/a~1b~0c")
    }

    @Test("an unknown member is refused at its pointer, with the closest known name")
    func unknownMemberSuggestion() throws {
        let error = try failure(SetFocusParams.self, #"{"focus":{"name":"Work","alowedPeople":[{"handle":{"value":"a@b"}}]}}"#)
        #expect(error?.code == .invalidParams)
        #expect(error?.pointer == "/focus/alowedPeople")
        #expect(error?.reason == "`/focus/alowedPeople` is not a known member; did you mean `allowedPeople`?")
        let nested = try failure(DonateParams.self, #"{"app":"a","interaction":{"direction":"incoming","intent":{"type":"sendMessage","conversationIdentifier":"c","sender":{"displayName":"A","hadnle":{"value":"x"}}}}}"#)
        #expect(nested?.pointer == "/interaction/intent/sender/hadnle")
        #expect(nested?.reason.hasSuffix("did you mean `handle`?") == true)
    }

    @Test("a required member written with ID for Identifier is named as misspelt, not as missing (issue 45, item 11)")
    func abbreviatedIdentifier() throws {
        let error = try failure(SetConversationParams.self, #"{"app":"a","conversationID":"c-trip","priority":true}"#)
        #expect(error?.pointer == "/conversationID")
        #expect(error?.reason == "`/conversationID` is not a known member; did you mean `conversationIdentifier`?")
    }

    @Test("an unknown member with no close name lists the members; a method without params takes none")
    func unknownMemberWithoutSuggestion() throws {
        let error = try failure(RequestFocusParams.self, #"{"app":"a","colour":"red"}"#)
        #expect(error?.pointer == "/colour")
        #expect(error?.reason == "`/colour` is not a known member; the members are app, requestAuthorization, subscribe.")
        let none = try failure(NoParams.self, #"{"verbose":true}"#)
        #expect(none?.pointer == "/verbose")
        #expect(none?.reason == "`/verbose` is not a known member; this object takes no members.")
        #expect(try read(NoParams.self, "{}") == NoParams())
    }

    @Test("an intent's members are checked against its own type's")
    func intentMembers() throws {
        let error = try failure(
            DonateParams.self,
            #"{"app":"a","interaction":{"direction":"incoming","intent":{"type":"sendMessage","conversationIdentifier":"c","contacts":[]}}}"#
        )
        #expect(error?.pointer == "/interaction/intent/contacts")
    }
}

@Suite struct ClosestNameTests {
    @Test(
        "close names are suggested",
        arguments: [
            ("alowedPeople", "allowedPeople"), ("critcal", "critical"), ("titel", "title"), ("donat", "donate"),
            ("update-contents", "update-content"), ("STATS", "stats"), ("intreaction", "interaction"),
            ("conversationID", "conversationIdentifier"), ("threadId", "threadIdentifier"),
        ])
    func close(_ typed: String, _ meant: String) {
        let names = [
            "allowedPeople", "critical", "title", "donate", "update-content", "stats", "interaction", "subtitle", "conversationIdentifier",
            "threadIdentifier",
        ]
        #expect(ClosestName.closest(to: typed, among: names) == meant)
    }

    @Test("far names, and the name itself, are not")
    func far() {
        #expect(ClosestName.closest(to: "colour", among: ["app", "subscribe"]) == nil)
        #expect(ClosestName.closest(to: "foobar", among: ["donate", "stats", "snapshot"]) == nil)
        #expect(ClosestName.closest(to: "app", among: ["app"]) == nil)
        #expect(ClosestName.closest(to: String(repeating: "a", count: 100), among: ["app"]) == nil)
    }

    @Test("the distance counts a swap of neighbours as one edit")
    func distance() {
        func d(_ a: String, _ b: String) -> Int {
            ClosestName.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(d("titel", "title") == 1)
        #expect(d("", "abc") == 3)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("same", "same") == 0)
    }
}
