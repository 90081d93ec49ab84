import HeraldProtocol

/// How one stored interaction is laid out in a snapshot's record chunks: the bits that
/// say which members are present, and the numbers that stand for enum cases.
///
/// A record is, in order:
/// - `uid`, `app` (varints), `donatedAt` (8 bytes: the bit pattern of its
///   `timeIntervalSinceReferenceDate`), the record's ``Flags`` (a varint padded to
///   ``flagsWidth`` bytes);
/// - `identifier`, then `groupIdentifier` and `date` when their flags are set;
/// - a message: `sender` and `recipients` (a varint count of people) when set, `content`,
///   `speakableGroupName` when set, `conversationIdentifier`, then `serviceName`,
///   `outgoingMessageType`, `groupImage` and `donationMetadata` when set;
/// - a call: `contacts` (a count of people), then `callCapability`, `destinationType`,
///   `audioRoute`, `callRecordToCallBack` and `groupImage` when set.
///
/// A person is its ``PersonFlags`` (a varint padded likewise), then each member that is present: `handle`
/// (its value, then its type when set), `displayName`, `nameComponents`, `image`,
/// `contactIdentifier`, `customIdentifier`, `aliases` (a count, then each alias as a byte
/// saying whether a type follows, its value and its type), `suggestionType`.
///
/// Strings are a varint length and UTF-8; enum cases one byte, their index in the tables
/// below; the rarely set members (images, name components, donation metadata, a call
/// record) a varint length and their JSON (in format version 1, a payload of the generic
/// binary coder Herald had then, which ``TaggedPayload`` reads). Absent members take no
/// bytes at all, which is what makes a record of a typical message about 200 bytes and
/// its encoding a few hundred nanoseconds.
enum InteractionRecordLayout {
    struct Flags: OptionSet {
        let rawValue: UInt64

        static let hasGroupIdentifier = Flags(rawValue: 1 << 0)
        static let hasDate = Flags(rawValue: 1 << 1)
        static let outgoing = Flags(rawValue: 1 << 2)
        static let startCall = Flags(rawValue: 1 << 3)
        // A message's members.
        static let hasSender = Flags(rawValue: 1 << 4)
        static let hasRecipients = Flags(rawValue: 1 << 5)
        static let hasContent = Flags(rawValue: 1 << 6)
        static let hasSpeakableGroupName = Flags(rawValue: 1 << 7)
        static let hasServiceName = Flags(rawValue: 1 << 8)
        static let hasOutgoingMessageType = Flags(rawValue: 1 << 9)
        static let hasMessageGroupImage = Flags(rawValue: 1 << 10)
        static let hasDonationMetadata = Flags(rawValue: 1 << 11)
        // A call's members.
        static let hasCallCapability = Flags(rawValue: 1 << 12)
        static let hasDestinationType = Flags(rawValue: 1 << 13)
        static let hasAudioRoute = Flags(rawValue: 1 << 14)
        static let hasCallRecordToCallBack = Flags(rawValue: 1 << 15)
        static let hasCallGroupImage = Flags(rawValue: 1 << 16)

        /// Every bit this build knows; a record with another is refused as damaged.
        static let known = Flags(rawValue: (1 << 17) - 1)
    }

    struct PersonFlags: OptionSet {
        let rawValue: UInt64

        static let hasHandle = PersonFlags(rawValue: 1 << 0)
        static let hasHandleType = PersonFlags(rawValue: 1 << 1)
        static let hasDisplayName = PersonFlags(rawValue: 1 << 2)
        static let hasNameComponents = PersonFlags(rawValue: 1 << 3)
        static let hasImage = PersonFlags(rawValue: 1 << 4)
        static let hasContactIdentifier = PersonFlags(rawValue: 1 << 5)
        static let hasCustomIdentifier = PersonFlags(rawValue: 1 << 6)
        static let hasAliases = PersonFlags(rawValue: 1 << 7)
        static let hasSuggestionType = PersonFlags(rawValue: 1 << 8)
        static let hasIsMe = PersonFlags(rawValue: 1 << 9)
        static let isMe = PersonFlags(rawValue: 1 << 10)

        static let known = PersonFlags(rawValue: (1 << 11) - 1)
    }

    // The numbers of enum cases, by position. Snapshots depend on them: only append.
    // A test checks that each table holds every case once.
    static let handleTypes: [PersonHandleType] = [.unknown, .emailAddress, .phoneNumber]
    static let suggestionTypes: [PersonSuggestionType] = [.none, .socialProfile, .instantMessageAddress]
    static let outgoingMessageTypes: [OutgoingMessageType] = [.text, .audio]
    static let callCapabilities: [CallCapability] = [.audioCall, .videoCall]
    static let destinationTypes: [CallDestinationType] = [.unknown, .normal, .emergency, .voicemail, .redial, .callBack]
    static let audioRoutes: [CallAudioRoute] = [.unknown, .speakerphone, .bluetooth]

    /// Records per chunk. Chunks are decoded in parallel at start.
    static let chunkSize = 1 << 16

    /// The fewest bytes the reader accepts as a record: uid, app, flags, an empty
    /// identifier and an empty conversation (or no contacts) a byte each, the donation
    /// time eight. Bounds what a chunk's byte count lets the decoder reserve.
    static let minimumRecordSize = 13

    /// The bytes a record's or a person's flags take: a varint padded to three bytes
    /// (21 bits), so that the writer can fill them in after the members.
    static let flagsWidth = 3
}
