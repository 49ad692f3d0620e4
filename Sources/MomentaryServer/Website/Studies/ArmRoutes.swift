import Fluent
import Foundation
import MomentaryCore
import Vapor

/// The study's randomised arms (`/studies/:slug/arms`, edited as the JSON the study document
/// carries) and one participant's arm with how it was allocated and any reassignment
/// (`/participants/:id/arm`).
struct ArmRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.studyArms, use: show)
        routes.post(SiteRoute.studyArms, use: save)
        routes.get(SiteRoute.participantArm, use: showParticipant)
        routes.post(SiteRoute.participantArm, use: reassign)
    }

    struct Page: Encodable {
        let chrome: PageChrome
        let text: String
        let problems: [String]
        let canEdit: Bool
        /// Participants per arm now.
        let counts: [Count]
        struct Count: Encodable { let arm: String; let participants: Int }
    }

    struct ParticipantPage: Encodable {
        let chrome: PageChrome
        let participant: String
        let participantID: String
        let arm: String
        let choices: [SelectChoice]
        let history: [Entry]
        let canReassign: Bool
        let problem: String?
        struct Entry: Encodable {
            let when: String
            let arm: String
            let how: String
        }
    }

    func show(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewStudies)
        return try await render(request, study, text: Self.text(of: study.arms), problems: [])
    }

    func save(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        struct Form: Content { var arms: String? }
        let text = try request.content.decode(Form.self).arms ?? ""
        let parsed = Self.parse(text)
        var problems = parsed.problems
        if let arms = parsed.arms { problems += try await arms.problems(of: study, on: request.db) }
        guard problems.isEmpty else {
            return try await render(request, study, text: text, problems: problems.map { $0.prefix(1).uppercased() + $0.dropFirst() + "." })
        }
        let rulesBefore = StudyRoutes.signallingRules(of: study)
        study.setArms(parsed.arms)
        study.updatedAt = request.now
        try await study.save(on: request.db)
        _ = try await StudyTransfer.participantsFollow(study, rulesBefore: rulesBefore, schedulesChanged: false, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.studyArms.path(study.slug) + "?saved=1")
    }

    func showParticipant(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let participant = try await request.participant(in: study)
        return try await renderParticipant(request, study, participant, problem: nil)
    }

    func reassign(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .reassignArms)
        let participant = try await request.participant(in: study)
        struct Form: Content { var arm: String? }
        let arm = try request.content.decode(Form.self).arm ?? ""
        do {
            try await ArmAssignment.reassign(
                try participant.requireID(), to: arm, in: study, by: try request.researcher.email, on: request.db, now: request.now)
        } catch let refusal as ArmAssignment.Refusal {
            return try await renderParticipant(request, study, participant, problem: refusal.message)
        }
        return request.redirect(to: SiteRoute.participantArm.path(study.slug, try participant.requireID().uuidString) + "?saved=1")
    }

    /// The arms as the page edits them: the study document's three keys, pretty-printed.
    static func text(of arms: StudyArms?) -> String {
        guard let arms else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(arms)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The typed JSON read strictly (an unknown key is refused by name, as in study documents);
    /// empty text means no arms.
    static func parse(_ text: String) -> (arms: StudyArms?, problems: [String]) {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return (nil, []) }
        let data = Data(text.utf8)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return (nil, ["arms: the text is not a JSON object such as {\"arms\": [...], \"allocation\": {\"method\": \"simple\"}}"])
        }
        var unknown = object.keys.filter { !StudyArms.keys.contains($0) }.sorted()
        if let allocation = object["allocation"] as? [String: Any] {
            unknown += allocation.keys.filter { !StudyArms.allocationKeys.contains($0) }.sorted().map { "allocation." + $0 }
        }
        for (index, arm) in ((object["arms"] as? [Any]) ?? []).enumerated() {
            guard let arm = arm as? [String: Any] else { continue }
            unknown += arm.keys.filter { !StudyArms.armKeys.contains($0) }.sorted().map { "arms[\(index)].\($0)" }
        }
        guard unknown.isEmpty else { return (nil, unknown.map { "“\($0)” is not a field of arms" }) }
        do {
            return (try JSONDecoder().decode(StudyArms.self, from: data), [])
        } catch {
            return (nil, [describe(error)])
        }
    }

    /// A decoding error as a sentence naming the field.
    private static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            let parent = path(context)
            return "\(parent.isEmpty ? "" : parent + ".")\(key.stringValue) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context)) has the wrong type"
        case DecodingError.dataCorrupted(let context):
            let field = path(context)
            return field.hasSuffix("method") ? "\(field) must be simple or blocked" : "\(field.isEmpty ? "arms" : field) cannot be read"
        default:
            return "arms cannot be read"
        }
    }

    private func render(_ request: Request, _ study: Study, text: String, problems: [String]) async throws -> Response {
        struct Row: Decodable { let arm: String?; let n: Int }
        let rows = try await request.db.sql.raw("""
            SELECT arm, COUNT(*) AS n FROM participants WHERE study_id = \(bind: try study.requireID()) AND arm IS NOT NULL GROUP BY arm ORDER BY arm
            """).all(decoding: Row.self)
        return try await request.page("arms", Page(
            chrome: PageChrome(request, title: "Arms · \(study.name)", study: study, notice: "Saved. Participants taking part follow their arm's rules from now on."),
            text: text, problems: problems, canEdit: try request.researcher.may(.editStudies),
            counts: rows.map { Page.Count(arm: $0.arm ?? "", participants: $0.n) }), status: problems.isEmpty ? .ok : .unprocessableEntity)
    }

    private func renderParticipant(_ request: Request, _ study: Study, _ participant: Participant, problem: String?) async throws -> Response {
        let history = try await ArmAssignment.history(of: try participant.requireID(), on: request.db)
        let entries = history.map { entry in
            let how: String = switch entry.method {
            case "reassigned": "reassigned by \(entry.researcherEmail ?? "a researcher") from \(entry.previousArm ?? "no arm")"
            case "blocked": "blocked allocation: block \(entry.blockNumber ?? 0), position \(entry.blockPosition ?? 0) of "
                + "\(entry.blockSequence ?? "")\(entry.stratum.map { ", stratum “\($0)”" } ?? "")"
            default: "simple allocation with weights \(entry.weights)"
            }
            return ParticipantPage.Entry(when: WebFormat.studyDateTime(entry.allocatedAt, in: study.zone), arm: entry.arm, how: how)
        }
        return try await request.page("participant-arm", ParticipantPage(
            chrome: PageChrome(request, title: "Arm of \(participant.label ?? "a participant") · \(study.name)", study: study,
                               notice: "Reassigned. The participant's beeps follow the new arm from now on."),
            participant: participant.label ?? "—", participantID: try participant.requireID().uuidString, arm: participant.arm ?? "none",
            choices: (study.arms?.arms ?? []).map { SelectChoice(value: $0.name, label: $0.name, selected: $0.name == participant.arm) },
            history: entries, canReassign: try request.researcher.may(.reassignArms), problem: problem),
            status: problem == nil ? .ok : .unprocessableEntity)
    }
}
