import Fluent
import MomentaryCore
import SQLKit
import Vapor

/// `/studies`: the studies a researcher may see, and creating and editing a study's settings.
struct StudyRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.studies, use: list)
        routes.get(SiteRoute.newStudy, use: new)
        routes.post(SiteRoute.studies, use: create)
        routes.get(SiteRoute.study, use: overview)
        routes.get(SiteRoute.studySettings, use: settings)
        routes.post(SiteRoute.studySettings, use: update)
    }

    struct StudyListPage: Encodable {
        let chrome: PageChrome
        let studies: [Row]
        let canCreate: Bool
        struct Row: Encodable {
            let slug: String
            let name: String
            let participants: Int
            let archived: Bool
        }
    }

    func list(request: Request) async throws -> Response {
        let researcher = try request.researcher
        let studies = try await Study.query(on: request.db).sort(\.$name).all()
            .filter { researcher.canAccess(studyID: try $0.requireID()) }
        var rows: [StudyListPage.Row] = []
        for study in studies {
            let count = try await Participant.query(on: request.db).filter(\.$study.$id == study.requireID()).count()
            rows.append(.init(slug: study.slug, name: study.name, participants: count, archived: study.archivedAt != nil))
        }
        return try await request.page("studies", StudyListPage(
            chrome: PageChrome(request, title: "Studies"), studies: rows, canCreate: researcher.may(.editStudies)))
    }

    struct OverviewPage: Encodable {
        let chrome: PageChrome
        /// What the study lacks before participants can take part; empty when it can run.
        let missing: [String]
        let joinPath: String
        /// The passive streams the study expects, in words; nil when it names none.
        let expectedStreams: String?
        /// The figures, for researchers who may see participants.
        let figures: Figures?
        /// The latest alerts the study's rules raised.
        let alerts: [AlertEvents.Row]
        struct Figures: Encodable {
            let participants: [StudyOverview.Count]
            let periods: [StudyOverview.Period]
            let chart: String
            let quiet: Int
            let quietDays: Int
            /// Participants taking part now: "everyone has answered" only means something when some do.
            let participating: Int
            /// Whether any beep was ever sent: "none failed" only means something then.
            let anySent: Bool
            let lastSent: String
            let failures: [StudyOverview.Count]
            let withoutChannel: Int
            /// Today in the study's zone, and the zone: the periods are participants' own days.
            let today: String
            let zone: String
        }
    }

    func overview(request: Request) async throws -> Response {
        let study = try await request.study()
        let menu = PageChrome(request, title: study.name, study: study)
        let readiness = try await StudyReadiness.check(study, on: request.db)
        var figures: OverviewPage.Figures?
        if try request.researcher.may(.viewParticipants) {
            let overview = try await StudyOverview.build(study: study, on: request.db, now: request.now)
            figures = .init(
                participants: overview.participantsByStatus, periods: overview.periods,
                chart: ResponseRateChart.svg(overview.days), quiet: overview.quiet, quietDays: StudyOverview.quietDays,
                participating: overview.participantsByStatus.first { $0.name == Participant.Status.participating.rawValue.capitalized }?.count ?? 0,
                anySent: overview.lastSent != nil,
                lastSent: WebFormat.studyDateTime(overview.lastSent, in: study.zone), failures: overview.failures,
                withoutChannel: overview.withoutChannel,
                today: overview.today.description, zone: study.defaultTimeZone)
        }
        return try await request.page("study", OverviewPage(
            chrome: menu, missing: readiness.missing, joinPath: SiteRoute.join.path(study.slug),
            expectedStreams: study.expectedStreams.isEmpty ? nil : study.expectedStreams.map(\.rawValue).joined(separator: ", "),
            figures: figures, alerts: try await AlertEvents.latest(of: study, limit: 5, on: request.db)))
    }

    func new(request: Request) async throws -> Response {
        try request.require(.editStudies)
        let study = Study(slug: "", name: "", now: request.now)
        // The server's own zone, a better guess for a new study than a fixed city.
        study.defaultTimeZone = TimeZone.current.identifier.contains("/") ? TimeZone.current.identifier : "UTC"
        return try await request.page("study-form", StudyFormPage(
            chrome: PageChrome(request, title: "New study"), isNew: true, form: StudyForm(study), problems: []))
    }

    func create(request: Request) async throws -> Response {
        try request.require(.editStudies)
        let form = try Self.postedForm(request)
        var problems = form.problems()
        if problems.isEmpty, try await Study.query(on: request.db).filter(\.$slug == form.slug).first() != nil {
            problems.append(.init(field: "slug", message: "The slug “\(form.slug)” is already used by another study."))
        }
        guard problems.isEmpty else {
            return try await request.page("study-form", StudyFormPage(
                chrome: PageChrome(request, title: "New study"), isNew: true, form: form, problems: problems), status: .unprocessableEntity)
        }
        let researcher = try request.researcher
        let study = try await StudyTransfer.create(
            slug: form.slug, name: form.name, invitationOnly: form.invitationOnly != nil,
            deviceScheduled: form.scheduling == "device", on: request.db, now: request.now)
        form.apply(to: study, now: request.now)
        try await study.save(on: request.db)
        if researcher.studyIDs != nil {
            // A researcher limited to their own studies must be able to see the one they made.
            try await StudyMembership(researcherID: researcher.id, studyID: study.requireID()).save(on: request.db)
        }
        return request.redirect(to: SiteRoute.studySettings.path(study.slug) + "?created=1")
    }

    func settings(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewStudies)
        let replanned = request.query[Int.self, at: "replanned"]
        let notice = replanned.map { "Saved. The planned beeps of \($0) participant\($0 == 1 ? "" : "s") now follow the new rules." }
        return try await request.page("study-form", StudyFormPage(
            chrome: PageChrome(request, title: "Settings · \(study.name)", study: study, notice: notice), isNew: false,
            form: StudyForm(study), problems: [], canEdit: try request.researcher.may(.editStudies),
            feedbackSurvey: try await SurveyCatalog.answeredDocument(of: study, on: request.db)))
    }

    func update(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        var form = try Self.postedForm(request)
        form.slug = study.slug
        let survey = try await SurveyCatalog.answeredDocument(of: study, on: request.db)
        let problems = form.problems(feedbackSurvey: survey)
        guard problems.isEmpty else {
            return try await request.page("study-form", StudyFormPage(
                chrome: PageChrome(request, title: "Settings · \(study.name)", study: study), isNew: false,
                form: form, problems: problems, feedbackSurvey: survey), status: .unprocessableEntity)
        }
        let rulesBefore = Self.signallingRules(of: study)
        form.apply(to: study, now: request.now)
        try await study.save(on: request.db)
        let rulesChanged = Self.signallingRules(of: study) != rulesBefore
        let replanned = try await StudyTransfer.participantsFollow(study, rulesBefore: rulesBefore, schedulesChanged: false, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.studySettings.path(study.slug) + "?saved=1" + (rulesChanged ? "&replanned=\(replanned)" : ""))
    }

    /// The posted settings with the study's texts in its other languages.
    static func postedForm(_ request: Request) throws -> StudyForm {
        var form = try request.content.decode(StudyForm.self)
        // A form without the field (an older page, a script) keeps English only, as before.
        if form.languages == nil { form.languages = StudyLanguages.default.joined() }
        form.translations = StudyTranslationFields.read(try request.content.decode([String: String].self), languages: form.languageList)
        return form
    }

    /// What decides the beeps of participants already taking part (default hours only concern new
    /// ones, unless the study fixes everyone's hours).
    static func signallingRules(of study: Study) -> [String] {
        let fixedHours = study.signallingRules.hoursPolicy == .fixed ? "\(study.defaultStartMinutes)-\(study.defaultEndMinutes)" : ""
        return [study.scheduling.rawValue, String(study.randomSampling), String(study.minGapMinutes), String(study.minBeepsPerDay),
                String(study.maxBeepsPerDay), study.endsOn ?? "", study.endsAfterDays.map(String.init) ?? "",
                study.sampling, study.samplingDays ?? "", fixedHours, study.armsJSON ?? ""]
    }
}

