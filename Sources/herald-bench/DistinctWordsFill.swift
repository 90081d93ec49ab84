import Foundation
import HeraldCore
import HeraldProtocol

/// `herald-bench search --distinct-words N`: issue 49's list of distinct words, weighed.
///
/// One uid posts notifications of N words no other notification has (as order and
/// tracking numbers are), first as the limit counted them before the index was weighed
/// (their own bytes only: posted until those reach the limit), then as it counts them now
/// (the same notifications, the index's weight included). For each: what the list keeps,
/// what malloc holds for the whole state and for an index built afresh from it, against
/// the weight the limit counts; then the widest queries' CPU over the kept list.
struct DistinctWordsFill {
    let wordsEach: Int
    let byteLimit: Int

    func run() throws {
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var posted = 0
        print("notifications of \(wordsEach) distinct words each, --max-notification-bytes \(byteLimit)")
        for counted in [false, true] {
            var configuration = CoreConfiguration(timeZone: .utc)
            configuration.maxNotificationsPerUID = 1 << 22
            configuration.maxNotificationBytesPerUID = counted ? byteLimit : .max
            let before = SearchCommand.allocatedBytes()
            var state = HeraldState(configuration: configuration)
            var index = 0
            while counted ? index < posted : state.notificationListWeight(uid: caller.uid).textBytes < byteLimit {
                let body = (0..<wordsEach).map { SearchCommand.word(10_000 + index * wordsEach + $0) }.joined(separator: " ")
                _ = try state.updateContent(
                    UpdateContentParams(app: "org.example.shop", identifier: "n\(index)", content: NotificationContent(title: "Order", body: body)),
                    caller: caller, now: start + Double(index))
                index += 1
            }
            posted = index
            let filled = SearchCommand.allocatedBytes()
            let built = state.searchIndexesBuiltAfresh()
            let indexMalloc = SearchCommand.allocatedBytes() - filled
            let weight = state.notificationListWeight(uid: caller.uid)
            print(counted ? "after: the limit counts the index" : "before: the limit counted the notifications' own bytes")
            print("  posted, kept               \(posted), \(weight.count)")
            print("  counted: own bytes, index  \(weight.textBytes), \(weight.indexBytes) (gone, not yet dropped: \(weight.goneIndexBytes))")
            print("  malloc: the whole state    \(filled - before) (\(String(format: "%.1f", Double(filled - before) / Double(byteLimit)))× the limit)")
            print("  malloc: its index afresh   \(indexMalloc) (\(String(format: "%.0f%%", Double(indexMalloc) / Double(max(weight.indexBytes, 1)) * 100)) of its counted weight, \(String(format: "%.1f", Double(indexMalloc) / Double(weight.textBytes)))× the notifications' own bytes)")
            print("  index                      \(built.documents) documents, \(built.words) words, \(built.postings) postings")
            withExtendedLifetime(built.indexes) {}
            let view = state.notificationListView
            // The words' first letters (SearchCommand.word's consonants), alone and with a vowel.
            let letters = "bcdfghjklmnprstv".map { String($0) }
            let twoLetters = letters.map { $0 + "a" }
            for query in [letters.joined(separator: " "), twoLetters.joined(separator: " "), "ba", "b"] {
                let cpuStart = SearchCommand.threadCPUSeconds()
                var answer = "found"
                do {
                    let found = try view.searchNotifications(SearchNotificationsParams(query: query), caller: caller)
                    answer = "\(found.result.notifications.count) found"
                } catch {
                    answer = "refused (\(error.reason.prefix(40))…)"
                }
                let cpu = SearchCommand.threadCPUSeconds() - cpuStart
                print("  query \(query.prefix(24).padding(toLength: 24, withPad: " ", startingAt: 0)) \(String(format: "%8.2f", cpu * 1000)) ms CPU, \(answer)")
            }
        }
    }
}
