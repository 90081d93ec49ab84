import Foundation
import HeraldProtocol

@testable import HeraldCore
@testable import HeraldStorage

/// States that fill every piece a snapshot keeps, built through the rules.
enum SnapshotFixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let app = "org.example.chat"
    static let otherApp = "org.example.phone"
    static let user = Caller(uid: 1000, gid: 1000, pid: 10, isAdministrator: false)
    static let otherUser = Caller(uid: 1001, gid: 1001, pid: 11, isAdministrator: false)
    static let admin = Caller(uid: 0, gid: 0, pid: 1, isAdministrator: true)

    static let bo = Person(handle: PersonHandle(value: "+1 555 0100", type: .phoneNumber), displayName: "Bo")
    static let cy = Person(handle: PersonHandle(value: "cy"), displayName: "Cy")
    static let image = NotificationImage(data: "aGVsbG8=", mimeType: "image/png")

    /// Every member of a person set.
    static let eve = Person(
        handle: PersonHandle(value: "eve@example.org", type: .emailAddress),
        displayName: "Eve Moss",
        nameComponents: NameComponents(givenName: "Eve", familyName: "Moss", nickname: "E"),
        image: image,
        contactIdentifier: "contact-7",
        customIdentifier: "custom-7",
        aliases: [PersonHandle(value: "+44 20 7946 0000", type: .phoneNumber), PersonHandle(value: "eve")],
        suggestionType: .instantMessageAddress,
        isMe: false
    )

    static func message(_ identifier: String, sender: Person? = eve, conversation: String = "c1", anyway: Bool = false) -> Interaction {
        var message = SendMessageIntent(
            sender: sender,
            recipients: [bo, cy],
            content: "Lunch?",
            speakableGroupName: "Trip",
            conversationIdentifier: conversation
        )
        message.serviceName = "sms"
        message.groupImage = image
        message.donationMetadata = DonationMetadata(recipientCount: 3, mentionsCurrentUser: true, notifyRecipientAnyway: anyway)
        return Interaction(identifier: identifier, groupIdentifier: "g-trip", direction: .incoming, date: now - 60, intent: .sendMessage(message))
    }

    static func call(_ identifier: String, record: JSONValue? = nil) -> Interaction {
        let call = StartCallIntent(
            contacts: [bo, eve],
            callCapability: .videoCall,
            destinationType: .callBack,
            audioRoute: .bluetooth,
            callRecordToCallBack: record,
            groupImage: image
        )
        return Interaction(identifier: identifier, direction: .incoming, intent: .startCall(call))
    }

    static func donate(_ state: inout HeraldState, _ interaction: Interaction, app: String = app, caller: Caller = user, at time: Date = now)
        throws
    {
        _ = try state.donate(DonateParams(app: app, interaction: interaction), caller: caller, now: time)
    }

    /// Every piece filled: interactions of every kind (an outgoing message of an audio
    /// type, calls with a record to call back), a forgotten app's slot, a Focus with an
    /// end and allowed people, a silenced conversation, a summary, settings of two apps.
    static func fullState() throws -> HeraldState {
        var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
        _ = try state.setFocusAuthorization(.init(app: app, uid: 1000, status: .authorized), caller: admin, now: now)
        _ = try state.setCapabilities(.init(app: otherApp, uid: 1001, critical: true), caller: admin, now: now)
        _ = try state.setSummary(.init(apps: ["org.example.news", app], times: ["18:30", "08:00"], uid: 1000), caller: admin, now: now)
        try donate(&state, message("m1"))
        var outgoing = SendMessageIntent(recipients: [eve], conversationIdentifier: "c-eve")
        outgoing.outgoingMessageType = .audio
        try donate(&state, Interaction(identifier: "m2", direction: .outgoing, intent: .sendMessage(outgoing)))
        try donate(&state, call("k1", record: ["id": "rec-1", "missed": true, "n": [1, 2.5, nil]]), app: otherApp, caller: otherUser)
        try donate(&state, call("k2"), app: otherApp)
        try donate(&state, message("gone", conversation: "c-gone"), app: "org.example.old")
        _ = try state.deleteInteractions(DeleteInteractionsParams(app: "org.example.old", all: true), caller: user, now: now)
        _ = try state.setFocus(
            SetFocusParams(focus: FocusConfiguration(name: "Work", allowedPeople: [cy], until: now + 3600.25), uid: 1000),
            caller: admin,
            now: now
        )
        try donate(&state, message("m3", conversation: "c-silenced", anyway: true), at: now + 1)
        _ = try state.updateContent(
            UpdateContentParams(app: app, interactionIdentifier: "m3", content: NotificationContent(title: "Eve", body: "Lunch?")),
            caller: user,
            now: now + 1
        )
        _ = try state.setConversation(
            SetConversationParams(app: app, conversationIdentifier: "c-silenced", mute: ConversationMute(seconds: 600.5)), caller: user, now: now)
        _ = try state.setConversation(SetConversationParams(app: app, conversationIdentifier: "c-eve", priority: true), caller: user, now: now)
        return state
    }

    /// `state` as a person reads a snapshot of it: every piece, as JSON.
    static func json(_ state: HeraldState) throws -> String {
        String(decoding: SnapshotFile.inspectionJSON(state), as: UTF8.self)
    }

    /// The bytes of a snapshot file of `state`.
    static func file(_ state: HeraldState, parallel: ParallelWork? = nil) throws -> [UInt8] {
        let file = try SnapshotFile(encoding: state, generation: 3, now: now, parallel: parallel)
        return file.header.bytes + file.payload
    }

    /// The sections of a file this build wrote for `state`, with the notification list as
    /// formats 3 to 6 kept it: JSON, in place of its records.
    static func sectionsOfFormat6(_ state: HeraldState) throws -> [(name: String, bytes: [UInt8])] {
        try sections(of: try file(state)).map { section in
            guard section.name == NotificationRecordsSection.name else { return section }
            var json: [UInt8] = []
            try NotificationsSection.write(state, to: &json, parallel: nil)
            return (NotificationsSection.name, json)
        }
    }

    /// A file of `state` as a heraldd of format 6 wrote it.
    static func fileOfFormat6(_ state: HeraldState) throws -> [UInt8] {
        sealed(payload(try sectionsOfFormat6(state)), interactions: state.interactionCount, version: 6)
    }

    /// A file of `payload` behind a header whose checksums hold, counting `interactions`.
    static func sealed(_ payload: [UInt8], interactions: Int, version: UInt32 = SnapshotHeader.currentVersion) -> [UInt8] {
        var header = SnapshotHeader(
            generation: 3,
            createdAt: now,
            interactions: UInt64(interactions),
            payloadLength: UInt64(payload.count),
            payloadChecksum: CRC32C.checksum(payload)
        )
        header.version = version
        header.encoding = version == 1 ? SnapshotHeader.version1Encoding : SnapshotHeader.sectionsEncoding
        return header.bytes + payload
    }

    /// A payload of sections named and filled as given, in order. A `leading-checksum`
    /// section among them is sealed again over the sections after it up to the first of
    /// the store's, as heraldd writes it, so that a test's change to one is not damage.
    static func payload(_ sections: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var payload: [UInt8] = []
        var leading: Range<Int>?
        let storeNames = Set(SnapshotPayload.sections.filter { $0.isStore }.map { $0.name })
        for section in sections {
            if let range = leading, storeNames.contains(section.name) {
                LeadingChecksumSection.seal(&payload, at: range, covering: payload.count - range.upperBound)
                leading = nil
            }
            payload.appendString(section.name)
            payload.appendFixed(UInt64(section.bytes.count), size: 8)
            payload += section.bytes
            if section.name == LeadingChecksumSection.name, section.bytes.count == LeadingChecksumSection.byteCount {
                leading = (payload.count - section.bytes.count)..<payload.count
            }
        }
        if let range = leading { LeadingChecksumSection.seal(&payload, at: range, covering: payload.count - range.upperBound) }
        return payload
    }

    /// The sections of a payload this build wrote, by name, in order.
    static func sections(of file: [UInt8]) throws -> [(name: String, bytes: [UInt8])] {
        try file.withUnsafeBytes { raw in
            var input = PayloadReader(raw, range: SnapshotHeader.size..<raw.count)
            var sections: [(name: String, bytes: [UInt8])] = []
            while !input.isAtEnd {
                let name = try input.string()
                let range = try input.span(try input.fixed(8))
                sections.append((name, Array(file[range])))
            }
            return sections
        }
    }
}
