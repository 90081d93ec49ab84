import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldStorage

/// Records as a test writes them: requests' params, donations as stored (every third),
/// a verified app, drawn identifiers.
private func records(_ count: Int) -> [ChangeRecord] {
    (0..<count).map(record)
}

private func caller(_ index: Int) -> Caller {
    let app: AppIdentity? = index % 3 == 0 ? AppIdentity(id: "org.example.chat", source: .flatpak) : nil
    return Caller(uid: 1000 + UInt32(index), gid: 100, pid: Int32(index), isAdministrator: index == 3, app: app)
}

private func record(_ index: Int) -> ChangeRecord {
    index % 3 == 1 ? donation(index) : request(index)
}

/// A donation's record: a message with its people, or a call, with rare members (a name's
/// components, donation metadata) among them.
private func donation(_ index: Int) -> ChangeRecord {
    let person = Person(
        handle: PersonHandle(value: "p\(index)@example.org", type: .emailAddress), displayName: "Person \(index)",
        nameComponents: index % 2 == 0 ? NameComponents(givenName: "Ann", familyName: "Ö") : nil)
    let intent: Intent =
        index % 4 == 1
        ? .sendMessage(
            SendMessageIntent(
                sender: person, recipients: [Person(displayName: "Me", isMe: true)], content: "digest-\(index)",
                conversationIdentifier: "c\(index % 5)", serviceName: "chat",
                donationMetadata: DonationMetadata(mentionsCurrentUser: true)))
        : .startCall(StartCallIntent(contacts: [person], callCapability: .videoCall, destinationType: .normal))
    let interaction = Interaction(
        identifier: "i\(index)", groupIdentifier: index % 2 == 0 ? "g" : nil, direction: index % 5 == 0 ? .outgoing : .incoming,
        date: Date(timeIntervalSince1970: 1_799_000_000.5 + Double(index)), intent: intent)
    return ChangeRecord(
        donationBy: caller(index), appliedAt: Date(timeIntervalSince1970: 1_800_000_000.25 + Double(index)), app: "org.example.chat",
        interaction: interaction)
}

private func request(_ index: Int) -> ChangeRecord {
    let caller = caller(index)
    let params: [UInt8] = Array("{\"app\":\"org.example.chat\",\"n\":\(index)}".utf8)
    let generated: [String] = index % 2 == 0 ? ["id-\(index)"] : []
    return ChangeRecord(
        method: index % 2 == 0 ? "donate" : "update-content", caller: caller,
        appliedAt: Date(timeIntervalSince1970: 1_800_000_000.25 + Double(index)), params: params, generated: generated)
}

/// A new empty folder for a test's segments, for it to remove.
private func temporaryFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-changelog-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

