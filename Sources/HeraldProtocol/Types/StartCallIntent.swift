/// A call made or received (`INStartCallIntent`).
///
/// The first of `contacts` is the caller of an incoming call; a call with more than one
/// contact is a group call.
package struct StartCallIntent: Codable, Sendable, Hashable {
    package var contacts: [Person]
    package var callCapability: CallCapability?
    package var destinationType: CallDestinationType?
    package var audioRoute: CallAudioRoute?
    /// The call record to call back (`INCallRecord`), passed through as sent.
    package var callRecordToCallBack: JSONValue?
    package var groupImage: NotificationImage?

    package init(
        contacts: [Person],
        callCapability: CallCapability? = nil,
        destinationType: CallDestinationType? = nil,
        audioRoute: CallAudioRoute? = nil,
        callRecordToCallBack: JSONValue? = nil,
        groupImage: NotificationImage? = nil
    ) {
        self.contacts = contacts
        self.callCapability = callCapability
        self.destinationType = destinationType
        self.audioRoute = audioRoute
        self.callRecordToCallBack = callRecordToCallBack
        self.groupImage = groupImage
    }
}

/// Audio or video (`INCallCapability`).
package enum CallCapability: String, JSONEnum, Hashable {
    case audioCall
    case videoCall
}

/// Where a call goes (`INCallDestinationType`).
package enum CallDestinationType: String, JSONEnum, Hashable {
    case unknown
    case normal
    case emergency
    case voicemail
    case redial
    case callBack
}

/// Where a call's audio plays (`INCallAudioRoute`).
package enum CallAudioRoute: String, JSONEnum, Hashable {
    case unknown
    case speakerphone
    case bluetooth
}

extension StartCallIntent {
    /// Reads its members from the intent's object, beside `type` (see ``Intent``).
    init(reading members: inout ParamsObjectReader) throws(RPCError) {
        self.init(
            contacts: try members.required("contacts"),
            callCapability: try members.optional("callCapability"),
            destinationType: try members.optional("destinationType"),
            audioRoute: try members.optional("audioRoute"),
            callRecordToCallBack: try members.optional("callRecordToCallBack"),
            groupImage: try members.optional("groupImage")
        )
    }
}
