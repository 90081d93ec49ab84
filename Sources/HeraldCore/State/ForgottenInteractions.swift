/// The interactions Herald forgot recently, and why, so that `update-content` naming one
/// can say "it was deleted" rather than "this app donated no interaction".
///
/// Each uid keeps its own ring of at most `capacity` marks, oldest overwritten first, so
/// no uid can push out another's. A mark is a 64-bit digest of (uid, app, identifier)
/// (``DonationRun/keyHash(uid:app:identifier:)``, which a restart's run already holds) and
/// a cause: no identifier is kept once its interaction is gone. The digest is seeded per
/// process and the marks are not in snapshots, so after a restart a forgotten interaction
/// is simply unknown again. A digest collision could only change an error's wording.
struct ForgottenInteractions: Sendable {
    enum Cause: UInt8, Sendable {
        /// `delete-interactions` removed it.
        case deleted
        /// `--retention` passed.
        case expired
        /// Evicted to keep a uid, or the host, within its share.
        case evicted
    }

    private struct Ring: Sendable {
        var marks: [UInt64] = []
        var causes: [Cause] = []
        var next = 0

        /// Adds a mark, overwriting the oldest once the ring holds `capacity`.
        mutating func mark(_ digest: UInt64, _ cause: Cause, capacity: Int) {
            if marks.count < capacity {
                marks.append(digest)
                causes.append(cause)
            } else {
                marks[next] = digest
                causes[next] = cause
                next = (next + 1) % capacity
            }
        }
    }

    let capacity: Int
    private var rings: [UInt32: Ring] = [:]

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 0)
    }

    mutating func mark(uid: UInt32, app: String, identifier: String, cause: Cause) {
        mark(uid: uid, digest: DonationRun.keyHash(uid: uid, app: app, identifier: identifier), cause: cause)
    }

    /// The same, for a key whose ``DonationRun/keyHash(uid:app:identifier:)`` is `digest`.
    mutating func mark(uid: UInt32, digest: Int, cause: Cause) {
        guard capacity > 0 else { return }
        // Changed in place, with one look-up: the table's entry is the ring's only reference.
        rings[uid, default: Ring()].mark(UInt64(bitPattern: Int64(digest)), cause, capacity: capacity)
    }

    /// Why (uid, app, identifier) was forgotten, if it was recently; the latest cause wins.
    func cause(uid: UInt32, app: String, identifier: String) -> Cause? {
        guard let ring = rings[uid] else { return nil }
        let digest = UInt64(bitPattern: Int64(DonationRun.keyHash(uid: uid, app: app, identifier: identifier)))
        // Newest first: from just before `next`, backwards around the ring.
        let count = ring.marks.count
        for step in 0..<count {
            let index = (ring.next - 1 - step + 2 * count) % count
            if ring.marks[index] == digest { return ring.causes[index] }
        }
        return nil
    }

    /// How many marks `uid` holds.
    func count(of uid: UInt32) -> Int {
        rings[uid]?.marks.count ?? 0
    }
}
