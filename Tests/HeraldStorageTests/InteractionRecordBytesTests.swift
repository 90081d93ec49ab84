import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// The interactions section's bytes, as the store-wide visit and the writer make them,
/// against the layout written out plainly: each position of the donation order looked up
/// in turn and each member appended byte by byte, as ``InteractionRecordLayout`` says. The
/// format does not change when the writer gets faster.
@Suite("Interaction record bytes")
struct InteractionRecordBytesTests {
    typealias F = SnapshotFixtures

    @Test("The section is byte for byte the plain layout, for every kind of record, across chunks and threads")
    func sectionMatchesThePlainLayout() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("InteractionRecordBytesTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        var state = try F.fullState()
        state.configuration.maxInteractions = 200_000
        state.configuration.maxInteractionsPerUID = 200_000
        let total = InteractionRecordLayout.chunkSize + 3000
        for index in 0..<total {
            try F.donate(&state, Self.interaction(index, &random), at: F.now + Double(index) / 7)
        }
        // Stale entries in the donation order, and a key stored again under a later sequence.
        for index in stride(from: 0, to: total, by: 5) {
            _ = try state.deleteInteractions(DeleteInteractionsParams(app: F.app, identifiers: ["i\(index)"]), caller: F.user, now: F.now)
        }
        for index in stride(from: 0, to: total, by: 35) {
            try F.donate(&state, Self.interaction(index, &random), at: F.now + 9999)
        }
        let plain = Self.plainSection(state)
        for parallel in [nil, runOnEveryCore] as [ParallelWork?] {
            var written: [UInt8] = []
            try InteractionsSection.write(state, to: &written, parallel: parallel)
            // One Bool: a failing comparison of two long arrays is diffed for minutes.
            let same = written == plain
            #expect(same, "seed \(seed), parallel: \(parallel != nil), \(written.count) bytes against \(plain.count)")
        }
        #expect(state.storedRecordPositions.count > InteractionRecordLayout.chunkSize, "more than one chunk")
    }

    @Test("A donation's change-log record holds the same interaction bytes")
    func donationRecordMatchesThePlainLayout() {
        var random = SeededRandom(seed: 44)
        for index in 0..<200 {
            let interaction = Self.interaction(index, &random)
            var body: [UInt8] = []
            ChangeRecord.encodeDonation(by: F.user, appliedAt: F.now, app: F.app, record: EncodedInteraction(interaction), into: &body)
            var plain = PlainLayout()
            plain.interaction(interaction)
            #expect(body.suffix(plain.bytes.count).elementsEqual(plain.bytes))
        }
    }

