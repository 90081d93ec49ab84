/// A JSON-RPC method Herald serves: its name, its params and its result, together —
/// one conforming type per method, in `Methods/`, as sourcekit-lsp does for LSP requests.
///
/// Params are by name only. A request without `params` decodes its params from `{}`,
/// so a method whose members are all optional can be called without any.
public protocol HeraldMethod: Sendable {
    associatedtype Params: Decodable & Sendable
    associatedtype Result: Encodable & Sendable

    /// The method's wire name, kebab-case: `donate`, `update-content`.
    static var name: String { get }

    /// Whether only administrators (uid 0, the daemon's uid, `--admin-group`) may call it;
    /// others get error 1006.
    static var requiresAdministrator: Bool { get }
}

extension HeraldMethod {
    public static var requiresAdministrator: Bool { false }
}

/// The params of a method that takes none (a request may still send `{}`).
public struct NoParams: Codable, Sendable, Hashable {
    public init() {}
}
