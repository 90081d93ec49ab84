/// A string enumeration on the wire whose decoding error lists the accepted values.
///
/// Conform a `String` enum and it reads and writes its raw value; an unknown value fails
/// with "`/interaction/direction` must be one of incoming, outgoing, unspecified; got
/// \"sideways\"." (the pointer includes `JSONValueDecoder`'s prefix). It is also
/// `JSONDirectDecodable`, so the params of hot methods read it without `Codable`.
public protocol JSONEnum: RawRepresentable, CaseIterable, Codable, Sendable, JSONDirectDecodable
where RawValue == String {}

extension JSONEnum {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let rawValue = try container.decode(String.self)
        guard let value = Self(rawValue: rawValue) else {
            let accepted = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "\(JSONPointer.subject(decoder.jsonPointer)) must be one of \(accepted); got \(JSONValue.string(rawValue).compactText)."
                )
            )
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
