import NIOCore

/// One event loop as a task executor: the nonisolated async work of a task that prefers it
/// (`withTaskExecutorPreference`) runs on that loop's thread, instead of on the global executor,
/// which here is the event loops serving HTTP.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
