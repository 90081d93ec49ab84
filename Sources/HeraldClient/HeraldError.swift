import FoundationEssentials
import HeraldProtocol

/// Why a call failed: heraldd's error answer (its `code`, `message`, and `data`'s `reason`,
/// `pointer` and `limit`), or a failure of the connection itself (``kind``).
///
/// Branch on ``code`` and ``pointer``; show ``reason`` to a person, it says what to fix.
public struct HeraldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed: an answer, or the connection (a struct, so that kinds can be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        /// heraldd answered the call with an error.
        public static let answered = Kind(name: "answered")
        /// No connection could be made to heraldd's socket (``HeraldError/systemErrno`` says why).
        public static let unreachable = Kind(name: "unreachable")
        /// The connection ended before the answer came: heraldd stopped or restarted. Whether
        /// a call that changes state took effect is unknown.
        public static let connectionLost = Kind(name: "connection lost")
        /// heraldd's protocol version is not one this client can use (``HeraldClient/requireProtocol(_:)``).
        public static let incompatibleProtocol = Kind(name: "incompatible protocol")
        /// heraldd's answer could not be read as the protocol says, or params could not be written.
        public static let unreadable = Kind(name: "unreadable")
        /// The client was closed.
        public static let closed = Kind(name: "closed")
        public var description: String { name }
    }

    public var kind: Kind
    /// The JSON-RPC error code (-32602 invalid params, 1001… Herald's own); 0 when heraldd did not answer.
    public var code: Int
    public var message: String
    /// What to fix, in a sentence (`data.reason`).
    public var reason: String?
    /// The RFC 6901 pointer to the member of the params at fault (`data.pointer`).
    public var pointer: String?
    /// The limit that was passed, when one was (`data.limit`).
    public var limit: Int?
    /// The whole `data` member of the error answer.
    public var data: HeraldJSON?
    /// The errno of a failed connect (``Kind/unreachable``), such as ENOENT or EACCES.
    public var systemErrno: Int32?

    public init(
        kind: Kind, code: Int = 0, message: String, reason: String? = nil, pointer: String? = nil, limit: Int? = nil,
        data: HeraldJSON? = nil, systemErrno: Int32? = nil
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.reason = reason
        self.pointer = pointer
        self.limit = limit
        self.data = data
        self.systemErrno = systemErrno
    }

    public var description: String {
        guard kind == .answered else { return "\(kind): \(message)" }
        return "\(code) \(message)" + (pointer.map { " at \($0)" } ?? "") + (reason.map { ": \($0)" } ?? "")
    }

    /// The error object of an answer, as heraldd wrote it: what heraldctl prints.
    package var errorObject: JSONValue?

    /// The error of an answer's `error` member.
    init(answer error: JSONValue) {
        let data = error.member("data")
        self.init(
            kind: .answered,
            code: error.member("code")?.integer ?? 0,
            message: error.member("message")?.string ?? "",
            reason: data?.member("reason")?.string,
            pointer: data?.member("pointer")?.string,
            limit: data?.member("limit")?.integer,
            data: data.flatMap { try? HeraldJSON(reading: $0) }
        )
        errorObject = error
    }
}

extension HeraldJSON {
    /// The value of a JSON value read by HeraldProtocol's parser.
    init(reading value: JSONValue) throws {
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        self = try JSONDecoder().decode(HeraldJSON.self, from: Data(bytes))
    }
}

extension JSONValue {
    /// The member `name` of an object, else nil.
    func member(_ name: String) -> JSONValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var integer: Int? {
        if case .number(let value) = self { return value.intValue }
        return nil
    }
}
