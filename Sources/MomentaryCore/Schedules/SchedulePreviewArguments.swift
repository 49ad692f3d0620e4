/// The option values of `momentary schedule preview` exactly as typed, before validation.
///
/// Random form: `--per-day 3 --hours 08:00-20:00 --min-gap 90 --timezone Europe/London
/// --from 2026-03-25 --days 1000 --seed 7 --sampling stratified`. Fixed form: `--spec rules.json --registered
/// 2017-04-20 --timezone America/Chicago --from 2017-04-01 --to 2017-08-31`.
/// `SchedulePreview.plan(_:)` turns them into a checked plan.
public struct SchedulePreviewArguments: Sendable, Hashable {
    public var perDay: String?
    public var hours: String?
    public var minGap: String?
    /// Path of a fixed schedule document (JSON); selects the fixed form.
    public var spec: String?
    public var registered: String?
    public var timezone: String?
    public var from: String?
    /// Number of days from `from`; exclusive with `to`.
    public var days: String?
    /// Last day, inclusive; exclusive with `days`.
    public var to: String?
    /// Seed of the random generator; a random seed when absent.
    public var seed: String?
    /// `--window M`: each beep's answer window, shown as its deadline; `--reminders 5,10`: the
    /// reminders it would get (those before the deadline and, for random beeps, the hours' end).
    public var window: String?
    public var reminders: String?
    /// `uniform` or `stratified`; uniform when absent. Random form only.
    public var sampling: String?

    public init(
        perDay: String? = nil, hours: String? = nil, minGap: String? = nil, spec: String? = nil,
        registered: String? = nil, timezone: String? = nil, from: String? = nil, days: String? = nil,
        to: String? = nil, seed: String? = nil, sampling: String? = nil, window: String? = nil, reminders: String? = nil
    ) {
        self.perDay = perDay
        self.hours = hours
        self.minGap = minGap
        self.spec = spec
        self.registered = registered
        self.timezone = timezone
        self.from = from
        self.days = days
        self.to = to
        self.seed = seed
        self.sampling = sampling
        self.window = window
        self.reminders = reminders
    }
}