struct StudyFormPage: Encodable {
    let chrome: PageChrome
    let isNew: Bool
    let form: StudyForm
    /// Every problem, listed above the form.
    let problems: [String]
    /// The first problem of each field by its input's id, shown next to that input.
    let fieldProblems: [String: String]
    var canEdit = true
    /// Every IANA zone name, offered as the time zone field is typed.
    let timeZones = StudyFormPage.zoneNames
    let appLanguages = AppLanguages.supported.map(QuestionTranslationFields.displayName(of:)).joined(separator: ", ")
    /// The longest texts allowed (`TextLimits`), shown beside their fields.
    let limits = Limits()

    struct Limits: Encodable {
        let name = TextLimits.studyName
        let consent = TextLimits.consentText
        let alert = TextLimits.alertText
        let consentText = TextLimits.grouped(TextLimits.consentText)
    }
    /// The hours in 15-minute steps, with the form's own value kept if it is off the grid.
    let startChoices: [Choice]
    let endChoices: [Choice]
    /// The survey's sliders the feedback charts may summarise; empty for a new study (no survey yet).
    let feedbackChoices: [Choice]

    struct Choice: Encodable {
        let value: String
        let selected: Bool
        var label: String? = nil
    }

    static let zoneNames = TimeZone.knownTimeZoneIdentifiers.sorted()

    static func clockChoices(selected: String) -> [Choice] {
        var values = stride(from: 0, to: 1440, by: 15).map(StudyForm.clock)
        if !values.contains(selected) { values.append(selected); values.sort() }
        return values.map { Choice(value: $0, selected: $0 == selected) }
    }

    init(
        chrome: PageChrome, isNew: Bool, form: StudyForm, problems: [StudyForm.Problem], canEdit: Bool = true,
        feedbackSurvey: SurveyDocument? = nil
    ) {
        self.chrome = chrome
        self.isNew = isNew
        self.form = form
        self.startChoices = Self.clockChoices(selected: form.defaultStart)
        self.endChoices = Self.clockChoices(selected: form.defaultEnd)
        let chosen = form.feedbackQuestionID ?? ""
        let (sliders, scores) = FeedbackSubject.choices(in: feedbackSurvey ?? SurveyDocument(content: []))
        self.feedbackChoices = sliders.isEmpty && scores.isEmpty ? [] : [Choice(value: "", selected: chosen.isEmpty, label: "The survey’s first slider")]
            + sliders.map { Choice(value: $0.id, selected: $0.id == chosen, label: "\($0.text) (\($0.id))") }
            + scores.map { Choice(value: $0.id, selected: $0.id == chosen, label: "Score: \($0.label?.text ?? $0.id) (\($0.id))") }
        self.problems = problems.map(\.message)
        self.fieldProblems = Dictionary(problems.map { ($0.field, $0.message) }, uniquingKeysWith: { first, _ in first })
        self.canEdit = canEdit
    }
}
