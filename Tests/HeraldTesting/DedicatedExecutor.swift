import Dispatch

/// Runs tasks on a serial dispatch queue, off Swift's cooperative pool: with two cores
/// that pool has two threads, and the end-to-end tests running beside in-process services
/// block them for minutes, so a service under test would never get a turn. Give a test's
/// service task `Task(executorPreference: executor)` or wrap the test's body in
/// `withTaskExecutorPreference(executor)`.
package final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
