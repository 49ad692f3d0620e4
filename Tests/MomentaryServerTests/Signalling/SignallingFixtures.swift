import ArgumentParser
import Fluent
import Foundation
@testable import MomentaryCore
@testable import MomentaryServer
import SQLKit
import Synchronization
import Testing
import Vapor

/// A push channel that records every push and answers as told (accepted by default).
final class RecordingChannel: PushChannel {
    struct Push: Sendable {
        let message: PushMessage
        let target: PushTarget
        let at: Date
    }

    let name: String
    private let clock: any TimeSource
    private let pushes = Mutex<[Push]>([])
    /// Wrapped in a struct: a bare closure stored in a `Mutex` is re-wrapped in a conversion
    /// thunk on every read, and after thousands of pushes calling it overflows the stack.
    private struct Responder: Sendable {
        let respond: @Sendable (PushMessage) -> PushOutcome
    }

    private let responder: Mutex<Responder>

    init(name: String = "outbox", clock: any TimeSource) {
        self.name = name
        self.clock = clock
        responder = Mutex(Responder { _ in .accepted(statusCode: 200, serviceID: nil) })
    }

    /// Sets how the channel answers from now on.
    func answer(with respond: @escaping @Sendable (PushMessage) -> PushOutcome) {
        responder.withLock { $0 = Responder(respond: respond) }
    }

    func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome {
        let at = clock.now()
        pushes.withLock { $0.append(Push(message: message, target: target, at: at)) }
        return responder.withLock { $0 }.respond(message)
    }

    var all: [Push] { pushes.withLock { $0 } }
    var beepIDs: [UUID] { all.map(\.message.id) }
}

/// Rows for signalling tests: a study, its ESM survey and participants.
struct SignallingFixture {
    let study: Study
    let survey: Survey

    static func make(
        on db: any Database, now: Date, randomSampling: Bool = true, minimumGap: Int = 60,
        maxDueAtOnce: Int = 1000, scheduling: Study.Scheduling = .server, fixedRules: String? = nil,
        defaultTimeZone: String = "America/New_York"
    ) async throws -> SignallingFixture {
        let study = Study(slug: "signal-\(UUID().uuidString.prefix(8).lowercased())", name: "Signalling", now: now)
        study.randomSampling = randomSampling
        study.minGapMinutes = minimumGap
        study.maxDueAtOnce = maxDueAtOnce
        study.scheduling = scheduling
        study.defaultTimeZone = defaultTimeZone
        try await study.save(on: db)
        let survey = try await SurveyStore.create(
            studyID: try study.requireID(), kind: .esm, name: "ESM", position: 0,
            document: #"{"content":[],"settings":{},"survey_type":"tracking_survey"}"#, on: db, now: now)
        if let fixedRules {
            try await Schedule(studyID: try study.requireID(), surveyID: try survey.requireID(), document: fixedRules, updatedAt: now)
                .save(on: db)
        }
        return SignallingFixture(study: study, survey: survey)
    }

    /// A participant registered at `now`; `start`/`end` are "HH:MM".
    @discardableResult
    func participant(
        on db: any Database, now: Date, zone: String = "Europe/London", beepsPerDay: Int = 2,
        start: String = "08:00", end: String = "22:00", channel: String = "outbox",
        status: Participant.Status = .participating, active: Bool = true
    ) async throws -> Participant {
        let resolved = ParticipantTimeZone.resolve(zone, studyDefault: study.defaultTimeZone)
        return try await Participant.fixture(
            studyID: try study.requireID(), status: status, active: active, timeZone: zone, beepsPerDay: beepsPerDay,
            signalStartMinutes: try minutes(start), signalEndMinutes: try minutes(end), sound: "chime", pushChannel: channel,
            registeredAt: now, registeredLocalDate: WallClock.localDate(of: now, in: resolved).description, updatedAt: now, on: db)
    }

    /// A pending beep due at `at`, outside the planner (for dispatcher tests).
    @discardableResult
    func pendingBeep(
        for participant: Participant, at: Date, origin: Beep.Origin = .random, sequence: Int, on db: any Database
    ) async throws -> Beep {
        let beep = Beep(
            participantID: try participant.requireID(), studyID: try study.requireID(), surveyID: nil, origin: origin,
            localDate: "2000-01-01", sequence: sequence, scheduledAt: at, timeZone: participant.timeZone, now: at)
        try await beep.save(on: db)
        return beep
    }
}

func minutes(_ text: String) throws -> Int {
    guard let time = TimeOfDay(text) else { throw FixtureError("not a time: \(text)") }
    return time.minutes
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The instant of a local wall-clock time, for readable test set-ups.
func instant(_ date: String, _ time: String, in zone: String) -> Date {
    WallClock.instant(on: LocalDate(date)!, at: TimeOfDay(time)!, in: TimeZone(identifier: zone)!)
}

/// All beeps of a participant, in time order.
func beeps(of participant: Participant, on db: any Database) async throws -> [Beep] {
    try await Beep.query(on: db).filter(\.$participant.$id == participant.requireID()).sort(\.$scheduledAt).all()
}

/// `participants.next_plan_at`, which only the signalling code reads and writes.
func nextPlanAt(of participant: Participant, on db: any Database) async throws -> Date? {
    let sql = db.sql
    let row = try #require(try await sql.select().column("next_plan_at").from("participants")
        .where("id", .equal, participant.requireID()).first())
    return try row.decode(column: "next_plan_at", as: Date?.self)
}

/// A dispatcher on the test app's database, with a manual clock and the given channels.
func makeDispatcher(
    _ app: Application, clock: ManualTimeSource, channels: [any PushChannel],
    options: SignalDispatcherOptions = SignalDispatcherOptions(
        workerID: "test-worker", maximumSleep: 86_400, randomness: .seeded(7))
) -> SignalDispatcher {
    SignalDispatcher(
        database: app.db, channels: PushChannelRegistry(channels), timeSource: clock, options: options,
        logger: app.logger, metrics: app.metrics)
}

/// Waits (in real time, up to `seconds`) until `condition` holds; fails the test otherwise. The
/// default is generous because the whole suite shares two cores: a wait is only long when it fails.
func eventually(
    within seconds: Double = 60, _ what: String, _ condition: () async throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("timed out waiting until \(what)")
    throw FixtureError("timed out waiting until \(what)")
}

/// A counter closures can share.
final class SharedCounter: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new value.
    func increment() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}

