import Fluent
import Foundation
import Vapor

/// The researchers' audit log: every change a signed-in researcher makes (each POST of the
/// website, allowed or refused), every export downloaded, and every sign-in, successful or not.
/// Form values are never recorded (they may hold passwords or participants' data): only what was
/// done, to which path, with what result, by whom, when and from which address.
enum AuditLog {
    /// Route patterns (as registered) in words; anything else is recorded by method and pattern.
    static let actions: [String: String] = [
        "POST studies": "create study", "POST studies/:slug/settings": "save study settings",
        "POST studies/:slug/archive": "archive or reopen study", "POST studies/:slug/streams": "save expected streams", "POST studies/:slug/delete": "delete study",
        "POST studies/:slug/surveys": "create survey", "POST studies/:slug/surveys/:surveyID": "save survey",
        "POST studies/:slug/surveys/:surveyID/versions/:version/restore": "restore survey version",
        "POST studies/:slug/surveys/:surveyID/active": "activate or deactivate survey",
        "POST studies/:slug/surveys/:surveyID/schedule": "save fixed schedule",
        "POST studies/:slug/invitees": "create invitation codes", "POST studies/:slug/invitees/:code/restrict": "restrict invitee",
        "POST studies/:slug/participants/:participantID/status": "change participant status",
        "POST studies/:slug/participants/:participantID/delete-data": "delete participant data",
        "POST studies/:slug/participants/:participantID/erase": "erase participant",
        "POST studies/:slug/participants/:participantID/test-beep": "send test beep",
        "POST studies/:slug/participant-dates": "name participant dates",
        "POST studies/:slug/participants/:participantID/dates": "set participant dates",
        "POST studies/:slug/arms": "save arms",
        "POST studies/:slug/participants/:participantID/arm": "reassign participant arm",
        "POST studies/:slug/messages": "message participants",
        "POST studies/:slug/participants/:participantID/messages": "message participant",
        "GET studies/:slug/export/download": "export",
        "GET studies/:slug/export/streams": "export",
        "POST researchers": "create researcher", "POST researchers/:researcherID": "change researcher",
        "POST researchers/:researcherID/password": "reset researcher password",
        "POST roles": "create role", "POST roles/:roleID/delete": "delete role",
        "POST account/password": "change own password",
        "POST account/two-step": "switch on two-step sign-in", "POST account/two-step/off": "switch off two-step sign-in",
    ]

    static func action(for request: Request) -> String {
        let pattern = (request.route?.path ?? []).map(\.description).joined(separator: "/")
        let key = "\(request.method.rawValue) \(pattern)"
        return actions[key] ?? key
    }

    static func record(
        _ action: String, researcher: (id: UUID?, email: String?), request: Request, outcome: String
    ) async throws {
        let event = AuditEvent()
        event.occurredAt = request.now
        event.researcherID = researcher.id
        event.researcherEmail = researcher.email
        event.action = action
        event.target = String((request.url.path + (request.url.query.map { "?" + $0 } ?? "")).prefix(500))
        event.outcome = outcome
        event.address = ClientAddress.of(request)
        try await event.create(on: request.db)
    }
}

/// Records what signed-in researchers change and export, whether it was allowed or not.
struct AuditMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let action = AuditLog.action(for: request)
        guard request.method == .POST || action == "export" else { return try await next.respond(to: request) }
        let researcher = try? request.researcher
        let who = (researcher?.id, researcher?.email)
        do {
            let response = try await next.respond(to: request)
            try await AuditLog.record(action, researcher: who, request: request, outcome: String(response.status.code))
            return response
        } catch {
            let status = (error as? any AbortError)?.status ?? .internalServerError
            try? await AuditLog.record(action, researcher: who, request: request, outcome: String(status.code))
            throw error
        }
    }
}
