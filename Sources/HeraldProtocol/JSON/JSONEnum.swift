/// A string enumeration on the wire whose error lists the accepted values.
///
/// Conform a `String` enum and it reads and writes its raw value; in params an unknown
/// value fails with "`/interaction/direction` must be one of incoming, outgoing; got
/// \"sideways\"." (see `ParamsReadable`). `Codable` is for clients and the snapshot.
package protocol JSONEnum: RawRepresentable, CaseIterable, Codable, Sendable, ParamsReadable
where RawValue == String {}

extension JSONEnum {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let rawValue = try container.decode(String.self)
        guard let value = Self(rawValue: rawValue) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "A \(Self.self) \(Self.notOneOf(rawValue))")
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
