/// `stats`: for an administrator, uptime, connections, and requests and errors per method;
/// for a person, their own figures.
///
/// The result is an object; its members are documented in `Protocol/openrpc.json`
/// (`Stats`, `PersonStats`): `view` says which. An administrator's: `startedAt`,
/// `uptimeSeconds`, `connections {open, accepted, refused}`,
/// `methods {<name>: {requests, errors}}`, `interactions`, `focusSubscriptions`, and the
/// members that the journal and snapshot writers add. A person's: the same times, and
/// their own connections, interactions, notifications, responses, Focus and presenters.
package enum StatsMethod: HeraldMethod {
    package static let name = "stats"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "8b9bd77d524044298fd6f027d9b173b9", error: "8d6a889fe2a048c58bedcb441d96b06f")
    package typealias Params = NoParams
    package typealias Result = JSONValue
}
