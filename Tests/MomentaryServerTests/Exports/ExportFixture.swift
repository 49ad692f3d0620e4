import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import NIOCore
import Synchronization

/// Studies, participants and responses for export tests, written straight through
/// `ResponseRows` so that times, texts and context are exactly what each test needs.
struct ExportFixture {
    let study: Study
    let survey: Survey

    /// Every kind of answer an export renders differently, plus an info box that is never presented.
    static let document = SurveyDocument(content: [
        SurveyQuestion(id: "intro", text: "A few quick questions.", kind: .infoTextBox),
        SurveyQuestion(id: "mood", text: "How do you feel, from 0 to 100?", kind: .slider(SliderScale(min: 0, max: 100, step: 0.5))),
        SurveyQuestion(id: "with_whom", text: "Who are you with?", kind: .checkbox([
            ChoiceOption("Alone", value: "alone"), ChoiceOption("My partner", value: "partner"),
            ChoiceOption("Friends", value: "friends"),
        ])),
        SurveyQuestion(id: "outside", text: "Are you outdoors?", kind: .yesNo),
        SurveyQuestion(id: "where", text: "Where are you?", kind: .location),
        SurveyQuestion(id: "note", text: "Anything else? Say it \"briefly\", please.", kind: .freeResponse(.multiLineText)),
    ])

    static func make(slug: String = "city-moods", on db: any Database) async throws -> ExportFixture {
        let study = Study(slug: slug, name: "City moods", now: Date())
        try await study.save(on: db)
        let survey = try await SurveyStore.create(
            studyID: try study.requireID(), kind: .esm, name: "Daily", position: 0,
            document: try SurveyStore.text(of: document), on: db, now: Date())
        return ExportFixture(study: study, survey: survey)
    }

    /// The day an instant falls on for the fixture's participants, as beeps store it.
    static func localDate(of instant: Date) -> String {
        WallClock.localDate(of: instant, in: TimeZone(identifier: "Europe/London")!).description
    }

    func participant(timeZone: String = "Europe/London", label: String? = nil, on db: any Database) async throws -> UUID {
        try await Participant.fixture(
            studyID: try study.requireID(), label: label, timeZone: timeZone,
            registeredAt: Date(timeIntervalSince1970: 1_767_225_600), registeredLocalDate: "2026-01-01", on: db
        ).requireID()
    }

    /// Answers to `document`, in order: the info box not presented, the rest answered (the note
    /// skipped when `note` is nil).
    static func answers(mood: Double = 72.5, note: String?) -> [ValidatedAnswer] {
        [
            ValidatedAnswer(questionID: "intro", questionType: .infoTextBox, status: .notPresented),
            ValidatedAnswer(questionID: "mood", questionType: .slider, status: .answered(.number(mood))),
            ValidatedAnswer(questionID: "with_whom", questionType: .checkbox, status: .answered(.array([.string("partner"), .string("friends")]))),
            ValidatedAnswer(questionID: "outside", questionType: .yesNo, status: .answered(.bool(true))),
            ValidatedAnswer(questionID: "where", questionType: .location, status: .answered(.object([
                "latitude": .number(51.5), "longitude": .number(-0.12), "place": .string("Office"),
            ]))),
            ValidatedAnswer(questionID: "note", questionType: .freeResponse, status: note.map { .answered(.string($0)) } ?? .noAnswerSelected),
        ]
    }

    static let context = MomentaryCore.ResponseContext(
        location: LocationFix(latitude: 51.5, longitude: -0.12, altitude: 20, horizontalAccuracy: 30, verticalAccuracy: 8,
                              timestamp: Date(timeIntervalSince1970: 1_772_000_000)),
        sound: SoundLevel(averageDB: 48, peakDB: 63.5), battery: 0.8, connection: .wifi, steps: 120, impetus: .notification)