    /// Interactions of every shape: messages with and without each member, calls, rare
    /// members (images, name components, metadata, call records), strings of one to four
    /// UTF-8 bytes a character, and long enough for a two-byte length.
    static func interaction(_ index: Int, _ random: inout SeededRandom) -> Interaction {
        let texts = ["", "a", "Grüße", "日本語のテキスト", "👩‍👩‍👧 🎉", String(repeating: "long ", count: 40), "e\u{301}"]
        func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
        func word() -> String { "w" + text() }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { random.next() % 3 == 0 ? nil : value() }
        func person() -> Person {
            var person = Person(displayName: maybe("Person \(text())"))
            if random.next() % 2 == 0 {
                person.handle = PersonHandle(value: "h\(index)\(text())", type: maybe(.emailAddress))
            }
            if random.next() % 5 == 0 { person.nameComponents = NameComponents(givenName: word(), familyName: "Moss") }
            if random.next() % 9 == 0 { person.image = F.image }
            person.contactIdentifier = maybe("contact-\(index % 13)")
            if random.next() % 4 == 0 { person.customIdentifier = word() }
            if random.next() % 4 == 0 { person.aliases = [PersonHandle(value: word()), PersonHandle(value: "+1 555", type: .phoneNumber)] }
            if random.next() % 6 == 0 { person.suggestionType = .socialProfile }
            if random.next() % 6 == 0 { person.isMe = false }
            if person.handle == nil && person.displayName == nil { person.displayName = "P" }
            return person
        }
        let identifier = "i\(index)"
        if random.next() % 4 == 0 {
            var call = StartCallIntent(contacts: (0..<1 + Int(random.next() % 2)).map { _ in person() })
            call.callCapability = maybe(.audioCall)
            call.destinationType = maybe(.redial)
            call.audioRoute = maybe(.speakerphone)
            if random.next() % 7 == 0 { call.callRecordToCallBack = ["id": .string("rec-\(index)"), "n": [1, 2.5, nil]] }
            if random.next() % 9 == 0 { call.groupImage = F.image }
            return Interaction(identifier: identifier, direction: .incoming, date: maybe(F.now - 60), intent: .startCall(call))
        }
        var message = SendMessageIntent(conversationIdentifier: "c\(index % 40)\(text())")
        let outgoing = random.next() % 5 == 0
        if !outgoing { message.sender = person() }
        if outgoing || random.next() % 3 == 0 { message.recipients = (0..<1 + Int(random.next() % 3)).map { _ in person() } }
        message.content = maybe(text())
        message.speakableGroupName = maybe(word())
        message.serviceName = maybe("sms")
        if outgoing { message.outgoingMessageType = maybe(.audio) }
        if random.next() % 9 == 0 { message.groupImage = F.image }
        if random.next() % 8 == 0 { message.donationMetadata = DonationMetadata(recipientCount: 3, mentionsCurrentUser: true) }
        return Interaction(
            identifier: identifier, groupIdentifier: maybe("g\(index % 11)"), direction: outgoing ? .outgoing : .incoming,
            date: maybe(F.now - Double(index)), intent: .sendMessage(message))
    }

    /// The section as the layout describes it: app names, then chunks of
    /// ``InteractionRecordLayout/chunkSize`` positions, each position looked up in turn.
    static func plainSection(_ state: HeraldState) -> [UInt8] {
        var section: [UInt8] = []
        section.appendStrings(state.storedAppNames)
        let positions = state.storedRecordPositions
        var chunks: [[UInt8]] = []
        for start in stride(from: positions.lowerBound, to: positions.upperBound, by: InteractionRecordLayout.chunkSize) {
            var plain = PlainLayout()
            state.forEachStoredRecord(at: start..<min(start + InteractionRecordLayout.chunkSize, positions.upperBound)) { record in
                plain.varint(UInt64(record.uid))
                plain.varint(UInt64(record.app))
                plain.double(record.donatedAt.timeIntervalSinceReferenceDate)
                plain.interaction(record.interaction)
            }
            if !plain.bytes.isEmpty { chunks.append(plain.bytes) }
        }
        section.appendVarint(UInt64(chunks.count))
        for chunk in chunks { section.appendLengthPrefixed(chunk) }
        return section
    }
}

/// ``InteractionRecordLayout`` written out member by member, a byte at a time: the
/// test's own reading of the layout, not Storage's writer.
private struct PlainLayout {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Flags: a varint padded to three bytes.
    mutating func flags(_ value: UInt64) {
        bytes += [UInt8(value & 0x7F) | 0x80, UInt8((value >> 7) & 0x7F) | 0x80, UInt8(value >> 14)]
    }

