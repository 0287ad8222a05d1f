import NIOCore

/// Runs a task's jobs on one NIO event loop: the loop of the connection the task serves.
///
/// Without it, each request crosses threads three times: the event loop hands the parsed
/// request to the concurrency pool, the pool hands the reply back to the event loop, and the
/// database's answer wakes a pool thread in between. With the connection's handler preferring
/// this executor, reading the request, running the handler (default actors such as a
/// `PostgresConnection` run on a task's preferred executor too) and writing the reply stay on
/// the loop's thread; only the database's answer arrives from elsewhere.
///
/// The handler must not block: work that would (a password hash, a big file) belongs
/// elsewhere already, since the pool has as few threads as the loop group.
public final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // Always queued, never run inline: the runtime may enqueue from a job this loop is running.
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
