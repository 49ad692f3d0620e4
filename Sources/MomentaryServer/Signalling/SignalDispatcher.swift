import Fluent
import Foundation
import Logging

/// The signaller: an in-process service that sends each beep when it falls due.
///
/// It keeps the next due time in memory and sleeps until then, or until
/// `notifyScheduleChanged()` says a schedule changed. Each wake (`runCycle()`) applies the
/// safeguards, claims the due beeps (status `sending`, `claimed_at`, `claimed_by`) BEFORE any
/// push, sends them through the participant's channel, and records each outcome with a
/// `delivery_attempts` row. Several dispatchers may share one PostgreSQL database; a beep is
/// claimed by exactly one of them.
///
/// Outcomes:
/// - accepted → `sent`; the participant's previous sent-but-unanswered beep becomes `expired`;
/// - refused with a retryable error → re-sent after each of `retryDelays` (30 s, 2 min by
///   default) while the participant is still inside their hours, then `failed`; the beep stays
///   `sending`, owned by this worker, in between;
/// - refused otherwise → `failed`; token unregistered → `failed`, the participant becomes
///   inactive (`push_health` `unregistered`) and their pending beeps are cancelled;
/// - outside the participant's current hours at send time → `missed` (test beeps exempt);
/// - participant withdrawn, restricted or inactive → `cancelled`;
/// - more due at once than the study's `max_due_at_once` (or `maximumDueAtOnce`) → all those
///   beeps `failed` with outcome `refused`, a critical log line and `SignallingHealth.alert`;
/// - left in `sending` by a worker that stopped (not seen for `workerTimeout`, or this worker's
///   own id at its first wake) → taken over and sent again with the beep's identity, so the phone
///   replaces a push that did arrive instead of showing it twice;
/// - not sent within `maximumLateness` of its time → `missed` with outcome `late`.
public actor SignalDispatcher {
    public nonisolated let workerID: String
    let database: any Database
    let channels: PushChannelRegistry
    let timeSource: any TimeSource
    let options: SignalDispatcherOptions
    let logger: Logger
    let metrics: ServerMetrics
    private nonisolated let wake = WakeSignal()
    private var loop: Task<Void, Never>?
    private var stopping = false
    var retries: [(beep: ClaimedBeep, dueAt: Date)] = []
    /// Whether a wake has run: the first takes over the beeps this worker's id left `sending`.
    var hasWoken = false
    var health: SignallingHealth
    var randomness: BeepRandomness

    public init(
        database: any Database, channels: PushChannelRegistry, timeSource: any TimeSource = SystemTimeSource(),
        options: SignalDispatcherOptions = SignalDispatcherOptions(),
        logger: Logger = Logger(label: "momentary.signalling")
    ) {
        self.init(database: database, channels: channels, timeSource: timeSource, options: options,
                  logger: logger, metrics: ServerMetrics())
    }

    init(
        database: any Database, channels: PushChannelRegistry, timeSource: any TimeSource,
        options: SignalDispatcherOptions, logger: Logger, metrics: ServerMetrics
    ) {
        self.workerID = options.workerID
        self.database = database
        self.channels = channels
        self.timeSource = timeSource
        self.options = options
        self.logger = logger
        self.metrics = metrics
        self.health = SignallingHealth(workerID: options.workerID)
        self.randomness = options.randomness
    }

    /// Starts the loop (once; later calls do nothing).
    public func start() {
        guard loop == nil else { return }
        stopping = false
        health.running = true
        logger.info("Signalling started", metadata: ["worker": .string(workerID)])
        loop = Task { await self.runLoop() }
    }

    /// Stops the loop after the current wake has finished recording what it sent, and marks
    /// beeps waiting for a retry `failed` (they would otherwise look abandoned).
    public func shutdown() async {
        stopping = true
        wake.signal()
        await loop?.value
        loop = nil
        await abandonRetries()
        health.running = false
    }

    /// Wakes the loop now: beeps were planned or changed (registration, new settings, a test beep).
    public nonisolated func notifyScheduleChanged() {
        wake.signal()
    }

    /// A snapshot of the dispatcher's state.
    public var currentHealth: SignallingHealth { health }

    /// Clears a safeguard alert once an operator has looked into it.
    public func clearAlert() {
        health.alert = nil
        health.alertRaisedAt = nil
        metrics.gauge("signalling_alert").set(0)
    }

    private func runLoop() async {
        while !stopping {
            let next: Date
            do {
                next = try await runCycle().nextWake
                health.lastError = nil
            } catch {
                let description = String(reflecting: error)
                logger.error("Signalling wake failed: \(description)")
                health.lastError = description
                metrics.counter("signalling_errors_total").increment()
                next = timeSource.now().addingTimeInterval(options.errorBackoff)
            }
            health.nextWake = next
            if stopping { break }
            await sleep(until: next)
        }
    }

    /// Sleeps until `deadline` or until woken, whichever comes first.
    private func sleep(until deadline: Date) async {
        let timeSource = self.timeSource
        let wake = self.wake
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await timeSource.sleep(until: deadline) }
            group.addTask { await wake.wait() }
            await group.next()
            group.cancelAll()
        }
    }
}
