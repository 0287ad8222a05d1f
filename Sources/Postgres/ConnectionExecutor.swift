import Dispatch

/// A serial executor backed by one dispatch queue per connection.
///
/// libpq forbids two threads using one `PGconn` at once, and its calls block.
/// Running a connection actor on its own queue gives both properties by
/// construction: jobs run one at a time, and never on Swift's cooperative pool.
final class ConnectionExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
