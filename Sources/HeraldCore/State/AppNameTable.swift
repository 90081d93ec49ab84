/// App names, each stored once: interactions refer to their app by a small number, so a
/// million of them do not carry a million copies of `org.example.chat`.
///
/// Numbers are never reused; the table only grows (apps are few).
struct AppNameTable: Sendable, Hashable {
    typealias ID = UInt32

    private(set) var names: [String] = []
    private var ids: [String: ID] = [:]

    init() {}

    init(names: [String]) {
        for name in names {
            _ = intern(name)
        }
    }

    /// The number of `name`, added if new.
    mutating func intern(_ name: String) -> ID {
        if let id = ids[name] {
            return id
        }
        let id = ID(names.count)
        names.append(name)
        ids[name] = id
        return id
    }

    /// The number of `name` if it was ever seen.
    func id(of name: String) -> ID? {
        ids[name]
    }

    func name(of id: ID) -> String {
        names[Int(id)]
    }
}
