import Fluent
import MomentaryCore
import Vapor

/// HTTP Basic authentication of participants (id + secret). Puts the participant on the request,
/// refuses withdrawn or restricted participants where the route requires an active one, and keeps
/// `last_seen_at` fresh (at most once a minute, written with the response writer's next batch).
struct ParticipantAuthenticator: AsyncMiddleware {
    let timeSource: any TimeSource

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let basic = request.headers.basicAuthorization else {
            throw Self.unauthorized("Sign in with HTTP Basic authentication: the participant id and secret from registration.")
        }
        guard let id = UUID(uuidString: basic.username),
              let participant = try await Participant.find(id, on: request.db),
              ParticipantSecret.matches(basic.password, hash: participant.secretHash)
        else {
            throw Self.unauthorized("The participant id or secret is wrong.")
        }
        let now = timeSource.now()
        if participant.lastSeenAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
            // Written with the response writer's next batch, not by a transaction of this request's own.
            await request.application.responseIngest.writer.noteSeen(id, at: now)
        }
        request.storage[ParticipantKey.self] = participant
        return try await next.respond(to: request)
    }

    /// No `WWW-Authenticate` challenge: the callers are apps, not browsers, and a challenge makes
    /// some HTTP stacks (URLSession on Linux among them) wait for credentials that never come.
    private static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, code: APIErrorCode.unauthorized.rawValue, message)
    }

    private struct ParticipantKey: StorageKey {
        typealias Value = Participant
    }

    /// The authenticated participant of a request that passed this middleware.
    static func participant(of request: Request) throws -> Participant {
        guard let participant = request.storage[ParticipantKey.self] else {
            throw Abort(.internalServerError, reason: "participant route registered without authentication")
        }
        return participant
    }
}

extension Request {
    /// The authenticated participant, who must still be taking part (not withdrawn or restricted).
    func activeParticipant() throws -> Participant {
        let participant = try ParticipantAuthenticator.participant(of: self)
        switch participant.status {
        case .participating:
            return participant
        case .withdrawn:
            throw APIError(.forbidden, code: APIErrorCode.forbidden.rawValue, "You have withdrawn from this study.")
        case .restricted:
            throw APIError(.forbidden, code: APIErrorCode.forbidden.rawValue,
                           "The researchers have paused your participation in this study.")
        }
    }
}
