import HeraldCore
import HeraldProtocol

/// Each (uid, app)'s set of notification categories, sorted by (uid, app):
/// `{sets: [{app, categories, uid}]}`. A snapshot of an earlier format has none, and
/// restores every set empty.
enum CategoriesSection: JSONSnapshotSection {
    static let name = "categories"
    static let since: UInt32 = 4

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        var form = RecordMembers(style, capacity: 1)
        form.add("sets", state.storedCategories) { set, style in
            var members = RecordMembers(style, capacity: 3)
            members.add("app", set.app)
            members.add("categories", set.categories, CategoryRecord.json)
            members.add("uid", set.uid)
            return members.value
        }
        return form.value
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let sets = try reading { () throws(RecordDamage) in
            try RecordReader(json).records("sets") { set throws(RecordDamage) in
                (uid: try set.integer("uid", as: UInt32.self), app: try set.string("app"), categories: try set.records("categories", CategoryRecord.read))
            }
        }
        guard state.restoreCategories(sets) else {
            throw damaged("lists a (uid, app) twice, an empty set, or a set that breaks the rules of set-notification-categories.")
        }
    }
}