private func segment(_ records: [ChangeRecord], base: UInt64 = 4) -> [UInt8] {
    var bytes = ChangeLogFile.header(baseGeneration: base, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
    for record in records { ChangeLogFile.append(record, to: &bytes) }
    return bytes
}

@Suite("Change log format")
struct ChangeLogFileTests {
    @Test("records read back as written, with their header")
    func roundTrip() throws {
        let written = records(7)
        let reading = try ChangeLogFile.read(segment(written, base: 9))
        #expect(reading.header.baseGeneration == 9)
        #expect(reading.header.version == ChangeLogFile.version)
        #expect(!reading.header.continues)
        #expect(reading.records == written)
        #expect(reading.droppedBytes == 0)
        #expect(reading.problem == nil)
    }

    @Test("a tail torn at every byte keeps the whole records before it, never a partial one")
    func tornTail() throws {
        let written = records(3)
        let whole = segment(written)
        let firstTwo = segment(Array(written.prefix(2))).count
        for cut in firstTwo..<whole.count {
            let reading = try ChangeLogFile.read(Array(whole.prefix(cut)))
            #expect(reading.records == Array(written.prefix(2)), "cut at \(cut)")
            #expect(reading.validLength == firstTwo)
            #expect(reading.droppedBytes == cut - firstTwo)
            #expect((reading.problem != nil) == (cut > firstTwo))
        }
    }

    @Test("a flipped bit in a record drops it and every record after it")
    func badChecksum() throws {
        let written = records(4)
        var bytes = segment(written)
        let secondStart = segment(Array(written.prefix(1))).count
        bytes[secondStart + ChangeLogFile.recordOverhead + 5] ^= 0x10
        let reading = try ChangeLogFile.read(bytes)
        #expect(reading.records == [written[0]])
        #expect(reading.validLength == secondStart)
        #expect(reading.problem?.contains("checksum") == true)
    }

    @Test("a length past the bound is damage, not an allocation")
    func hugeLength() throws {
        var bytes = segment(records(1))
        bytes += [0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]
        let reading = try ChangeLogFile.read(bytes)
        #expect(reading.records.count == 1)
        #expect(reading.problem?.contains("length") == true)
    }

    @Test("read from a file a window at a time, any segment reads as it does whole: cut, damaged, or with records longer than a window")
    func windowsReadAsTheWhole() throws {
        var random = SeededRandom(for: "ChangeLogFileTests.windowsReadAsTheWhole")
        // Records of 60 to some 600 bytes, one of 9,000 (longer than every window below).
        var written = records(40)
        written.insert(
            ChangeRecord(
                method: "donate", caller: caller(1), appliedAt: Date(timeIntervalSince1970: 1_800_000_000),
                params: Array(repeating: UInt8(ascii: "x"), count: 9_000), generated: []), at: 17)
        let whole = segment(written)
        var stopped = 0
        for trial in 0..<300 {
            var bytes = whole
            switch trial % 3 {
            case 0: break
            case 1: bytes.removeLast(Int(random.next() % UInt64(bytes.count - ChangeLogFile.headerSize)))
            default: bytes[ChangeLogFile.headerSize + Int(random.next() % UInt64(bytes.count - ChangeLogFile.headerSize))] ^= 0x40
            }
            let expected = try ChangeLogFile.read(bytes)
            if expected.problem != nil { stopped += 1 }
            for window in [1, 9, 64, 700, 1 + Int(random.next() % 20_000)] {
                var read: [ChangeRecord] = []
                let reading = try ChangeLogFile.read(OpenSnapshotFile(bytes: bytes), window: window) { read.append($0) }
                #expect(read == expected.records, "trial \(trial), window \(window)")
                #expect(reading.recordCount == expected.recordCount, "trial \(trial), window \(window)")
                #expect(reading.validLength == expected.validLength, "trial \(trial), window \(window)")
                #expect(reading.droppedBytes == expected.droppedBytes, "trial \(trial), window \(window)")
                #expect(reading.problem == expected.problem, "trial \(trial), window \(window)")
                #expect(reading.header == expected.header)
            }
        }
        #expect(stopped > 100, "most cut or damaged segments stop before their end")
        // A segment too short for its header is refused the same way.
        #expect(throws: SnapshotFileError.self) { try ChangeLogFile.read(OpenSnapshotFile(bytes: Array(whole.prefix(20)))) { _ in } }
    }

    @Test("a header of a newer version, a damaged one, a short one and another file are refused")
    func headers() throws {
        var newer = segment([])
        newer[8] = UInt8(ChangeLogFile.version + 1)
        // The checksum over the new version, so that only the version is wrong.
        let checksum = newer.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<28])) }
        withUnsafeBytes(of: checksum.littleEndian) { newer.replaceSubrange(28..<32, with: $0) }
        #expect(throws: SnapshotFileError.self) { try ChangeLogFile.read(newer) }
        do {
            _ = try ChangeLogFile.read(newer)
        } catch {
            #expect(error.code == .unsupportedVersion)
        }
        var damaged = segment([])
        damaged[12] ^= 1
        #expect(throws: SnapshotFileError.self) { try ChangeLogFile.read(damaged) }
        #expect(throws: SnapshotFileError.self) { try ChangeLogFile.read(Array(segment([]).prefix(20))) }
        #expect(throws: SnapshotFileError.self) { try ChangeLogFile.read(Array("HRLDSNAP and more bytes than a header".utf8)) }
    }

    @Test("a donation's record holds it as stored, in fewer bytes than its params, and reads back equal")
    func donationRecords() throws {
        let written = (0..<12).map(donation)
        let reading = try ChangeLogFile.read(segment(written))
        #expect(reading.records == written)
        #expect(reading.problem == nil)
        #expect(written.allSatisfy { $0.method == "donate" })
        // A damaged interaction inside a record whose checksum holds is refused, not applied.
        var body: [UInt8] = []
        written[1].encodeBody(into: &body)
        body[body.count - 1] ^= 0xff
        var bytes = segment([written[0]])
        bytes.appendLittleEndian(UInt32(body.count))
        bytes.appendLittleEndian(body.withUnsafeBytes { CRC32C.checksum($0) })
        bytes += body
        let damaged = try ChangeLogFile.read(bytes)
        #expect(damaged.records == [written[0]])
        #expect(damaged.problem?.contains("does not decode") == true, "\(damaged.problem ?? "")")
    }

    @Test("an app name is reused from the record before only when its bytes are the same, and is never unvalidated UTF-8")
    func appNamesReused() throws {
        let interaction = Interaction(
            identifier: "i", direction: .incoming, intent: .sendMessage(SendMessageIntent(content: "digest", conversationIdentifier: "c")))
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let chat = AppIdentity(id: "org.example.chat", source: .flatpak)
        // The same length as the name before, one byte apart: its own name, not the one before.
        let written = [
            ChangeRecord(donationBy: caller(0), appliedAt: at, app: "org.example.chat", interaction: interaction),
            ChangeRecord(donationBy: caller(0), appliedAt: at, app: "org.example.chad", interaction: interaction),
            ChangeRecord(
                donationBy: Caller(uid: 1, gid: 1, pid: 1, isAdministrator: false, app: AppIdentity(id: "org.example.chaT", source: .snap)),
                appliedAt: at, app: "org.example.chad", interaction: interaction),
            ChangeRecord(donationBy: caller(0), appliedAt: at, app: "org.example.chat", interaction: interaction),
        ]
        let reading = try ChangeLogFile.read(segment(written))
        #expect(reading.records == written)
        #expect(reading.records.map { $0.caller.app } == [chat, chat, AppIdentity(id: "org.example.chaT", source: .snap), chat])
        // After a record naming "org.example.chat", one whose app is those bytes with the
        // last not UTF-8 (its checksum holding) is refused, and nothing after it is read.
        var body: [UInt8] = []
        written[0].encodeBody(into: &body)
        let name = Array("org.example.chat".utf8)
        let at16 = try #require((0...(body.count - name.count)).last { Array(body[$0..<($0 + name.count)]) == name })
        body[at16 + name.count - 1] = 0xff
        var bytes = segment([written[0]])
        bytes.appendLittleEndian(UInt32(body.count))
        bytes.appendLittleEndian(body.withUnsafeBytes { CRC32C.checksum($0) })
        bytes += body
        bytes += segment([written[3]]).dropFirst(ChangeLogFile.headerSize)
        let damaged = try ChangeLogFile.read(bytes)
        #expect(damaged.records == [written[0]])
        #expect(damaged.recordCount == 1)
        #expect(damaged.problem?.contains("record 2's checksum holds but it does not decode") == true, "\(damaged.problem ?? "")")
    }

    @Test("an app name reused from the record before is made anew every few hundred records, and reads the same across")
    func appNamesRenewed() throws {
        let interaction = Interaction(
            identifier: "i", direction: .incoming, intent: .sendMessage(SendMessageIntent(content: "digest", conversationIdentifier: "c")))
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let renewal = ChangeRecord.RecentNames.renewal
        // Longer than 15 bytes, so that the name is an object of its own rather than held in place.
        let written = (0..<(2 * renewal + 3)).map { _ in
            ChangeRecord(donationBy: caller(0), appliedAt: at, app: "org.example.chat", interaction: interaction)
        }
        let reading = try ChangeLogFile.read(segment(written))
        #expect(reading.records == written)
        // Where each record's app name is kept: one object for a stretch of records, a new
        // one after `renewal` of them, so that a replay's two threads do not share one.
        let storage = reading.records.map { record -> UnsafeRawPointer? in
            guard case .donation(var app, _) = record.change else { return nil }
            return app.withUTF8 { UnsafeRawPointer($0.baseAddress) }
        }
        #expect(Set(storage[0..<renewal]).count == 1)
        #expect(storage[renewal - 1] != storage[renewal])
        #expect(Set(storage[renewal..<(2 * renewal)]).count == 1)
    }

    @Test("a segment of format version 1, as heraldd wrote it before donations were kept as stored, still reads")
    func versionOne() throws {
        // Written by heraldd at version 1 (the fuzz corpus's first byte says "a whole segment").
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/change-log/segment-changes.1")
        let old = Array(try Data(contentsOf: corpus).dropFirst())
        let reading = try ChangeLogFile.read(old)
        #expect(reading.header.version == 1)
        #expect(reading.problem == nil)
        #expect(reading.records.map(\.method) == ["donate", "update-content"])
        guard case .request(let params, _) = reading.records.first?.change else {
            Issue.record("a version 1 record is a request's")
            return
        }
        #expect(String(decoding: params, as: UTF8.self).hasPrefix(#"{"app""#))
        // Written again at version 1, the same bytes.
        var again = Array(old.prefix(ChangeLogFile.headerSize))
        for record in reading.records { ChangeLogFile.append(record, to: &again, version: 1) }
        #expect(again == old)
        // And a torn one of them still drops only its tail.
        let torn = try ChangeLogFile.read(Array(old.dropLast(2)))
        #expect(torn.records == Array(reading.records.prefix(1)))
        #expect(torn.problem != nil)
    }

    @Test("replay starts at the last segment begun at the snapshot restored, and stops at a torn record")
    func folderReplay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ChangeLogFolder(folder: folder)
        let all = records(6)
        // 1: after generation 3 (compacted by snapshot 4, not yet removed); 2: after 4, a
        // snapshot 5 that failed; 3: after 5 (continues 2's stream), torn; 4: past the tear.
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 1), contents: Data(segment([all[0]], base: 3)))
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 2), contents: Data(segment([all[1], all[2]], base: 4)))
        let torn = segment([all[3], all[4]], base: 5).dropLast(3)
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 3), contents: Data(torn))
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 4), contents: Data(segment([all[5]], base: 5)))
        let replay = log.replay(after: 4)
        #expect(replay.records == [all[1], all[2], all[3]])
        #expect(replay.ignored == [1])
        #expect(replay.segments == [2, 3])
        #expect(replay.droppedSegments == [4])
        #expect(replay.droppedBytes > 0)
        log.cut(replay)
        #expect(log.segmentNumbers() == [1, 2, 3])
        let again = log.replay(after: 4)
        #expect(again.records == [all[1], all[2], all[3]])
        #expect(again.problem == nil)
        #expect(log.replay(after: 7).records.isEmpty)
    }

    @Test("whether a replay finds records, from headers and sizes: empty segments do not count, a torn one does")
    func folderHoldsRecords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ChangeLogFolder(folder: folder)
        #expect(!log.holdsRecords(after: 0))
        // 1: records after generation 3; 2: begun at snapshot 4, nothing logged since.
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 1), contents: Data(segment(records(2), base: 3)))
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 2), contents: Data(segment([], base: 4)))
        #expect(log.holdsRecords(after: 3) == (log.replay(after: 3).recordCount > 0))
        #expect(log.holdsRecords(after: 3))
        #expect(!log.holdsRecords(after: 4))
        #expect(!log.holdsRecords(after: 5))
        // 3: begun at a snapshot 5 that failed, continuing 2, torn in its first record.
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 3), contents: Data(segment(records(1), base: 5).dropLast(3)))
        #expect(log.holdsRecords(after: 4))
        #expect(log.replay(after: 4).problem != nil)
        // A header torn by a crash: the safe side.
        _ = FileManager.default.createFile(atPath: log.path(ofSegment: 3), contents: Data(segment([], base: 5).prefix(20)))
        #expect(log.holdsRecords(after: 4))
        #expect(log.replay(after: 4).problem != nil)
    }
}