    mutating func double(_ value: Double) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> UInt64(shift))) }
    }

    mutating func string(_ value: String) {
        varint(UInt64(value.utf8.count))
        for byte in value.utf8 { bytes.append(byte) }
    }

    mutating func rare(_ json: JSONValue) {
        var text: [UInt8] = []
        json.write(to: &text)
        varint(UInt64(text.count))
        bytes += text
    }

    mutating func index<T: Equatable>(_ value: T, _ table: [T]) {
        bytes.append(UInt8(table.firstIndex(of: value)!))
    }

    /// Members in record order; each present one sets its bit, counted from 0 in the
    /// order `InteractionRecordFlags` lists them.
    mutating func interaction(_ interaction: Interaction) {
        var body = PlainLayout()
        var bits: UInt64 = 0
        body.string(interaction.identifier ?? "")
        if let group = interaction.groupIdentifier { bits |= 1 << 0; body.string(group) }
        if let date = interaction.date { bits |= 1 << 1; body.double(date.timeIntervalSinceReferenceDate) }
        if interaction.direction == .outgoing { bits |= 1 << 2 }
        switch interaction.intent {
        case .sendMessage(let message):
            if let sender = message.sender { bits |= 1 << 4; body.person(sender) }
            if let recipients = message.recipients { bits |= 1 << 5; body.people(recipients) }
            if let content = message.content { bits |= 1 << 6; body.string(content) }
            if let name = message.speakableGroupName { bits |= 1 << 7; body.string(name) }
            body.string(message.conversationIdentifier)
            if let service = message.serviceName { bits |= 1 << 8; body.string(service) }
            if let type = message.outgoingMessageType { bits |= 1 << 9; body.index(type, [OutgoingMessageType.text, .audio]) }
            if let image = message.groupImage { bits |= 1 << 10; body.rare(ImageRecord.json(image, .snapshot)) }
            if let metadata = message.donationMetadata { bits |= 1 << 11; body.rare(DonationMetadataRecord.json(metadata, .snapshot)) }
        case .startCall(let call):
            bits |= 1 << 3
            body.people(call.contacts)
            if let capability = call.callCapability { bits |= 1 << 12; body.index(capability, [CallCapability.audioCall, .videoCall]) }
            if let destination = call.destinationType {
                bits |= 1 << 13
                body.index(destination, [CallDestinationType.unknown, .normal, .emergency, .voicemail, .redial, .callBack])
            }
            if let route = call.audioRoute { bits |= 1 << 14; body.index(route, [CallAudioRoute.unknown, .speakerphone, .bluetooth]) }
            if let record = call.callRecordToCallBack { bits |= 1 << 15; body.rare(ClientJSON.pairs(record)) }
            if let image = call.groupImage { bits |= 1 << 16; body.rare(ImageRecord.json(image, .snapshot)) }
        }
        flags(bits)
        bytes += body.bytes
    }

    mutating func people(_ people: [Person]) {
        varint(UInt64(people.count))
        for person in people { self.person(person) }
    }

    mutating func person(_ person: Person) {
        var body = PlainLayout()
        var bits: UInt64 = 0
        let handleTypes: [PersonHandleType] = [.unknown, .emailAddress, .phoneNumber]
        if let handle = person.handle {
            bits |= 1 << 0
            body.string(handle.value)
            if let type = handle.type { bits |= 1 << 1; body.index(type, handleTypes) }
        }
        if let name = person.displayName { bits |= 1 << 2; body.string(name) }
        if let components = person.nameComponents { bits |= 1 << 3; body.rare(NameComponentsRecord.json(components, .snapshot)) }
        if let image = person.image { bits |= 1 << 4; body.rare(ImageRecord.json(image, .snapshot)) }
        if let contact = person.contactIdentifier { bits |= 1 << 5; body.string(contact) }
        if let custom = person.customIdentifier { bits |= 1 << 6; body.string(custom) }
        if let aliases = person.aliases {
            bits |= 1 << 7
            body.varint(UInt64(aliases.count))
            for alias in aliases {
                body.bytes.append(alias.type == nil ? 0 : 1)
                body.string(alias.value)
                if let type = alias.type { body.index(type, handleTypes) }
            }
        }
        if let suggestion = person.suggestionType {
            bits |= 1 << 8
            body.index(suggestion, [PersonSuggestionType.none, .socialProfile, .instantMessageAddress])
        }
        if let isMe = person.isMe { bits |= 1 << 9 | (isMe ? 1 << 10 : 0) }
        flags(bits)
        bytes += body.bytes
    }
}
