import ArgumentParser
import Foundation
import HeraldCore
import CSystemd
import HeraldProtocol


/// `herald-bench search`: fills one uid's notification list with N notifications of
/// chat-like text in this process, then times searches of it (`search-notifications` as
/// Core answers it, a page of 50 made into notifications; writing them as JSON is the
/// server's and not timed) and weighs the search index against the list.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Time search-notifications over N notifications and weigh its index."
    )

    @Option(help: "Notifications in the uid's list.")
    var notifications = 100_000

    @Option(help: "Searches to time.")
    var searches = 2_000

    @Option(help: "Words in the vocabulary the texts are drawn from.")
    var vocabulary = 20_000

    @Option(help: "Instead: notifications of this many distinct words each, filling --max-notification-bytes; weighs the index.")
    var distinctWords: Int?

    @Option(help: "The uid's --max-notification-bytes, with --distinct-words.")
    var maxNotificationBytes = 32 << 20

    func run() throws {
        if let distinctWords {
            try DistinctWordsFill(wordsEach: distinctWords, byteLimit: maxNotificationBytes).run()
            return
        }
        var random = SeededRandom(seed: 7)
        // Zipf-like: word i is drawn with weight 1/(i+1), as words of real text are.
        let words = (0..<vocabulary).map { Self.word($0) }
        let weights = (0..<vocabulary).map { 1.0 / Double($0 + 1) }
        var cumulative: [Double] = []
        var total = 0.0
        for weight in weights {
            total += weight
            cumulative.append(total)
        }
        func drawWord() -> String {
            let x = Double.random(in: 0..<total, using: &random)
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < x { low = middle + 1 } else { high = middle }
            }
            return words[low]
        }
        let people = (0..<300).map { "Person\(Self.word($0 * 7 + 3).capitalized) \(Self.word($0 * 13 + 5).capitalized)" }
        let apps = ["org.example.chat", "org.example.mail", "org.example.phone", "org.example.news", "org.example.pager"]

        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = notifications
        configuration.maxNotificationBytesPerUID = .max
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        let start = Date(timeIntervalSince1970: 1_800_000_000)

        // Texts drawn first, so that the fill's time is update-content's alone; what they
        // keep is the list's, so the list is weighed from before they are drawn.
        let before = Self.allocatedBytes()
        var contents = (0..<notifications).map { _ in
            NotificationContent(
                title: people[Int.random(in: 0..<people.count, using: &random)],
                body: (0..<Int.random(in: 6...18, using: &random)).map { _ in drawWord() }.joined(separator: " "),
                threadIdentifier: "thread-\(Int.random(in: 0..<2000, using: &random))")
        }
        let fillStart = Self.threadCPUSeconds()
        var state = HeraldState(configuration: configuration)
        for (index, content) in contents.enumerated() {
            _ = try state.updateContent(
                UpdateContentParams(app: apps[index % apps.count], identifier: "n\(index)", content: content), caller: caller,
                now: start + Double(index))
        }
        let fillCPU = Self.threadCPUSeconds() - fillStart
        contents = []
        let filled = Self.allocatedBytes()
        let buildStart = Self.threadCPUSeconds()
        let built = state.searchIndexesBuiltAfresh()
        let buildCPU = Self.threadCPUSeconds() - buildStart
        let indexBytes = Self.allocatedBytes() - filled
        let listBytes = filled - before - indexBytes

        // Queries as a person types them: one to three words, common and rare, whole and
        // begun; some narrowed to an app or a day.
        var queries: [SearchNotificationsParams] = []
        for index in 0..<searches {
            let count = [1, 1, 2, 2, 3][index % 5]
            var terms = (0..<count).map { _ in drawWord() }
            if index % 3 == 0 { terms[0] = String(terms[0].prefix(max(2, terms[0].count - 2))) }
            if index % 7 == 0 { terms.append(people[Int.random(in: 0..<people.count, using: &random)].split(separator: " ")[1].lowercased()) }
            var query = SearchNotificationsParams(query: terms.joined(separator: " "))
            if index % 4 == 0 { query.app = apps[index % apps.count] }
            if index % 6 == 0 { query.since = start + Double(notifications / 2) }
            queries.append(query)
        }
        let view = state.notificationListView
        var wall: [Double] = []
        var cpu: [Double] = []
        var foundTotal = 0
        for query in queries {
            let (cpuStart, began) = (Self.threadCPUSeconds(), ContinuousClock.now)
            let found = try view.searchNotifications(query, caller: caller)
            let elapsed = ContinuousClock.now - began
            cpu.append(Self.threadCPUSeconds() - cpuStart)
            wall.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            foundTotal += found.result.notifications.count
        }
        // The reference, in the same run: the same queries answered by reading every
        // notification's text, as a list without an index would (a tenth of them: it is slow).
        let everything = try view.listNotifications(ListNotificationsParams(app: nil), caller: caller).result.notifications
        var scanCPU: [Double] = []
        for query in queries.prefix(max(1, searches / 10)) {
            let cpuStart = Self.threadCPUSeconds()
            let words = query.query.lowercased().split(separator: " ")
            var found = 0
            for notification in everything where query.app == nil || notification.app == query.app {
                if let since = query.since, notification.receivedAt < since { continue }
                let text = [notification.content.title, notification.content.body, notification.content.threadIdentifier, notification.app]
                    .compactMap { $0 }.joined(separator: " ").lowercased()
                if words.allSatisfy({ text.contains($0) }) { found += 1 }
                if found == 50 { break }
            }
            scanCPU.append(Self.threadCPUSeconds() - cpuStart)
        }
        func percentile(_ values: [Double], _ p: Double) -> String {
            let sorted = values.sorted()
            return String(format: "%.3f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000)
        }
        func figures(_ values: [Double]) -> String {
            "p50 \(percentile(values, 0.5))  p99 \(percentile(values, 0.99))  max \(percentile(values, 1))"
        }
        print("notifications            \(notifications) (one uid, \(apps.count) apps, vocabulary \(vocabulary))")
        print("searches                 \(searches), \(String(format: "%.1f", Double(foundTotal) / Double(searches))) found a page on average")
        print("search ms, wall          \(figures(wall))")
        print("search ms, CPU           \(figures(cpu))")
        print("reading every text, CPU  \(figures(scanCPU))  (the reference: \(scanCPU.count) of the queries, no index)")
        print("list bytes               \(listBytes) (\(listBytes / notifications) a notification)")
        print("index bytes              \(indexBytes) (\(indexBytes / notifications) a notification)")
        print("index / list             \(String(format: "%.1f%%", Double(indexBytes) / Double(listBytes) * 100))")
        let weight = state.notificationListWeight(uid: caller.uid)
        print("counted, a notification  \(weight.textBytes / notifications) own bytes + \(weight.indexBytes / notifications) of index (--max-notification-bytes 32 MiB holds \((32 << 20) / ((weight.textBytes + weight.indexBytes) / notifications)))")
        print("update-content µs, CPU   \(String(format: "%.2f", fillCPU / Double(notifications) * 1e6)) a notification, of which indexing \(String(format: "%.2f", buildCPU / Double(notifications) * 1e6))")
        print("index                    \(built.documents) documents, \(built.words) words, \(built.postings) postings")
        withExtendedLifetime(built.indexes) {}
    }

    /// CPU time this thread has used: what a search costs, whatever else the machine runs.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A pronounceable word for number `n`: distinct for every n.
    static func word(_ n: Int) -> String {
        let consonants = Array("bcdfghjklmnprstvz")
        let vowels = Array("aeiou")
        var n = n
        var word = ""
        repeat {
            word.append(consonants[n % consonants.count])
            n /= consonants.count
            word.append(vowels[n % vowels.count])
            n /= vowels.count
        } while n > 0
        return word
    }

    /// Bytes malloc has handed out and not had back.
    static func allocatedBytes() -> Int {
        Int(herald_allocated_bytes())
    }
}

/// A small deterministic generator (SplitMix64), so that runs compare.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
