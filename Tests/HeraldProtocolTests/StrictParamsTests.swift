import Testing

@testable import HeraldProtocol

/// Params are strict: a misspelt member is refused with -32602 at the member and, where a
/// known name is close, "did you mean …?". That every method refuses an unknown member is
/// checked from `openrpc.json`'s examples (`OpenRPCParamsTests`), so a new method needs no
/// case here; these cases check the suggestions, nested members among them.
@Suite struct StrictParamsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var method: String
        /// Valid params, read without error.
        var valid: JSONValue
        /// The same with one member misspelt.
        var misspelt: JSONValue
        var pointer: String
        /// The name suggested, or nil where none is close.
        var suggestion: String?
        var testDescription: String { "\(method) \(pointer)" }
    }

    static let message: JSONValue = ["type": "sendMessage", "conversationIdentifier": "c", "sender": ["displayName": "Ann"]]

    static let cases: [Case] = [
        Case(method: "rpc.discover", valid: [:], misspelt: ["verbose": true], pointer: "/verbose"),
        Case(method: "stats", valid: [:], misspelt: ["detail": true], pointer: "/detail"),
        Case(method: "snapshot", valid: [:], misspelt: ["path": "/tmp/x"], pointer: "/path"),
        Case(
            method: "donate",
            valid: ["app": "a", "interaction": ["direction": "incoming", "intent": message]],
            misspelt: ["app": "a", "interaction": ["direction": "incoming", "intnet": message]],
            pointer: "/interaction/intnet", suggestion: "intent"),
        Case(
            method: "update-content", valid: ["app": "a", "content": ["title": "t"]],
            misspelt: ["app": "a", "content": ["titel": "t"]], pointer: "/content/titel", suggestion: "title"),
        Case(
            method: "request-focus", valid: ["app": "a", "subscribe": true],
            misspelt: ["app": "a", "subscibe": true], pointer: "/subscibe", suggestion: "subscribe"),
        Case(
            method: "delete-interactions", valid: ["app": "a", "groupIdentifier": "g"],
            misspelt: ["app": "a", "groupIdentifer": "g"], pointer: "/groupIdentifer", suggestion: "groupIdentifier"),
        Case(
            method: "set-focus", valid: ["focus": ["name": "Work", "allowedPeople": []]],
            misspelt: ["focus": ["name": "Work", "alowedPeople": []]], pointer: "/focus/alowedPeople",
            suggestion: "allowedPeople"),
        Case(
            method: "set-focus-authorization", valid: ["app": "a", "status": "authorized"],
            misspelt: ["app": "a", "staus": "authorized"], pointer: "/staus", suggestion: "status"),
        Case(
            method: "set-summary", valid: ["apps": ["a"], "times": ["08:00"]],
            misspelt: ["apps": ["a"], "times": ["08:00"], "tiems": ["09:00"]], pointer: "/tiems", suggestion: "times"),
        Case(
            method: "set-capabilities", valid: ["app": "a", "critical": true],
            misspelt: ["app": "a", "critcal": true], pointer: "/critcal", suggestion: "critical"),
        Case(
            method: "suggest-people", valid: ["limit": 3],
            misspelt: ["limt": 3], pointer: "/limt", suggestion: "limit"),
        Case(
            method: "list-notifications", valid: ["app": "a", "state": "delivered"],
            misspelt: ["app": "a", "sate": "delivered"], pointer: "/sate", suggestion: "state"),
        Case(
            method: "remove-notifications", valid: ["app": "a", "identifiers": ["n-1"]],
            misspelt: ["app": "a", "identifers": ["n-1"]], pointer: "/identifers", suggestion: "identifiers"),
        Case(
            method: "deliver-summary", valid: ["uid": 1000],
            misspelt: ["uidd": 1000], pointer: "/uidd", suggestion: "uid"),
        Case(
            method: "subscribe-notifications", valid: ["uid": 1000],
            misspelt: ["ui": 1000], pointer: "/ui", suggestion: "uid"),
        Case(
            method: "set-notification-categories",
            valid: ["app": "a", "categories": [["identifier": "c", "actions": [["identifier": "x", "title": "X", "icon": ["systemImageName": "s"]]]]]],
            misspelt: ["app": "a", "categories": [["identifier": "c", "actions": [["identifier": "x", "title": "X", "icon": ["systemImageNam": "s"]]]]]],
            pointer: "/categories/0/actions/0/icon/systemImageNam", suggestion: "systemImageName"),
        Case(
            method: "get-notification-categories", valid: ["app": "a"],
            misspelt: ["ap": "a"], pointer: "/ap", suggestion: "app"),
        Case(
            method: "respond-to-notification", valid: ["app": "a", "identifier": "n", "actionIdentifier": "reply", "userText": "hi"],
            misspelt: ["app": "a", "identifier": "n", "actionIdentifier": "reply", "userTxt": "hi"], pointer: "/userTxt", suggestion: "userText"),
        Case(
            method: "subscribe-responses", valid: ["app": "a"],
            misspelt: ["app": "a", "pending": true], pointer: "/pending"),
        Case(
            method: "get-app-settings", valid: ["app": "a", "uid": 1000],
            misspelt: ["app": "a", "iud": 1000], pointer: "/iud", suggestion: "uid"),
        Case(
            method: "list-authorization-requests", valid: ["uid": 1000],
            misspelt: ["uids": 1000], pointer: "/uids", suggestion: "uid"),
        Case(
            method: "define-focus", valid: ["focus": ["name": "Sleep", "schedules": [["days": ["mon"], "start": "22:00", "end": "07:00"]]]],
            misspelt: ["focus": ["name": "Sleep", "schedules": [["dyas": ["mon"], "start": "22:00", "end": "07:00"]]]],
            pointer: "/focus/schedules/0/dyas", suggestion: "days"),
        Case(
            method: "delete-focus", valid: ["name": "Sleep"],
            misspelt: ["nmae": "Sleep"], pointer: "/nmae", suggestion: "name"),
        Case(
            method: "get-focus", valid: ["uid": 1000],
            misspelt: ["uidd": 1000], pointer: "/uidd", suggestion: "uid"),
        Case(
            method: "get-summary", valid: ["uid": 1000],
            misspelt: ["iud": 1000], pointer: "/iud", suggestion: "uid"),
    ]

    @Test func theTableNamesServedMethods() {
        let named = Set(Self.cases.map(\.method))
        let served = Set(HeraldMethods.all.map { $0.name })
        #expect(named.isSubset(of: served))
    }

    @Test(arguments: cases)
    func oneMisspeltMemberIsRefused(_ test: Case) throws {
        let method = try #require(HeraldMethods.all.first { $0.name == test.method })
        try Self.read(method, test.valid)
        let error = #expect(throws: RPCError.self) { try Self.read(method, test.misspelt) }
        #expect(error?.code == .invalidParams)
        #expect(error?.pointer == test.pointer)
        if let suggestion = test.suggestion {
            #expect(error?.reason == "`\(test.pointer)` is not a known member; did you mean `\(suggestion)`?")
        } else {
            #expect(error?.reason.contains("did you mean") == false)
        }
    }

    private static func read<Method: HeraldMethod>(_ method: Method.Type, _ params: JSONValue) throws(RPCError) {
        _ = try Method.decodeParams(params)
    }
}
