import HeraldProtocol

/// How one stored interaction is laid out in a snapshot's record chunks: the numbers that
/// stand for enum cases, and the sizes. The bits that say which members are present are
/// ``InteractionRecordFlags`` and ``PersonRecordFlags``.
///
/// Strings are a varint length and UTF-8; enum cases one byte, their index in the tables
/// below; the rarely set members (images, name components, donation metadata, a call
/// record) a varint length and their JSON (in format version 1, a payload of the generic
/// binary coder Herald had then, which ``TaggedPayload`` reads). Absent members take no
/// bytes at all, which is what makes a record of a typical message about 200 bytes and
/// its encoding a few hundred nanoseconds.
package enum InteractionRecordLayout {
    // The numbers of enum cases, by position. Snapshots depend on them: only append.
    // A test checks that each table holds every case once.
    package static let handleTypes: [PersonHandleType] = [.unknown, .emailAddress, .phoneNumber]
    package static let suggestionTypes: [PersonSuggestionType] = [.none, .socialProfile, .instantMessageAddress]
    package static let outgoingMessageTypes: [OutgoingMessageType] = [.text, .audio]
    package static let callCapabilities: [CallCapability] = [.audioCall, .videoCall]
    package static let destinationTypes: [CallDestinationType] = [.unknown, .normal, .emergency, .voicemail, .redial, .callBack]
    package static let audioRoutes: [CallAudioRoute] = [.unknown, .speakerphone, .bluetooth]

    /// Records per chunk. Chunks are decoded in parallel at start.
    package static let chunkSize = 1 << 16

    /// The fewest bytes the reader accepts as a record: uid, app, flags, an empty
    /// identifier and an empty conversation (or no contacts) a byte each, the donation
    /// time eight. Bounds what a chunk's byte count lets the decoder reserve.
    package static let minimumRecordSize = 13

    /// The bytes a record's or a person's flags take: a varint padded to three bytes
    /// (21 bits), so that the writer can fill them in after the members.
    package static let flagsWidth = 3
}
