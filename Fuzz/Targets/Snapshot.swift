import Foundation
import HeraldCore
import HeraldStorage

/// The snapshot reader. An input whose first byte is even is a whole file, as found on
/// disk (of format version 1 or 2); an odd one is a payload, given a header of the current
/// format version with the right checksums so that the payload decoder is reached. Whatever decodes must encode into a snapshot that decodes
/// to the same number of interactions and the same notification list. A start's read, the
/// leading sections first and the store apart (format 6), must agree with the whole read:
/// what one takes the other takes, with the same interactions and notifications.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    var file: [UInt8]
    if bytes[0] % 2 == 0 {
        file = Array(bytes[1...])
    } else {
        let payload = Array(bytes[1...])
        let header = SnapshotHeader(
            generation: 1,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            interactions: UInt64(bytes[0] / 2),
            payloadLength: UInt64(payload.count),
            payloadChecksum: payload.withUnsafeBytes { CRC32C.checksum($0) }
        )
        file = header.bytes + payload
    }
    let whole = try? SnapshotFile.decode(file)
    readApartAgrees(file, whole: whole?.state)
    guard let (_, state) = whole else { return 0 }
    // A record is kept as its bytes, checked but not decoded; a rule decodes it later, and
    // one the check let through that did not decode would stop heraldd there.
    state.forEachStoredRecord(at: state.storedRecordPositions) { _ = $0.interaction }
    do {
        let again = try SnapshotFile(encoding: state, generation: 2, now: Date(timeIntervalSince1970: 1_700_000_001))
        let decoded = try SnapshotFile.decode(again.header.bytes + again.payload)
        guard decoded.state.interactionCount == state.interactionCount else {
            fatalError("A snapshot re-encoded with \(state.interactionCount) interactions decodes with \(decoded.state.interactionCount).")
        }
        // The notification list is written and read in chunks of records (of two in this
        // build; runs of JSON in a file of format 6 or before): the same list, in the same
        // order, must come back.
        let notifications = state.storedNotifications.map { "\($0.uid) \($0.notification.app) \($0.notification.identifier)" }
        let notificationsAgain = decoded.state.storedNotifications.map { "\($0.uid) \($0.notification.app) \($0.notification.identifier)" }
        guard notificationsAgain == notifications else {
            fatalError("A snapshot re-encoded with \(notifications.count) notifications decodes with \(notificationsAgain.count), or in another order.")
        }
    } catch {
        fatalError("A snapshot that loads does not re-encode into one that loads: \(error)")
    }
    return 0
}

/// A start's read of `file`, the leading sections then the store apart, against the whole
/// read's `whole` (nil: it refused the file).
private func readApartAgrees(_ file: [UInt8], whole: HeraldState?) {
    let apart: HeraldState?
    switch Result(catching: { try SnapshotFile.decodeLeading(OpenSnapshotFile(bytes: file), configuration: CoreConfiguration()) }) {
    case .failure: apart = nil
    case .success(nil): return  // An earlier format: read whole at a start too.
    case .success(let leading?):
        var state = leading.state
        if var store = try? leading.store.restore() {
            state.takeStore(from: &store)
            apart = state
        } else {
            apart = nil
        }
    }
    guard (apart == nil) == (whole == nil) else {
        fatalError("A start's read \(apart == nil ? "refuses" : "takes") a snapshot the whole read \(whole == nil ? "refuses" : "takes").")
    }
    guard let apart, let whole else { return }
    let notifications = whole.storedNotifications.map { "\($0.uid) \($0.notification.app) \($0.notification.identifier)" }
    let notificationsApart = apart.storedNotifications.map { "\($0.uid) \($0.notification.app) \($0.notification.identifier)" }
    guard apart.interactionCount == whole.interactionCount, notificationsApart == notifications else {
        fatalError("A start's read of a snapshot differs from the whole read in its interactions or notifications.")
    }
}