    /// A response submitted at `submittedAt` (started 25 seconds before), answering a beep sent
    /// `beepSentBefore` seconds before it started, or volunteered when that is nil.
    @discardableResult
    func response(
        from participantID: UUID, submittedAt: Date, beepSentBefore: Double? = nil, mood: Double = 72.5, note: String? = "Fine.",
        context: MomentaryCore.ResponseContext? = ExportFixture.context, on db: any Database
    ) async throws -> SurveyResponse {
        let startedAt = submittedAt.addingTimeInterval(-25)
        var beepID: UUID?
        if let beepSentBefore {
            let beep = Beep()
            beep.$participant.id = participantID
            beep.$study.id = try study.requireID()
            beep.origin = .random
            beep.sequence = Int.random(in: 0..<1_000_000_000)
            beep.scheduledAt = startedAt.addingTimeInterval(-beepSentBefore - 1)
            beep.localDate = Self.localDate(of: beep.scheduledAt)
            beep.sentAt = startedAt.addingTimeInterval(-beepSentBefore)
            beep.status = .answered
            beep.createdAt = beep.scheduledAt
            try await beep.save(on: db)
            beepID = try beep.requireID()
        }
        let draft = ResponseRows.Draft(
            participantID: participantID, studyID: try study.requireID(), surveyID: try survey.requireID(), surveyVersion: 1,
            kind: .esm, beepID: beepID, volunteered: beepID == nil, idempotencyKey: UUID().uuidString,
            startedAt: startedAt, submittedAt: submittedAt, receivedAt: submittedAt.addingTimeInterval(2),
            delaySeconds: beepSentBefore, timeZone: try await Participant.find(participantID, on: db)?.timeZone ?? "Europe/London", language: "en")
        return try await ResponseRows.record(draft, answers: Self.answers(mood: mood, note: note), context: context, on: db)
    }

    /// Attaches environment JSON to a response's context, as the weather service would.
    static func attachEnvironment(to response: SurveyResponse, weather: String?, airQuality: String?, pollen: String?, on db: any Database) async throws {
        let context = try await SurveyResponseContext.query(on: db).filter(\.$response.$id == response.requireID()).first()
        guard let context else { return }
        context.weather = weather
        context.airQuality = airQuality
        context.pollen = pollen
        try await context.save(on: db)
    }

    /// `2026-03-DD hh:mm:ss` UTC.
    static func march(_ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Double = 0) -> Date {
        let midnight = Double(LocalDate(year: 2026, month: 3, day: day)!.daysSinceEpoch) * 86_400
        return Date(timeIntervalSince1970: midnight + Double(hour * 3600 + minute * 60) + second)
    }
}

/// Runs an export into memory.
func exportBytes(
    _ format: ExportFormat, study: String, filter: ExportFilter = ExportFilter(), pageSize: Int? = nil,
    maxRowsPerSheet: Int? = nil, newestFirst: Bool = false, survey: String? = nil, on db: any Database
) async throws -> (data: Data, summary: ExportSummary) {
    var export = try await StudyExport.prepare(ExportRequest(study: study, format: format, filter: filter, survey: survey), on: db)
    if let pageSize { export.pageSize = pageSize }
    if newestFirst {
        export.order = .newestFirst
        export.numbered = true
    }
    if let maxRowsPerSheet { export.maxRowsPerSheet = maxRowsPerSheet }
    let collected = Mutex(Data())
    let summary = try await export.write { chunk in
        collected.withLock { $0.append(contentsOf: chunk.readableBytesView) }
    }
    return (collected.withLock { $0 }, summary)
}

func exportText(
    _ format: ExportFormat, study: String, filter: ExportFilter = ExportFilter(), pageSize: Int? = nil, survey: String? = nil, on db: any Database
) async throws -> String {
    String(decoding: try await exportBytes(format, study: study, filter: filter, pageSize: pageSize, survey: survey, on: db).data, as: UTF8.self)
}
