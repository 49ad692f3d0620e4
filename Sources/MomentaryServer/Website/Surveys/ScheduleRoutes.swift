import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/surveys/:surveyID/schedule`: a survey's fixed rules document, with the beeps it
/// would give a participant who registers today in the study's default time zone.
struct ScheduleRoutes: RouteCollection {
    static let previewDays = 14
    static let previewLimit = 30

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.surveySchedule, use: edit)
        routes.post(SiteRoute.surveySchedule, use: save)
    }

    struct SchedulePage: Encodable {
        let chrome: PageChrome
        let surveyID: String
        let surveyName: String
        let document: String
        let problem: String?
        let timeZone: String
        let beeps: [String]
        /// Random sampling in words, when the study samples at random; nil otherwise.
        let randomRules: String?
        /// One sample day of random beeps under the study's preset settings (a fresh draw each view).
        let sampleDay: [String]
        /// Beeps already planned for the study's participants in the next 24 hours.
        let plannedNextDay: Int
    }

    func edit(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        let stored = try await Schedule.query(on: request.db).filter(\.$survey.$id == survey.requireID()).first()
        let text = SurveyEditorRoutes.pretty(stored?.document ?? #"{"rules": []}"#)
        return try await render(study, survey, text: text, problem: nil, on: request)
    }

    func save(request: Request) async throws -> Response {
        let (study, survey) = try await request.studySurvey()
        struct Form: Content { var document: String }
        let form = try request.content.decode(Form.self)
        let document: FixedScheduleDocument
        do throws(FixedScheduleError) {
            document = try FixedScheduleDocument.parse(Data(form.document.utf8))
        } catch {
            return try await render(study, survey, text: form.document, problem: error.description, on: request, status: .unprocessableEntity)
        }
        if let problem = ParticipantDates.scheduleProblems(document, names: study.participantDateNames).first {
            return try await render(study, survey, text: form.document, problem: problem + ".", on: request, status: .unprocessableEntity)
        }
        let surveyID = try survey.requireID()
        if let schedule = try await Schedule.query(on: request.db).filter(\.$survey.$id == surveyID).first() {
            schedule.document = form.document
            schedule.updatedAt = request.now
            try await schedule.save(on: request.db)
        } else {
            try await Schedule(studyID: study.requireID(), surveyID: surveyID, document: form.document, updatedAt: request.now).save(on: request.db)
        }
        // Fixed times already planned are replaced by the new rules' at once.
        try await BeepPlanner.studyRulesChanged(try study.requireID(), on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.surveySchedule.path(study.slug, surveyID) + "?saved=1")
    }

    private func render(
        _ study: Study, _ survey: Survey, text: String, problem: String?, on request: Request, status: HTTPStatus = .ok
    ) async throws -> Response {
        let zone = TimeZone(identifier: study.defaultTimeZone) ?? .gmt
        let now = request.now
        var beeps: [String] = []
        if problem == nil, let document = try? FixedScheduleDocument.parse(Data(text.utf8)), let today = Self.today(in: zone, now: now) {
            beeps = FixedSchedule.beeps(document, registeredOn: today, timeZone: zone, from: today, through: today.adding(days: Self.previewDays))
                .filter { $0 > now }.prefix(Self.previewLimit).map { Self.local($0, in: zone) }
        }
        let sample = Self.sampleDay(of: study, in: zone, now: now)
        let plannedNextDay = try await Beep.query(on: request.db)
            .filter(\.$study.$id == study.requireID()).filter(\.$status == .pending)
            .filter(\.$scheduledAt >= now).filter(\.$scheduledAt < now.addingTimeInterval(86_400)).count()
        return try await request.page("schedule", SchedulePage(
            chrome: PageChrome(request, title: "Schedule · \(survey.name)", study: study, notice: "Schedule saved."),
            surveyID: try survey.requireID().uuidString, surveyName: survey.name, document: text, problem: problem,
            timeZone: zone.identifier, beeps: beeps, randomRules: sample.rules, sampleDay: sample.beeps,
            plannedNextDay: plannedNextDay), status: status)
    }

    /// The study's random sampling in words and one day drawn with its preset settings, so a
    /// researcher sees what participants will get; nothing when the study does not sample at random.
    static func sampleDay(of study: Study, in zone: TimeZone, now: Date) -> (rules: String?, beeps: [String]) {
        guard study.randomSampling, let today = today(in: zone, now: now),
              let start = TimeOfDay(minutes: study.defaultStartMinutes), let end = TimeOfDay(minutes: study.defaultEndMinutes)
        else { return (nil, []) }
        let range = study.minBeepsPerDay == study.maxBeepsPerDay
            ? "\(study.minBeepsPerDay)" : "\(study.minBeepsPerDay) to \(study.maxBeepsPerDay) (preset \(study.defaultBeepsPerDay))"
        let rules = "Participants are beeped at random moments: \(range) beeps a day, each uniformly distributed "
            + "within the hours they choose (preset \(start)–\(end)), at least \(study.minGapMinutes) minutes apart, "
            + "never in the last \(SignallingSettings.deliveryMarginMinutes) minutes."
        var generator = SystemRandomNumberGenerator()
        let settings = SignallingSettings(beepsPerDay: study.defaultBeepsPerDay, start: start, end: end)
        let beeps = (try? RandomSchedule.beeps(
            on: today, settings: settings, minimumGapMinutes: study.minGapMinutes, timeZone: zone, using: &generator)) ?? []
        return (rules, beeps.map { local($0, in: zone) })
    }

    static func today(in zone: TimeZone, now: Date) -> LocalDate? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return LocalDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
    }

    static func local(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
