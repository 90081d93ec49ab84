import Foundation
import HeraldStorage

/// The change log reader. An input whose first byte is even is a whole segment, as found
/// on disk; an odd one is records, given a header with the right checksum so that the
/// record reader is reached. Whatever reads must write back into a segment that reads the
/// same records, read in windows it must read the same, and a segment cut anywhere must
/// read as a prefix of them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChangeLog(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let file: [UInt8] =
        bytes[0] % 2 == 0
        ? Array(bytes[1...])
        : ChangeLogFile.header(baseGeneration: UInt64(bytes[0]), createdAt: Date(timeIntervalSince1970: 1_700_000_000))
            + Array(bytes[1...])
    guard let reading = try? ChangeLogFile.read(file) else { return 0 }
    guard reading.validLength + reading.droppedBytes == file.count, (reading.problem == nil) == (reading.droppedBytes == 0) else {
        fatalError("A reading of \(file.count) bytes keeps \(reading.validLength) and drops \(reading.droppedBytes).")
    }
    var again = ChangeLogFile.header(baseGeneration: reading.header.baseGeneration, createdAt: reading.header.createdAt)
    for record in reading.records { ChangeLogFile.append(record, to: &again) }
    guard let reread = try? ChangeLogFile.read(again), reread.records == reading.records, reread.problem == nil else {
        fatalError("\(reading.records.count) records written back do not read back the same.")
    }
    // Read from a file a window at a time (a restart's way), the same reading.
    let window = 1 + Int(bytes[0]) * 13 % 97
    var windowed: [ChangeRecord] = []
    guard let inWindows = try? ChangeLogFile.read(OpenSnapshotFile(bytes: file), window: window, each: { windowed.append($0) }),
        windowed == reading.records, inWindows.validLength == reading.validLength, inWindows.droppedBytes == reading.droppedBytes,
        inWindows.problem == reading.problem
    else {
        fatalError("A segment read in windows of \(window) bytes does not read as the whole one.")
    }
    // A tear anywhere keeps a prefix of the records, never a partial or a different one.
    let cut = ChangeLogFile.headerSize + Int(bytes[0]) * 7 % max(1, reading.validLength - ChangeLogFile.headerSize + 1)
    if let torn = try? ChangeLogFile.read(Array(file.prefix(cut))) {
        guard torn.records == Array(reading.records.prefix(torn.records.count)) else {
            fatalError("A segment cut at \(cut) bytes reads records that are not a prefix of the whole one's.")
        }
    }
    return 0
}
