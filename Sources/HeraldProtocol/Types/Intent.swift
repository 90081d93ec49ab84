/// What an interaction is: a message or a call, told apart by the `type` member.
///
/// `indirect`, so that an interaction stores only a reference to its intent: the store
/// keeps a million of them.
package indirect enum Intent: Codable, Sendable, Hashable {
    case sendMessage(SendMessageIntent)
    case startCall(StartCallIntent)

    package var type: IntentType {
        switch self {
        case .sendMessage: .sendMessage
        case .startCall: .startCall
        }
    }

    private enum TypeKey: String, CodingKey {
        case type
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch IntentType(rawValue: type) {
        case .sendMessage:
            self = .sendMessage(try SendMessageIntent(from: decoder))
        case .startCall:
            self = .startCall(try StartCallIntent(from: decoder))
        case nil:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "An intent's type \(IntentType.notOneOf(type))")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type.rawValue, forKey: .type)
        switch self {
        case .sendMessage(let intent): try intent.encode(to: encoder)
        case .startCall(let intent): try intent.encode(to: encoder)
        }
    }
}

extension Intent: ParamsReadable {
    /// `type` says which intent's members the same object holds.
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            let type = try members.required("type", as: IntentType.self)
            return switch type {
            case .sendMessage: .sendMessage(try SendMessageIntent(reading: &members))
            case .startCall: .startCall(try StartCallIntent(reading: &members))
            }
        }
    }
}

/// The `type` of an intent, also the `communication.type` of a notification.
package enum IntentType: String, JSONEnum, Hashable {
    case sendMessage
    case startCall
}
