import FoundationEssentials
import HeraldCore
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns a Focus's `--allow` and `--silence` values into people: a handle is sent as
/// written, a name is looked up among the people Herald knows (`suggest-people`, the uid's
/// own outgoing donations), since a Focus matches people by handle and never by a display
/// name alone (Protocol/README.md, "Matching people").
///
/// A value is a handle when it is `Name <handle>`, has an `@`, is a phone number, or is
/// the handle of someone Herald knows. Anything else is a name: one person named so (in
/// full, or by one of their name's words) is chosen and said; several are refused with
/// the candidates; none is refused when the value has a space (no handle has one), and
/// a single word is sent as a handle of unknown type, as typed (`@ann:example.org`).
final class PersonResolver {
    private let client: ClientOptions
    private let uid: UInt32
    private var known: [JSONValue]?
    /// What was chosen, one line each: `--allow "Ann Lee" is Ann Lee <ann@example.org>`.
    private(set) var choices: [String] = []

    init(client: ClientOptions, uid: UInt32?) {
        self.client = client
        self.uid = uid ?? getuid()
    }

    /// The person `text` names, as `set-focus` takes one.
    func person(_ text: String, flag: String) throws(CtlFailure) -> JSONValue {
        let trimmed = text.trimmingBlanks()
        if Self.isHandle(trimmed) { return PersonArgument.parse(trimmed) }
        let people = try knownPeople()
        if let same = people.first(where: { Self.fold($0["handle"]["value"]?.stringValue ?? "") == Self.fold(trimmed) }) {
            return same
        }
        var named: [JSONValue] = []
        for person in people where Self.isNamed(person, trimmed) {
            if !named.contains(where: { $0["handle"] == person["handle"] }) { named.append(person) }
        }
        switch named.count {
        case 1:
            choices.append("\(flag) \"\(trimmed)\" is \(PersonArgument.describe(named[0])).")
            return named[0]
        case 0 where !trimmed.contains(" "):
            return PersonArgument.parse(trimmed)
        case 0:
            throw CtlFailure(.usage, [
                "heraldctl: \(flag) \"\(trimmed)\": no one Herald knows is named so (it knows the people of your outgoing messages and calls).",
                "  Give the handle: \"\(trimmed) <address>\", an email address or a +phone number.",
            ])
        default:
            throw CtlFailure(.usage, [
                "heraldctl: \(flag) \"\(trimmed)\" names \(named.count) people Herald knows; give one by handle:"
            ] + named.map { "  \(flag) \"\(PersonArgument.describe($0))\"" })
        }
    }

    /// Says whom the names given were taken for: on standard output, or on standard error
    /// with `--json` (whose output is the result alone).
    func sayChoices() {
        if client.json {
            CtlFailure(.success, choices.map { "heraldctl: \($0)" }).report()
        } else {
            Output.print(choices)
        }
    }

    /// Whether `text` is written as a handle rather than a name.
    static func isHandle(_ text: String) -> Bool {
        if text.hasSuffix(">"), text.contains("<") { return true }
        return PersonArgument.handleObject(text)["type"]?.stringValue != "unknown"
    }

    /// Whether `person` is named `text`: their whole display name, or one of its words, in
    /// any case and with or without accents.
    static func isNamed(_ person: JSONValue, _ text: String) -> Bool {
        guard person["handle"]["value"]?.stringValue?.isEmpty == false else { return false }
        let described = PersonArgument.describe(person)
        let name = described.firstIndex(of: "<").map { String(described[..<$0]).trimmingBlanks() } ?? ""
        guard !name.isEmpty else { return false }
        let wanted = fold(text)
        return fold(name) == wanted || name.split(separator: " ").contains { fold(String($0)) == wanted }
    }

    /// `text` folded as the search folds words: case, accents and width.
    private static func fold(_ text: String) -> String {
        SearchFolding.fold(text)
    }

    /// The uid's people, each as its latest outgoing donation named them; read once.
    private func knownPeople() throws(CtlFailure) -> [JSONValue] {
        if let known { return known }
        let result = try client.connect().call("suggest-people", params: ["limit": 1000, "uid": uid.json])
        let people = (result["people"]?.arrayValue ?? []).compactMap { $0["person"] }
        known = people
        return people
    }
}
