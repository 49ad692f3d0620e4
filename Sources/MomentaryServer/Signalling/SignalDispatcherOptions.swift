import Foundation

/// How a dispatcher works; the defaults suit one server process. Each value says why it is what it is.
public struct SignalDispatcherOptions: Sendable {
    /// Written to `beeps.claimed_by`, so a beep left in `sending` names the worker that claimed it.
    public var workerID: String
    /// Beeps claimed per statement: large enough to drain a busy second in one go, small enough
    /// that one transaction never holds the database for long.
    public var claimBatchSize: Int
    /// Pushes in flight at once (the push services are remote; their latency overlaps).
    public var sendConcurrency: Int
    /// Server-wide safeguard on top of each study's `max_due_at_once`: when more beeps than this
    /// fall due at one moment, none of them is sent. `nil`: only the studies' limits apply.
    public var maximumDueAtOnce: Int?
    /// A beep not sent within this time of its due time (the dispatcher was not running) is
    /// marked `missed` instead: a beep that comes an hour late samples the wrong moment.
    public var maximumLateness: TimeInterval
    /// A worker not seen working for this long has stopped (each wake and each batch of sends
    /// records it in `signalling_workers`): the beeps it left `sending` are taken over and sent
    /// again, and the reminders it left `sending` too. Three wakes' worth, so a live worker, which
    /// wakes at least every `maximumSleep`, is never taken for a stopped one.
    public var workerTimeout: TimeInterval
    /// The dispatcher wakes at least this often, to catch beeps planned by another process and
    /// to run the `sending` sweep, even when nobody calls `notifyScheduleChanged()`.
    public var maximumSleep: TimeInterval
    /// Delays before re-sending a beep the push service refused with a retryable error (429,
    /// 5xx, network), counted from each refusal. After the last, the beep is `failed`.
    /// Each retry re-checks the participant's hours, so a retry never goes out after them.
    public var retryDelays: [TimeInterval]
    /// Participants whose next day is planned per wake: planning is never urgent (each is
    /// planned a day ahead), so it must not hold up due beeps.
    public var planningBatchSize: Int
    /// After an unexpected error (say the database was unreachable), wait this long before trying again.
    public var errorBackoff: TimeInterval
    /// The random source of day planning; `.seeded(_:)` makes a run reproducible.
    public var randomness: BeepRandomness

    public init(
        workerID: String = SignalDispatcherOptions.defaultWorkerID(),
        claimBatchSize: Int = 500,
        sendConcurrency: Int = 64,
        maximumDueAtOnce: Int? = nil,
        maximumLateness: TimeInterval = 600,
        workerTimeout: TimeInterval = 90,
        maximumSleep: TimeInterval = 30,
        retryDelays: [TimeInterval] = [30, 120],
        planningBatchSize: Int = 200,
        errorBackoff: TimeInterval = 5,
        randomness: BeepRandomness = .system
    ) {
        self.workerID = workerID
        self.claimBatchSize = max(1, claimBatchSize)
        self.sendConcurrency = max(1, sendConcurrency)
        self.maximumDueAtOnce = maximumDueAtOnce
        self.maximumLateness = maximumLateness
        self.workerTimeout = workerTimeout
        self.maximumSleep = maximumSleep
        self.retryDelays = retryDelays
        self.planningBatchSize = max(1, planningBatchSize)
        self.errorBackoff = errorBackoff
        self.randomness = randomness
    }

    /// `host:pid:xxxx`, unique enough to tell workers apart in `claimed_by`.
    public static func defaultWorkerID() -> String {
        let info = ProcessInfo.processInfo
        return "\(info.hostName):\(info.processIdentifier):\(UUID().uuidString.prefix(4).lowercased())"
    }
}
