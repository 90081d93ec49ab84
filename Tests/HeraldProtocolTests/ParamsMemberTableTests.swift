import Testing

@testable import HeraldProtocol

/// An object read against its type's table of member names (one pass) answers exactly as
/// the same reader asking by name: the same values, and the same error, pointer and reason.
@Suite struct ParamsMemberTableTests {
    private static let names = ["app", "conversationIdentifier", "sender", "isMe"]
    private static let table = ParamsMemberTable(names)

    /// Reads `app` (required), `conversationIdentifier`, `sender` (an object of its own
    /// table) and `isMe`, in the table's order.
    private static func body(_ members: inout ParamsObjectReader) throws(RPCError) -> String {
        let app: String = try members.required("app")
        let conversation: String? = try members.optional("conversationIdentifier")
        let sender: PersonHandle? = try members.optional("sender")
        let isMe: Bool = try members.optional("isMe", default: false)
        return "\(app) \(conversation ?? "-") \(sender?.value ?? "-") \(isMe)"
    }

    private func bothWays(_ text: String) throws -> (byName: Result<String, RPCError>, byTable: Result<String, RPCError>) {
        let reader = ParamsReader(try JSONTape.parse(Array(text.utf8)).root.asRoot)
        let byName = Result { () throws(RPCError) in try reader.object { members throws(RPCError) in try Self.body(&members) } }
        let byTable = Result { () throws(RPCError) in try reader.object(Self.table) { members throws(RPCError) in try Self.body(&members) } }
        return (byName, byTable)
    }

    @Test(
        "by table and by name agree, on good objects and on each kind of error",
        arguments: [
            #"{"app":"a"}"#,
            #"{"isMe":true,"sender":{"value":"v"},"conversationIdentifier":"c","app":"a"}"#,
            #"{"app":"a","app":"b"}"#,  // the last counts
            #"{"app":1,"app":"b"}"#,
            #"{"app":"a","app":1}"#,
            #"{"\u0061pp":"escaped","isM\u0065":true}"#,  // escaped names are the names they spell
            #"{"app":"a","colour":"red"}"#,  // no close name: the members are listed
            #"{"app":"a","sendr":{"value":"v"}}"#,  // did you mean
            #"{"app":"a","conversationID":"c"}"#,
            #"{"ap":"a"}"#,  // a misspelt required member
            #"{"colour":"red"}"#,  // a missing required member, and an unknown one
            #"{"app":"a","colour":"red","isMe":"no"}"#,  // a type error before the unknown member
            #"{"app":"a","sender":{"value":"v","typ":"x"},"colour":"red"}"#,  // the nested object's first
            #"{"app":"a","sender":{"value":1},"zz":1}"#,
            #"{"app":"a","a/b~c":1}"#,
            #"{"app":"a","sender":[]}"#,
            #"{"app":"a","isMe":null,"conversationIdentifier":null}"#,
            #"{}"#,
            #"[]"#,
        ])
    func agree(_ text: String) throws {
        let (byName, byTable) = try bothWays(text)
        switch (byName, byTable) {
        case (.success(let name), .success(let table)):
            #expect(name == table)
        case (.failure(let name), .failure(let table)):
            #expect(name.code == table.code)
            #expect(name.pointer == table.pointer)
            #expect(name.reason == table.reason)
        default:
            Issue.record("by name: \(byName), by table: \(byTable)")
        }
    }

    @Test("an unknown member with no close name lists the table's names, in its order")
    func listsTheTable() throws {
        let (_, byTable) = try bothWays(#"{"app":"a","colour":"red"}"#)
        guard case .failure(let error) = byTable else { Issue.record("read \(byTable)"); return }
        #expect(error.pointer == "/colour")
        #expect(error.reason == "`/colour` is not a known member; the members are app, conversationIdentifier, sender, isMe.")
    }

    @Test("an intent is read against its own type's table, and a type that is neither is refused first")
    func intentTables() throws {
        func failure(_ intent: String) throws -> RPCError? {
            let text = #"{"app":"a","interaction":{"direction":"incoming","intent":"# + intent + "}}"
            return #expect(throws: RPCError.self) { try DonateParams.read(params: JSONTape.parse(Array(text.utf8)).root) }
        }
        let call = try failure(#"{"type":"startCall","contacts":[],"colour":1}"#)
        #expect(call?.pointer == "/interaction/intent/colour")
        #expect(
            call?.reason
                == "`/interaction/intent/colour` is not a known member; the members are type, contacts, callCapability, destinationType, audioRoute, callRecordToCallBack, groupImage."
        )
        let message = try failure(#"{"colour":1,"type":"sendMessage","conversationIdentifier":"c"}"#)
        #expect(
            message?.reason
                == "`/interaction/intent/colour` is not a known member; the members are type, sender, recipients, content, speakableGroupName, conversationIdentifier, serviceName, outgoingMessageType, groupImage, donationMetadata."
        )
        let neither = try failure(#"{"type":"sendFax","colour":1}"#)
        #expect(neither?.pointer == "/interaction/intent/type")
        let repeated = try failure(#"{"type":"startCall","type":"sendMessage","contacts":[],"conversationIdentifier":"c"}"#)
        #expect(repeated?.pointer == "/interaction/intent/contacts", "the last type counts, as for any member")
    }
}
