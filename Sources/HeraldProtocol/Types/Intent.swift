/// What an interaction is: a message or a call, told apart by the `type` member.
///
/// `indirect`, so that an interaction stores only a reference to its intent: the store
/// keeps a million of them.
public indirect enum Intent: Codable, Sendable, Hashable {
    case sendMessage(SendMessageIntent)
    case startCall(StartCallIntent)

    public var type: IntentType {
        switch self {
        case .sendMessage: .sendMessage
        case .startCall: .startCall
        }
    }

    private enum TypeKey: String, CodingKey {
        case type
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch IntentType(rawValue: type) {
        case .sendMessage:
            self = .sendMessage(try SendMessageIntent(from: decoder))
        case .startCall:
            self = .startCall(try StartCallIntent(from: decoder))
        case nil:
            let allowed = IntentType.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .type,
                in: container,
                debugDescription:
                    "\(JSONPointer.subject(decoder.jsonPointer + "/type")) must be one of \(allowed); got \(JSONValue.string(type).compactText)."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type.rawValue, forKey: .type)
        switch self {
        case .sendMessage(let intent): try intent.encode(to: encoder)
        case .startCall(let intent): try intent.encode(to: encoder)
        }
    }
}

/// The `type` of an intent, also the `communication.type` of a notification.
public enum IntentType: String, JSONEnum, Hashable {
    case sendMessage
    case startCall
}
