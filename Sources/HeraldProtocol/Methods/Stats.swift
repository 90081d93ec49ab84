/// `stats` (administrators): uptime, connections, and requests and errors per method.
///
/// The result is an object; its members are documented in `Protocol/openrpc.json`:
/// `startedAt`, `uptimeSeconds`, `connections {open, accepted, refused}`,
/// `methods {<name>: {requests, errors}}`, `interactions`, `focusSubscriptions`, and the
/// members that the journal and snapshot writers add.
public enum StatsMethod: HeraldMethod {
    public static let name = "stats"
    public static let requiresAdministrator = true
    public typealias Params = NoParams
    public typealias Result = JSONValue
}
