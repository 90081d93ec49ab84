/// A coding path kept as a linked list, so that descending into a member costs one small
/// allocation instead of an array copy; the array is only built when someone asks.
indirect enum JSONCodingPath {
    case root
    case key(any CodingKey, parent: JSONCodingPath)

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while case .key(let key, let parent) = node {
            keys.append(key)
            node = parent
        }
        return keys.reversed()
    }

    func appending(_ key: any CodingKey) -> JSONCodingPath {
        .key(key, parent: self)
    }

    func appending(index: Int) -> JSONCodingPath {
        .key(JSONIndexKey(index), parent: self)
    }
}

/// The coding key of a position in an unkeyed container.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }

    init(_ index: Int) {
        self.intValue = index
    }

    init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.intValue = index
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}

/// A coding key for a member name known only at run time.
struct JSONMemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        self.stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        self.stringValue = String(intValue)
    }
}
