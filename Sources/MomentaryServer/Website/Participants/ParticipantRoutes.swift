import Fluent
import Vapor

/// `/studies/:slug/participants`: the compliance table with study totals, a daily response-rate
/// chart and a filter for participants with no answer in the last three days.
struct ParticipantRoutes: RouteCollection {
    static let quietDays = 3

    func boot(routes: any RoutesBuilder) throws {
        routes.get("studies", ":slug", "participants", use: list)
    }

    struct ParticipantsPage: Encodable {
        let chrome: PageChrome
        let rows: [Row]
        let participantCount: Int
        let totalSent: Int
        let totalAnswered: Int
        let totalRate: String
        let chart: String
        let quietOnly: Bool
        let canSendTestBeep: Bool
        struct Row: Encodable {
            let code: String
            let status: String
            let sent: Int
            let answered: Int
            let ignored: Int
            let missed: Int
            let rate: String
            let medianDelay: String
            let lastSeen: String
            let push: String
            let unregistered: Bool
        }
    }

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let report = try await ComplianceReport.build(studyID: study.requireID(), on: request.db)
        let quietOnly = request.query[String.self, at: "filter"] == "quiet"
        let cutoff = Date().addingTimeInterval(-Double(Self.quietDays) * 86_400)
        let shown = report.rows.filter { row in
            !quietOnly || (row.status == "participating" && (row.lastResponseAt.map { $0 < cutoff } ?? true))
        }
        let rows = shown.map { row in
            ParticipantsPage.Row(
                code: row.code, status: row.status.capitalized, sent: row.sent, answered: row.answered,
                ignored: row.ignored, missed: row.missed, rate: WebFormat.percent(row.responseRate),
                medianDelay: WebFormat.duration(row.medianDelaySeconds), lastSeen: WebFormat.dateTime(row.lastSeenAt),
                push: "\(row.pushChannel)\(row.lastPushOutcome.map { " · last: \($0)" } ?? "")",
                unregistered: row.unregistered)
        }
        return try await request.page("participants", ParticipantsPage(
            chrome: PageChrome(request, title: "Participants · \(study.name)", study: study),
            rows: rows, participantCount: report.rows.count, totalSent: report.totalSent,
            totalAnswered: report.totalAnswered, totalRate: WebFormat.percent(report.totalRate),
            chart: ResponseRateChart.svg(report.days), quietOnly: quietOnly,
            canSendTestBeep: try request.researcher.may(.sendTestBeep)))
    }
}
