import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/responses`: newest first with place and country, 50 a page; and one response
/// with its answers and context.
struct ResponseRoutes: RouteCollection {
    static let pageSize = 50

    func boot(routes: any RoutesBuilder) throws {
        routes.get("studies", ":slug", "responses", use: list)
        routes.get("studies", ":slug", "responses", ":responseID", use: show)
    }

    struct ResponsesPage: Encodable {
        let chrome: PageChrome
        let rows: [Row]
        let total: Int
        let page: Int
        let previousPage: Int?
        let nextPage: Int?
        let canExport: Bool
        struct Row: Encodable {
            let id: String
            let submitted: String
            let participant: String
            let survey: String
            let place: String
            let country: String
        }
    }

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewResponses)
        let studyID = try study.requireID()
        let page = max(1, request.query[Int.self, at: "page"] ?? 1)
        let total = try await SurveyResponse.query(on: request.db).filter(\.$study.$id == studyID).count()
        let responses = try await SurveyResponse.query(on: request.db).filter(\.$study.$id == studyID)
            .sort(\.$submittedAt, .descending).sort(\.$id)
            .range(lower: (page - 1) * Self.pageSize, upper: page * Self.pageSize)
            .with(\.$survey).with(\.$participant) { $0.with(\.$invitee) }.all()
        let ids = try responses.map { try $0.requireID() }
        let contexts = ids.isEmpty ? [] : try await SurveyResponseContext.query(on: request.db).filter(\.$response.$id ~~ ids).all()
        let contextByResponse = Dictionary(contexts.map { ($0.$response.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = responses.map { response in
            let context = contextByResponse[response.id!]
            return ResponsesPage.Row(
                id: response.id!.uuidString, submitted: WebFormat.dateTime(response.submittedAt),
                participant: response.participant.label ?? response.participant.invitee?.code ?? "—", survey: response.survey.name,
                place: context?.placeText ?? "—", country: context?.country ?? "—")
        }
        return try await request.page("responses", ResponsesPage(
            chrome: PageChrome(request, title: "Responses · \(study.name)", study: study), rows: rows, total: total,
            page: page, previousPage: page > 1 ? page - 1 : nil,
            nextPage: page * Self.pageSize < total ? page + 1 : nil, canExport: try request.researcher.may(.exportResponses)))
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
        // The questions as the participant read them, in the version they answered.
        let version = try await SurveyCatalog.version(response.surveyVersion, of: response.survey.requireID(), on: request.db)
        let document = version.flatMap { try? SurveyCatalog.document(of: $0) }
        let answers = response.answers.sorted { $0.position < $1.position }.map { answer in
            let question = document?.question(withID: answer.questionID)
            let answered = answer.status == "answered"
            return ResponsePage.AnswerRow(
                question: question?.text ?? answer.questionID, id: answer.questionID, type: answer.questionType,
                value: answered ? AnswerDisplay.text(json: answer.value, question: question) : AnswerDisplay.status(answer.status),
                answered: answered)
        }
        let context = try await SurveyResponseContext.query(on: request.db).filter(\.$response.$id == id).first()
        let zone = ParticipantTimeZone.resolve(response.participant.timeZone, studyDefault: study.defaultTimeZone)
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
            ("Weather", context.weather), ("Air quality", context.airQuality), ("Pollen", context.pollen),
        ]
        return rows + pairs.compactMap { name, value in value.map { ResponsePage.ContextRow(name: name, value: $0) } }
    }
}
