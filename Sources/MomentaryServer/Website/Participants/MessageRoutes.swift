import Fluent
import MomentaryCore
import SQLKit
import Vapor

/// Messages to participants on the website: `/studies/:slug/messages` writes to one participant or
/// to those a participants-page filter lists, and shows what was sent (delivered, read) and the
/// latest replies; `/studies/:slug/participants/:id/messages` is one participant's conversation.
/// Reading needs "participants.view", writing "participants.message".
struct MessageRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.messages, use: show)
        routes.post(SiteRoute.messages, use: send)
        routes.get(SiteRoute.participantMessages, use: conversation)
        routes.post(SiteRoute.participantMessages, use: sendToOne)
    }

    /// One language's text box.
    struct TextField: Encodable {
        let tag: String
        let name: String
        let value: String
        let problem: String?
    }

    struct Page: Encodable {
        struct Sending: Encodable { let when: String; let by: String; let text: String; let recipients: Int; let pushed: Int; let read: Int }
        struct Reply: Encodable { let when: String; let participant: String; let participantID: String; let text: String }
        struct Choice: Encodable { let value: String; let label: String; let selected: Bool }
        let chrome: PageChrome
        let canWrite: Bool
        let texts: [TextField]
        let participant: String
        let q: String
        let quiet: String
        let statuses: [Choice]
        let reach: String
        let audienceProblem: String?
        let repliesAllowed: Bool
        let sendings: [Sending]
        let replies: [Reply]
        let maximumLength: Int
    }

    struct ConversationPage: Encodable {
        struct Entry: Encodable { let fromParticipant: Bool; let when: String; let text: String; let status: String }
        let chrome: PageChrome
        let participant: String
        let participantID: String
        let entries: [Entry]
        let canWrite: Bool
        let reachable: Bool
        let texts: [TextField]
        let problem: String?
        let repliesAllowed: Bool
        let maximumLength: Int
    }

    // MARK: The study's messages

    func show(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let form = try request.query.decode([String: String].self)
        let (audience, problem) = Self.audience(from: form)
        return try await render(request, study: study, form: form, audience: audience, textProblems: [:], audienceProblem: problem)
    }

    func send(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .messageParticipants)
        let form = try request.content.decode([String: String].self)
        let (audience, audienceProblem) = Self.audience(from: form)
        let checked = MessageService.checkedTexts(Self.texts(in: form), languages: study.languages)
        var problems = Dictionary(checked.refusals.map { ($0.field, $0.message) }, uniquingKeysWith: { first, _ in first })
        if let audience, let text = checked.text, audienceProblem == nil {
            do {
                let sent = try await MessageService.send(text, to: audience, in: study, by: try request.researcher.email, now: request.now, on: request.db)
                request.application.signalling.notifyScheduleChanged()
                return request.redirect(to: SiteRoute.messages.path(study.slug) + "?saved=1&sent=\(sent.recipients)&nopush=\(sent.withoutPush)")
            } catch let refusal as MessageService.Refusal {
                problems[refusal.field] = refusal.message
            }
        }
        return try await render(request, study: study, form: form, audience: audience, textProblems: problems,
                                audienceProblem: audienceProblem ?? problems["audience"] ?? problems["participant"], status: .unprocessableEntity)
    }

    /// The audience the form names: a participant's label, else the participants page's filter
    /// (read by the same code as that page), with the reason when it cannot be read.
    static func audience(from form: [String: String]) -> (MessageAudience?, String?) {
        let label = (form["participant"] ?? "").trimmingCharacters(in: .whitespaces)
        if !label.isEmpty { return (.participant(label.uppercased()), nil) }
        do {
            let list = try ParticipantRoutes.listQuery(ParticipantRoutes.ListQuery(q: form["q"], status: form["status"], quiet: form["quiet"]))
            return (MessageAudience(list: list), nil)
        } catch let abort as any AbortError {
            return (nil, abort.reason)
        } catch {
            return (nil, String(describing: error))
        }
    }

    static func texts(in form: [String: String]) -> [String: String] {
        Dictionary(form.compactMap { key, value in key.hasPrefix("text_") ? (String(key.dropFirst(5)), value) : nil },
                   uniquingKeysWith: { first, _ in first })
    }

    static func textFields(_ study: Study, form: [String: String], problems: [String: String]) -> [TextField] {
        study.languages.map { tag in
            TextField(tag: tag, name: study.languages.count > 1 ? "Message in \(QuestionTranslationFields.displayName(of: tag))" : "Message",
                      value: form["text_\(tag)"] ?? "", problem: problems["text_\(tag)"])
        }
    }

    private func render(
        _ request: Request, study: Study, form: [String: String], audience: MessageAudience?, textProblems: [String: String],
        audienceProblem: String?, status: HTTPStatus = .ok
    ) async throws -> Response {
        let studyID = try study.requireID()
        var reach = ""
        if let audience, audienceProblem == nil {
            let count = try await audience.count(in: studyID, now: request.now, on: request.db)
            reach = "This reaches \(count) participant\(count == 1 ? "" : "s"): \(audience.description)."
        }
        let status_ = form["status"] ?? ""
        let statuses = [("", "Everyone who has not withdrawn"), ("participating", "Taking part"), ("restricted", "Paused (restricted)")]
            .map { Page.Choice(value: $0.0, label: $0.1, selected: $0.0 == status_) }
        let sent = Int(request.query[String.self, at: "sent"] ?? "") ?? 0
        let withoutPush = Int(request.query[String.self, at: "nopush"] ?? "") ?? 0
        let notice = "Sent to \(sent) participant\(sent == 1 ? "" : "s")."
            + (withoutPush > 0 ? " \(withoutPush) of them cannot get a notification and will see it when they next open the app." : "")
        return try await request.page("messages", Page(
            chrome: PageChrome(request, title: "Messages · \(study.name)", study: study, notice: notice),
            canWrite: try request.researcher.may(.messageParticipants),
            texts: Self.textFields(study, form: form, problems: textProblems),
            participant: form["participant"] ?? "", q: form["q"] ?? "", quiet: form["quiet"] ?? "", statuses: statuses,
            reach: reach, audienceProblem: audienceProblem, repliesAllowed: study.messageRepliesAllowed,
            sendings: try await Self.sendings(of: study, on: request.db.sql), replies: try await Self.replies(of: studyID, zone: study.zone, on: request.db.sql),
            maximumLength: MessageService.maximumLength), status: status)
    }

    /// The latest sendings, each with how many it reached, how many notifications went out and
    /// how many were read; the text in the study's default language where it was sent in it.
    static func sendings(of study: Study, on sql: any SQLDatabase) async throws -> [Page.Sending] {
        let rows = try await sql.raw("""
            SELECT send_id, MIN(created_at) AS created_at, MIN(sent_by) AS sent_by,
                COALESCE(MIN(CASE WHEN language = \(bind: study.defaultLanguage) THEN text END), MIN(text)) AS text, COUNT(*) AS recipients,
                SUM(CASE WHEN push_state = 'sent' THEN 1 ELSE 0 END) AS pushed, SUM(CASE WHEN read_at IS NULL THEN 0 ELSE 1 END) AS read_count
            FROM messages WHERE study_id = \(bind: try study.requireID()) AND from_participant = \(bind: false) AND send_id IS NOT NULL
            GROUP BY send_id ORDER BY MIN(created_at) DESC LIMIT 50
            """).all()
        return try rows.map { row in
            Page.Sending(
                when: WebFormat.studyDateTime(try row.decode(column: "created_at", as: Date.self), in: study.zone),
                by: try row.decodeIfPresent(column: "sent_by", as: String.self) ?? "—", text: try row.decode(column: "text", as: String.self),
                recipients: try row.decode(column: "recipients", as: Int.self), pushed: try row.decode(column: "pushed", as: Int.self),
                read: try row.decode(column: "read_count", as: Int.self))
        }
    }

    static func replies(of studyID: UUID, zone: TimeZone, on sql: any SQLDatabase) async throws -> [Page.Reply] {
        let rows = try await sql.raw("""
            SELECT m.created_at, m.text, m.participant_id, p.label FROM messages m JOIN participants p ON p.id = m.participant_id
            WHERE m.study_id = \(bind: studyID) AND m.from_participant = \(bind: true) ORDER BY m.created_at DESC LIMIT 50
            """).all()
        return try rows.map { row in
            let id = try row.decode(column: "participant_id", as: UUID.self)
            return Page.Reply(
                when: WebFormat.studyDateTime(try row.decode(column: "created_at", as: Date.self), in: zone),
                participant: try row.decodeIfPresent(column: "label", as: String.self) ?? id.uuidString, participantID: id.uuidString,
                text: try row.decode(column: "text", as: String.self))
        }
    }

    // MARK: One participant's conversation

    func conversation(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let participant = try await request.participant(in: study)
        return try await renderConversation(request, study: study, participant: participant, form: [:], problems: [:])
    }

    func sendToOne(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .messageParticipants)
        let participant = try await request.participant(in: study)
        let form = try request.content.decode([String: String].self)
        let checked = MessageService.checkedTexts(Self.texts(in: form), languages: study.languages)
        var problems = Dictionary(checked.refusals.map { ($0.field, $0.message) }, uniquingKeysWith: { first, _ in first })
        if let text = checked.text {
            do {
                _ = try await MessageService.send(text, to: .participant(id: try participant.requireID()), in: study, by: try request.researcher.email,
                                                  now: request.now, on: request.db)
                request.application.signalling.notifyScheduleChanged()
                return request.redirect(to: SiteRoute.participantMessages.path(study.slug, try participant.requireID()) + "?saved=1")
            } catch let refusal as MessageService.Refusal {
                problems["participant"] = refusal.message
            }
        }
        return try await renderConversation(request, study: study, participant: participant, form: form, problems: problems, status: .unprocessableEntity)
    }

    private func renderConversation(
        _ request: Request, study: Study, participant: Participant, form: [String: String], problems: [String: String], status: HTTPStatus = .ok
    ) async throws -> Response {
        let label = participant.label ?? participant.id?.uuidString ?? ""
        let entries = try await MessageService.inbox(of: participant, on: request.db).map { row in
            ConversationPage.Entry(
                fromParticipant: row.fromParticipant, when: WebFormat.studyDateTime(row.createdAt, in: study.zone), text: row.text,
                status: row.fromParticipant ? "reply" : Self.deliveryWords(row, zone: study.zone))
        }
        let reachable = participant.erasedAt == nil && participant.status != .withdrawn
        return try await request.page("participant-messages", ConversationPage(
            chrome: PageChrome(request, title: "Messages with \(label) · \(study.name)", study: study, notice: "Sent."),
            participant: label, participantID: try participant.requireID().uuidString, entries: entries,
            canWrite: try request.researcher.may(.messageParticipants), reachable: reachable,
            texts: Self.textFields(study, form: form, problems: problems), problem: problems["participant"],
            repliesAllowed: study.messageRepliesAllowed, maximumLength: MessageService.maximumLength), status: status)
    }

    /// "read 2026-11-28 09:12 …", "notified, not read yet", "not notified (no push address); not read yet".
    static func deliveryWords(_ message: ParticipantMessage, zone: TimeZone) -> String {
        if let read = message.readAt { return "read \(WebFormat.studyDateTime(read, in: zone))" }
        let push = switch message.pushState {
        case .sent: "notified"
        case .pending, .sending: "notification on its way"
        case .failed: "the notification failed (\(message.pushReason ?? message.pushOutcome ?? "no reason given"))"
        case .none: "no notification (\(message.pushReason ?? "no push address"))"
        }
        return "\(push); not read yet"
    }
}
