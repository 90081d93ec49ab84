import HeraldCore
import HeraldProtocol

/// Each (uid, app)'s set of notification categories, sorted by (uid, app). A snapshot of
/// an earlier format has none, and restores every set empty.
enum CategoriesSection: JSONSnapshotSection {
    static let name = "categories"
    static let since: UInt32 = 4

    struct Form: Codable {
        struct Entry: Codable {
            var uid: UInt32
            var app: String
            var categories: [NotificationCategory]
        }

        var sets: [Entry]
    }

    static func form(of state: HeraldState) -> Form {
        Form(sets: state.storedCategories.map { Form.Entry(uid: $0.uid, app: $0.app, categories: $0.categories) })
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        guard state.restoreCategories(form.sets.map { (uid: $0.uid, app: $0.app, categories: $0.categories) }) else {
            throw damaged("lists a (uid, app) twice, an empty set, or a set that breaks the rules of set-notification-categories.")
        }
    }
}
