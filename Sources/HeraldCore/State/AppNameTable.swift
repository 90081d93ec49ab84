/// App names, each stored once: interactions refer to their app by a small number, so a
/// million of them do not carry a million copies of `org.example.chat`.
///
/// The table counts the interactions that refer to each name, and forgets a name when
/// the last of them goes: its slot holds a short placeholder (a snapshot writes the
/// names by number, so numbers do not move) until a new name takes it. Deleting 20,000
/// apps no longer leaves 20,000 names in every snapshot.
struct AppNameTable: Sendable, Hashable {
    typealias ID = UInt32

    /// By number; a free slot holds ``placeholder(for:)``.
    private(set) var names: [String] = []
    private var ids: [String: ID] = [:]
    /// How many stored interactions refer to each number.
    private var references: [Int] = []
    /// Numbers whose name was forgotten, to be taken by the next new names.
    private var free: [ID] = []

    init() {}

    init(names: [String]) {
        for name in names {
            _ = intern(name)
        }
    }

    /// The names still referred to or interned, placeholders left out.
    var count: Int { ids.count }

    /// What a free slot holds: not a valid app name (it starts with a NUL), so no request
    /// can name it, and unique, so a snapshot's table has no duplicates.
    static func placeholder(for id: ID) -> String {
        "\u{0}\(id)"
    }

    /// The number of `name`, added if new. A placeholder read back from a snapshot takes
    /// its slot and leaves it free.
    mutating func intern(_ name: String) -> ID {
        if let id = ids[name] {
            return id
        }
        if name.utf8.first == 0 {
            let id = ID(names.count)
            names.append(Self.placeholder(for: id))
            references.append(0)
            free.append(id)
            return id
        }
        if let id = free.popLast() {
            names[Int(id)] = name
            ids[name] = id
            return id
        }
        let id = ID(names.count)
        names.append(name)
        references.append(0)
        ids[name] = id
        return id
    }

    /// The number of `name` if it is in the table.
    func id(of name: String) -> ID? {
        ids[name]
    }

    func name(of id: ID) -> String {
        names[Int(id)]
    }

    /// Counts one more interaction of `id`.
    mutating func retain(_ id: ID) {
        references[Int(id)] += 1
    }

    /// Counts one interaction of `id` fewer, and forgets the name with the last.
    mutating func release(_ id: ID) {
        let index = Int(id)
        references[index] -= 1
        guard references[index] == 0, ids.removeValue(forKey: names[index]) != nil else { return }
        names[index] = Self.placeholder(for: id)
        free.append(id)
    }

    /// Forgets every name no interaction refers to (a snapshot written before names were
    /// forgotten may hold some).
    mutating func releaseUnreferenced() {
        for index in names.indices where references[index] == 0 && ids[names[index]] != nil {
            references[index] = 1
            release(ID(index))
        }
    }
}

extension AppNameTable {
    /// This table with storage of its own: made after the state's lock, for a list a
    /// reader holds (``NotificationList/UIDList/unshared()``).
    func unshared() -> AppNameTable {
        var copy = self
        copy.names.reserveCapacity(names.count)
        copy.ids.reserveCapacity(ids.count)
        copy.references.reserveCapacity(references.count)
        copy.free.reserveCapacity(free.count)
        return copy
    }
}
