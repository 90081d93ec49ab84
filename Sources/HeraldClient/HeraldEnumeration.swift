/// A protocol enum (`InterruptionLevel`, `Presentation`, …): a `static let` per value the
/// client knows, and any other value a newer heraldd sends kept as it came.
public protocol HeraldEnumeration: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension HeraldEnumeration {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
}
