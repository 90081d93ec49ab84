import Foundation

/// How often a process wakes: the context switches of its threads (`voluntary_ctxt_switches`
/// and `nonvoluntary_ctxt_switches` of every `/proc/PID/task/*/status`), read twice some
/// seconds apart. A count, not a timing: the same on a slow machine as on a fast one.
package enum ContextSwitches {
    /// Each thread's switches so far, by thread id.
    package static func perThread(pid: Int32) -> [Int: (name: String, switches: Int)] {
        let tasks = "/proc/\(pid)/task"
        var threads: [Int: (name: String, switches: Int)] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let tid = Int(entry), let status = try? String(contentsOfFile: "\(tasks)/\(entry)/status", encoding: .utf8) else {
                continue
            }
            var name = ""
            var switches = 0
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "Name": name = parts[1]
                case "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches": switches += Int(parts[1]) ?? 0
                default: break
                }
            }
            threads[tid] = (name, switches)
        }
        return threads
    }

    /// The wakeups of `pid` over `seconds`: the switches of the threads alive at the end,
    /// less what those alive at the start had then (a thread started meanwhile counts whole);
    /// and the threads that woke, by name, for a message.
    package static func over(seconds: Double, pid: Int32) -> (count: Int, threads: String) {
        let before = perThread(pid: pid)
        Thread.sleep(forTimeInterval: seconds)
        let after = perThread(pid: pid)
        var count = 0
        var woke: [String] = []
        for (tid, thread) in after.sorted(by: { $0.key < $1.key }) {
            let delta = thread.switches - (before[tid]?.switches ?? 0)
            count += delta
            if delta > 0 { woke.append("\(thread.name) (\(tid)): \(delta)") }
        }
        return (count, woke.joined(separator: ", "))
    }
}
