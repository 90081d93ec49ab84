extension DonationRun {
    /// One uid's donations held, oldest first: its evictions take them from the front.
    ///
    /// Held in chunks of ``chunkSize``, so that a queue of a million never moves what it
    /// holds as it grows (an array doubling copies every record, and faults in as many
    /// new pages), and a chunk evicted whole is freed for the next to reuse
    /// (docs/performance.md, "Durability").
    struct Queue: Sendable {
        static let chunkSize = 4096

        /// Oldest first; every chunk but the last is full.
        private var chunks: [[Held]] = []
        /// In the first chunk, the first still held; those before it were evicted.
        private var head = 0
        /// How many are held.
        private(set) var count = 0
        /// Held donations by app.
        private(set) var apps: [AppNameTable.ID: Int] = [:]

        /// The sequence of the oldest still held.
        var oldestSequence: UInt64? { count > 0 ? chunks[0][head].sequence : nil }

        mutating func append(_ stored: consuming StoredInteraction, at key: InteractionKey, hash: Int, isIncomingCall: Bool) {
            apps[key.app, default: 0] += 1
            let sequence = stored.sequence
            if chunks.last.map({ $0.count == Self.chunkSize }) ?? true {
                var chunk: [Held] = []
                chunk.reserveCapacity(Self.chunkSize)
                chunks.append(chunk)
            }
            chunks[chunks.count - 1].append(Held(key: key, hash: hash, sequence: sequence, isIncomingCall: isIncomingCall, stored: stored))
            count += 1
        }

        /// The key of the donation held with `sequence`; nil when none is.
        func key(of sequence: UInt64) -> InteractionKey? {
            guard count > 0 else { return nil }
            // In donation order: a binary search for the last chunk starting at or before
            // `sequence`, then one within it.
            var (low, high) = (0, chunks.count)
            while high - low > 1 {
                let middle = (low + high) / 2
                if chunks[middle][0].sequence <= sequence { low = middle } else { high = middle }
            }
            let chunk = low
            var (first, end) = (chunk == 0 ? head : 0, chunks[chunk].count)
            while first < end {
                let middle = (first + end) / 2
                if chunks[chunk][middle].sequence < sequence { first = middle + 1 } else { end = middle }
            }
            guard first < chunks[chunk].count, chunks[chunk][first].sequence == sequence, chunks[chunk][first].stored != nil else {
                return nil
            }
            return chunks[chunk][first].key
        }

        /// Takes out the oldest held, which the limits evict, with its key's hash.
        mutating func removeOldest() -> (key: InteractionKey, hash: Int, stored: StoredInteraction)? {
            guard count > 0, let stored = chunks[0][head].stored.take() else { return nil }
            let (key, hash) = (chunks[0][head].key, chunks[0][head].hash)
            head += 1
            count -= 1
            if let left = apps[key.app], left > 1 {
                apps[key.app] = left - 1
            } else {
                apps.removeValue(forKey: key.app)
            }
            if head == chunks[0].count {
                chunks.removeFirst()
                head = 0
            }
            return (key, hash, stored)
        }

        /// Takes out every donation still held, oldest first.
        mutating func takeAll(_ body: (InteractionKey, UInt64, Bool, consuming StoredInteraction) -> Void) {
            for chunk in chunks.indices {
                for index in (chunk == 0 ? head : 0)..<chunks[chunk].count {
                    if let stored = chunks[chunk][index].stored.take() {
                        body(chunks[chunk][index].key, chunks[chunk][index].sequence, chunks[chunk][index].isIncomingCall, stored)
                    }
                }
            }
            self = Queue()
        }
    }
}
