import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/responses`: 50 a page, newest or oldest first, filtered by participant label,
/// days (UTC, read by the same rule as exports) and answered-a-beep or volunteered, with times in
/// the participant's zone; and one response with its answers and context.
struct ResponseRoutes: RouteCollection {
    static let pageSize = 50

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.responses, use: list)
        routes.get(SiteRoute.response, use: show)
    }

    struct ResponsesPage: Encodable {
        let chrome: PageChrome
        let rows: [Row]
        let total: Int
        let matching: Int
        let filtered: Bool
        let page: Int
        let pageCount: Int
        let previousPage: String?
        let nextPage: String?
        let canExport: Bool
        let participant: String
        let from: String
        let to: String
        let kinds: [SelectChoice]
        let orders: [SelectChoice]
        /// Which calendar the dates are days of: the study's zone (named) or UTC.
        let dayZones: [SelectChoice]
        let dayZone: String
        let problem: String?
        struct Row: Encodable {
            let id: String
            let submitted: String
            let submittedUTC: String
            let participant: String
            let survey: String
            let answering: String
            let place: String
            let country: String
        }
    }

    /// The list's query string, as its filter form sends it.
    struct ListQuery: Content {
        var participant: String?
        var from: String?
        var to: String?
        var kind: String?
        var order: String?
        var page: String?
        /// `utc` for dates as UTC days; otherwise days in the study's zone.
        var days: String?
    }

    static let kindChoices = [("all", "All responses"), ("beep", "Answering a beep"), ("volunteered", "Volunteered")]
    static let orderChoices = [("newest", "Newest first"), ("oldest", "Oldest first")]

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewResponses)
        let studyID = try study.requireID()
        let form = try request.query.decode(ListQuery.self)
        let kind = Self.kindChoices.map(\.0).contains(form.kind ?? "") ? form.kind! : "all"
        let oldestFirst = form.order == "oldest"
        let inUTC = form.days == "utc"
        var problem: String?
        var query = SurveyResponse.query(on: request.db).filter(\.$study.$id == studyID)
        do {
            var dates = try ExportFilter.parse(from: form.from, to: form.to, participants: [])
            dates.zone = inUTC ? nil : study.zone
            if let earliest = dates.earliest { query = query.filter(\.$submittedAt >= earliest) }
            if let end = dates.end { query = query.filter(\.$submittedAt < end) }
        } catch {
            problem = error.message
        }
        let label = (form.participant ?? "").trimmingCharacters(in: .whitespaces).uppercased()
        if !label.isEmpty {
            if let participant = try await Participant.query(on: request.db)
                .filter(\.$study.$id == studyID).filter(\.$label == label).first() {
                query = query.filter(\.$participant.$id == (try participant.requireID()))
            } else {
                problem = "No participant of this study has the label “\(label.prefix(20))”."
            }
        }
        switch kind {
        case "beep": query = query.filter(\.$beep.$id != nil)
        case "volunteered": query = query.filter(\.$volunteered == true)
        default: break
        }
        let filtered = !label.isEmpty || !(form.from ?? "").isEmpty || !(form.to ?? "").isEmpty || kind != "all"
        // The study's total is kept by the database (StudyTallies); only a filtered list is counted.
        let total = try await StudyTallies.byStatus(studyID: studyID, subject: .responses, on: request.db.sql)
            .reduce(0) { $0 + $1.n }
        let matching = problem != nil ? 0 : filtered ? try await query.copy().count() : total
        let link = { (number: Int) -> String in
            var items = [URLQueryItem(name: "page", value: String(number))]
            if !label.isEmpty { items.append(URLQueryItem(name: "participant", value: label)) }
            if let from = form.from, !from.isEmpty { items.append(URLQueryItem(name: "from", value: from)) }
            if let to = form.to, !to.isEmpty { items.append(URLQueryItem(name: "to", value: to)) }
            if kind != "all" { items.append(URLQueryItem(name: "kind", value: kind)) }
            if oldestFirst { items.append(URLQueryItem(name: "order", value: "oldest")) }
            if inUTC { items.append(URLQueryItem(name: "days", value: "utc")) }
            var components = URLComponents()
            components.queryItems = items
            return SiteRoute.responses.path(study.slug) + (components.string ?? "")
        }
        let window = PageWindow(requested: Int(form.page ?? "") ?? 1, matching: matching, pageSize: Self.pageSize, link: link)
        let responses = problem != nil ? [] : try await query
            .sort(\.$submittedAt, oldestFirst ? .ascending : .descending).sort(\.$id)
            .offset(window.offset).limit(Self.pageSize)
            .with(\.$survey).with(\.$participant).all()
        let ids = try responses.map { try $0.requireID() }
        let contexts = ids.isEmpty ? [] : try await SurveyResponseContext.query(on: request.db).filter(\.$response.$id ~~ ids).all()
        let contextByResponse = Dictionary(contexts.map { ($0.$response.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = try responses.map { response in
            let context = contextByResponse[try response.requireID()]
            let zone = response.zone(of: response.participant, studyDefault: study.defaultTimeZone)
            return ResponsesPage.Row(
                id: try response.requireID().uuidString, submitted: WebFormat.localDateTime(response.submittedAt, in: zone),
                submittedUTC: WebFormat.dateTime(response.submittedAt),
                participant: response.participant.label ?? "—", survey: response.survey.name,
                answering: response.$beep.id != nil ? "beep" : (response.volunteered ? "volunteered" : "—"),
                place: context?.placeText ?? "—", country: context?.country ?? "—")
        }
        return try await request.page("responses", ResponsesPage(
            chrome: PageChrome(request, title: "Responses · \(study.name)", study: study), rows: rows, total: total,
            matching: matching, filtered: filtered,
            page: window.page, pageCount: window.pageCount, previousPage: window.previous,
            nextPage: window.next, canExport: try request.researcher.may(.exportResponses),
            participant: label, from: form.from ?? "", to: form.to ?? "",
            kinds: Self.kindChoices.map { .init(value: $0.0, label: $0.1, selected: $0.0 == kind) },
            orders: Self.orderChoices.map { .init(value: $0.0, label: $0.1, selected: ($0.0 == "oldest") == oldestFirst) },
            dayZones: [.init(value: "study", label: study.zone.identifier, selected: !inUTC), .init(value: "utc", label: "UTC", selected: inUTC)],
            dayZone: inUTC ? "UTC" : study.zone.identifier,
            problem: problem), status: problem == nil ? .ok : .badRequest)
    }

    struct ResponsePage: Encodable {
        let chrome: PageChrome
        let submitted: String
        let started: String
        let startedUTC: String
        let submittedUTC: String
        let participant: String
        let survey: String
        let delay: String
        let volunteered: Bool
        let answers: [AnswerRow]
        let context: [ContextRow]
        struct AnswerRow: Encodable {
            let question: String
            let id: String
            let type: String
            let value: String
            let answered: Bool
        }
        struct ContextRow: Encodable {
            let name: String
            let value: String
            var link: String? = nil
        }
    }

    func show(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewResponses)
        guard let id = request.parameters.get("responseID", as: UUID.self),
              let response = try await SurveyResponse.query(on: request.db)
                .filter(\.$id == id).filter(\.$study.$id == study.requireID())
                .with(\.$survey).with(\.$answers).with(\.$participant, { $0.with(\.$invitee) }).first()
        else {
            throw Abort(.notFound, reason: "This study has no such response.")
        }
        // The questions as the participant read them, in the version and language they answered.
        let version = try await SurveyCatalog.version(response.surveyVersion, of: response.survey.requireID(), on: request.db)
        let document = version.flatMap { try? SurveyCatalog.document(of: $0) }?
            .localized(for: response.language.map { [$0] } ?? [], languages: study.languages)
        let answers = response.answers.sorted { $0.position < $1.position }.map { answer in
            let question = document?.question(withID: answer.questionID)
            let answered = answer.status == "answered"
            return ResponsePage.AnswerRow(
                question: question?.text.text ?? answer.questionID, id: answer.questionID, type: answer.questionType,
                value: answered ? AnswerDisplay.text(json: answer.value, question: question) : AnswerDisplay.status(answer.status),
                answered: answered)
        }
        let context = try await SurveyResponseContext.query(on: request.db).filter(\.$response.$id == id).first()
        let zone = response.zone(of: response.participant, studyDefault: study.defaultTimeZone)
        return try await request.page("response", ResponsePage(
            chrome: PageChrome(request, title: "Response · \(study.name)", study: study),
            submitted: WebFormat.localDateTime(response.submittedAt, in: zone),
            started: WebFormat.localDateTime(response.startedAt, in: zone),
            startedUTC: WebFormat.dateTime(response.startedAt), submittedUTC: WebFormat.dateTime(response.submittedAt),
            participant: response.participant.label ?? response.participant.invitee?.code ?? "—", survey: "\(response.survey.name) v\(response.surveyVersion)",
            delay: WebFormat.duration(response.delaySeconds), volunteered: response.volunteered,
            answers: answers, context: context.map(Self.contextRows) ?? []))
    }

    static func contextRows(_ context: SurveyResponseContext) -> [ResponsePage.ContextRow] {
        let number = { (value: Double?) in value.map(ExportCell.numberText) }
        var rows: [ResponsePage.ContextRow] = []
        if let latitude = context.latitude, let longitude = context.longitude {
            var text = "\(ExportCell.numberText(latitude)), \(ExportCell.numberText(longitude))"
            if let accuracy = context.horizontalAccuracy { text += " (± \(Int(accuracy.rounded())) m)" }
            let map = "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=16/\(latitude)/\(longitude)"
            rows.append(ResponsePage.ContextRow(name: "Location", value: text, link: map))
        }
        let pairs: [(String, String?)] = [
            ("Place", context.placeText), ("Country", context.country),
            ("Sound", context.soundAverageDB.map { average in
                "average \(ExportCell.numberText(average)) dB" + (number(context.soundPeakDB).map { ", peak \($0) dB" } ?? "")
            }),
            ("Battery", context.battery.map { WebFormat.percent($0) }), ("Connection", context.connection),
            ("Steps", context.steps.map { "\($0)" }), ("Why answered", context.impetus),
            ("Weather", context.weather.map(EnvironmentText.weather)),
            ("Air quality", context.airQuality.map(EnvironmentText.airQuality)), ("Pollen", context.pollen.map(EnvironmentText.pollen)),
        ]
        return rows + pairs.compactMap { name, value in value.map { ResponsePage.ContextRow(name: name, value: $0) } }
    }
}
