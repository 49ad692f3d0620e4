import Fluent
import Vapor

/// `/studies/:slug/participants`: the compliance table, 50 a page, searchable by label and
/// filtered by status and "no answer in N days", with study totals and a daily response-rate chart;
/// and a test beep to one participant (the same code as `momentary beep now`).
struct ParticipantRoutes: RouteCollection {
    static let quietDays = 3

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.participants, use: list)
        routes.post(SiteRoute.participantTestBeep, use: sendTestBeep)
        routes.post(SiteRoute.participantStatus, use: changeStatus)
        routes.post(SiteRoute.participantDeleteData, use: deleteData)
        routes.post(SiteRoute.participantErase, use: erase)
    }

    struct ParticipantsPage: Encodable {
        let chrome: PageChrome
        let rows: [Row]
        let participantCount: Int
        let matching: Int
        let search: String
        let quietDays: String
        let quietFilter: Bool
        let statusFilters: [SelectChoice]
        let filtered: Bool
        let page: Int
        let pageCount: Int
        let previousPage: String?
        let nextPage: String?
        let totalSent: Int
        let totalAnswered: Int
        let totalRate: String
        let chart: String
        /// Whether the study names participant dates, and which (a link per row sets them).
        let hasDates: Bool
        let dateNames: String
        let hasVariables: Bool
        let variableNames: String
        /// Whether the study has arms (a link per row shows and reassigns the arm).
        let hasArms: Bool
        let canSendTestBeep: Bool
        let canChangeStatus: Bool
        let canDeleteData: Bool
        /// The messages page, writing to the participants this filter lists; nil without the permission.
        let writeLink: String?
        /// The outcome of the test beep just sent, read back from the database.
        let testBeep: String?
        /// What the last status change or deletion left, read back from the database.
        let updated: String?
        struct Row: Encodable {
            let id: String
            let code: String
            let status: String
            let statusChoices: [SelectChoice]
            let sent: Int
            let answered: Int
            let ignored: Int
            let missed: Int
            let rate: String
            let medianDelay: String
            let lastSeen: String
            let push: String
            let unregistered: Bool
            let erased: Bool
        }
    }

    /// The list's query string as the page's filter form sends it.
    struct ListQuery: Content {
        var q: String?
        var status: String?
        var quiet: String?
        /// `quiet`, the older link for "no answer in 3 days".
        var filter: String?
        var page: String?
    }

    /// Reads the filter form; a value that cannot be understood is answered 400 with the reason.
    static func listQuery(_ form: ListQuery) throws -> ParticipantListQuery {
        var query = ParticipantListQuery()
        query.search = form.q.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : String($0.prefix(60)) }
        if let status = form.status, !status.isEmpty, status != "all" {
            guard let known = Participant.Status(rawValue: status) else {
                throw Abort(.badRequest, reason: "Choose a status to show: all, participating, restricted or withdrawn.")
            }
            query.status = known
        }
        if let quiet = form.quiet, !quiet.isEmpty {
            guard let days = Int(quiet), (1...365).contains(days) else {
                throw Abort(.badRequest, reason: "“No answer in” takes a number of days from 1 to 365, not “\(quiet.prefix(20))”.")
            }
            query.quietDays = days
        } else if form.filter == "quiet" {
            query.quietDays = Self.quietDays
        }
        query.page = try PageWindow.requestedPage(form.page)
        return query
    }

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let query = try Self.listQuery(try request.query.decode(ListQuery.self))
        let link = { (number: Int) -> String in
            var parts = ["page=\(number)"]
            if let search = query.search { parts.append("q=" + (search.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")) }
            if let status = query.status { parts.append("status=\(status.rawValue)") }
            if let days = query.quietDays { parts.append("quiet=\(days)") }
            return SiteRoute.participants.path(study.slug) + "?" + parts.joined(separator: "&")
        }
        let report = try await ComplianceReport.build(study: study, query: query, on: request.db, now: request.now, link: link)
        let rows = report.rows.map { row in
            ParticipantsPage.Row(
                id: row.participantID.uuidString, code: row.code, status: row.erased ? "Erased" : row.status.capitalized,
                statusChoices: Self.statusChoices.map { .init(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0.rawValue == row.status) }, sent: row.sent, answered: row.answered,
                ignored: row.ignored, missed: row.missed, rate: WebFormat.percent(row.responseRate),
                medianDelay: WebFormat.duration(row.medianDelaySeconds), lastSeen: WebFormat.studyDateTime(row.lastSeenAt, in: study.zone),
                push: "\(row.pushChannel)\(row.lastPushOutcome.map { " · last: \($0)" } ?? "")",
                unregistered: row.unregistered, erased: row.erased)
        }
        return try await request.page("participants", ParticipantsPage(
            chrome: PageChrome(request, title: "Participants · \(study.name)", study: study),
            rows: rows, participantCount: report.participantCount, matching: report.matching,
            search: query.search ?? "", quietDays: query.quietDays.map(String.init) ?? "",
            quietFilter: query.quietDays != nil, statusFilters: SelectChoice.statusFilter(Self.statusChoices, selected: query.status),
            filtered: query.search != nil || query.status != nil || query.quietDays != nil,
            page: report.window.page, pageCount: report.window.pageCount,
            previousPage: report.window.previous, nextPage: report.window.next,
            totalSent: report.totalSent,
            totalAnswered: report.totalAnswered, totalRate: WebFormat.percent(report.totalRate),
            chart: ResponseRateChart.svg(report.days),
            hasDates: !study.participantDateNames.isEmpty, dateNames: study.participantDateNames.joined(separator: ", "),
            hasVariables: !study.participantVariables.isEmpty, variableNames: study.participantVariables.map(\.id).joined(separator: ", "),
            hasArms: study.arms != nil,
            canSendTestBeep: try request.researcher.may(.sendTestBeep),
            canChangeStatus: try request.researcher.may(.changeParticipantStatus),
            canDeleteData: try request.researcher.may(.deleteData),
            writeLink: try request.researcher.may(.messageParticipants) ? Self.writeLink(study, query) : nil,
            testBeep: try await testBeepOutcome(request, studyID: study.requireID()),
            updated: try await updateOutcome(request, studyID: study.requireID())))
    }

    static let statusChoices: [Participant.Status] = [.participating, .restricted, .withdrawn]

    /// The messages page with this list's filter, so a message reaches the participants listed.
    static func writeLink(_ study: Study, _ query: ParticipantListQuery) -> String {
        var parts: [String] = []
        if let search = query.search { parts.append("q=" + (search.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")) }
        if let status = query.status, status != .withdrawn { parts.append("status=\(status.rawValue)") }
        if let days = query.quietDays { parts.append("quiet=\(days)") }
        return SiteRoute.messages.path(study.slug) + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
    }

    /// "Participant AB3KX: restricted, 12 responses stored." for `?updated=ID`, or what an erasure did.
    private func updateOutcome(_ request: Request, studyID: UUID) async throws -> String? {
        switch request.query[String.self, at: "erased"].flatMap(ParticipantAdministration.ErasureHistory.init(rawValue:)) {
        case .keep: return "The participant was erased; an anonymous history of their beeps was kept."
        case .delete: return "The participant was erased with all their beeps."
        case nil: break
        }
        guard let id = request.query[UUID.self, at: "updated"],
              let participant = try await Participant.query(on: request.db).filter(\.$id == id).filter(\.$study.$id == studyID).first()
        else { return nil }
        let responses = try await SurveyResponse.query(on: request.db).filter(\.$participant.$id == id).count()
        let code = participant.label ?? "—"
        return "Participant \(code): \(participant.status.rawValue), \(responses) response\(responses == 1 ? "" : "s") stored."
    }

    /// Restricts, withdraws or reinstates a participant; their beeps follow.
    func changeStatus(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .changeParticipantStatus)
        let participant = try await request.participant(in: study)
        struct Form: Content { var status: String? }
        guard let status = Participant.Status(rawValue: try request.content.decode(Form.self).status ?? "") else {
            throw Abort(.unprocessableEntity, reason: "Choose a status: participating, restricted or withdrawn.")
        }
        let reason = status == .restricted ? "the researchers restricted the participant" : "the researchers withdrew the participant"
        try await ParticipantAdministration.setStatus(status, of: participant, reason: reason, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.participants.path(study.slug) + "?updated=\(try participant.requireID())")
    }

    /// Deletes everything the participant sent, after the researcher ticked the confirmation.
    func deleteData(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .deleteData)
        let participant = try await request.participant(in: study)
        struct Form: Content { var confirm: String? }
        guard try request.content.decode(Form.self).confirm == "yes" else {
            throw Abort(.unprocessableEntity, reason: "Nothing was deleted: tick the box to confirm that this participant's responses, photos and sensor data are to be deleted for good.")
        }
        let blobs = BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory)
        let deleted = try await ParticipantAdministration.deleteSentData(of: participant, blobs: blobs, on: request.db)
        let researcherID = try request.researcher.id
        let participantID = try participant.requireID()
        request.logger.notice("Researcher \(researcherID) deleted \(deleted) responses of participant \(participantID)")
        return request.redirect(to: SiteRoute.participants.path(study.slug) + "?updated=\(participantID)")
    }

    /// Erases everything that identifies the participant, keeping an anonymous history of their
    /// beeps or not, after the researcher ticked the confirmation.
    func erase(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .deleteData)
        // An erased participant's anonymous history may still be deleted.
        let participant = try await request.participant(in: study, allowingErased: true)
        struct Form: Content {
            var history: String?
            var confirm: String?
        }
        let form = try request.content.decode(Form.self)
        guard let history = form.history.flatMap(ParticipantAdministration.ErasureHistory.init(rawValue:)) else {
            throw Abort(.unprocessableEntity, reason: "Nothing was erased: choose whether to keep an anonymous history of the participant's beeps.")
        }
        guard form.confirm == "yes" else {
            throw Abort(.unprocessableEntity, reason: "Nothing was erased: tick the box to confirm that everything identifying this participant is to be erased for good.")
        }
        let participantID = try participant.requireID()
        let blobs = BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory)
        try await ParticipantAdministration.erase(participant, history: history, blobs: blobs, on: request.db, now: request.now)
        let researcherID = try request.researcher.id
        request.logger.notice("Researcher \(researcherID) erased participant \(participantID) (history: \(history.rawValue))")
        return request.redirect(to: SiteRoute.participants.path(study.slug) + "?erased=\(history.rawValue)")
    }

    /// "Test beep to AB3KX: sent via webpush (accepted)" for `?beep=ID`, when that beep is a test beep of this study.
    private func testBeepOutcome(_ request: Request, studyID: UUID) async throws -> String? {
        guard let id = request.query[UUID.self, at: "beep"],
              let beep = try await Beep.query(on: request.db).filter(\.$id == id).filter(\.$study.$id == studyID)
                .filter(\.$origin == .test).first()
        else { return nil }
        let participant = try await Participant.find(beep.$participant.id, on: request.db)
        let channel = try await DeliveryAttempt.query(on: request.db).filter(\.$beep.$id == id).sort(\.$attemptedAt, .descending)
            .first()?.channel ?? participant?.pushChannel ?? "none"
        let outcome = TestBeepReport.outcome(
            channel: participant?.pushChannel == "none" ? "none" : channel, status: beep.status.rawValue,
            outcome: beep.deliveryOutcome, reason: beep.deliveryReason)
        return "Test beep to \(participant?.label ?? "the participant"): \(outcome)"
    }

    /// Sends a test beep now, outside the participant's hours too, and shows how it went.
    func sendTestBeep(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .sendTestBeep)
        let participantID = try await request.participant(in: study).requireID()
        guard let dispatcher = request.application.signalling.dispatcher else {
            throw Abort(.serviceUnavailable, reason: "Signalling is not running in this server, so no beep can be sent.")
        }
        let report: TestBeepReport
        do {
            report = try await dispatcher.sendTestBeep(to: participantID)
        } catch let error as TestBeepError {
            throw Abort(.unprocessableEntity, reason: error.description)
        }
        return request.redirect(to: SiteRoute.participants.path(study.slug) + "?beep=\(report.beepID)")
    }
}

extension Request {
    /// The participant named in the path, in this study (404 otherwise).
    func participant(in study: Study, allowingErased: Bool = false) async throws -> Participant {
        guard let participantID = parameters.get("participantID", as: UUID.self),
              let participant = try await Participant.query(on: db)
                .filter(\.$id == participantID).filter(\.$study.$id == study.requireID()).first()
        else { throw Abort(.notFound, reason: "This study has no such participant.") }
        guard participant.erasedAt == nil || allowingErased else {
            throw Abort(.conflict, reason: "This participant was erased: only an anonymous history of their beeps is kept, and nothing more can be done with it.")
        }
        return participant
    }
}
