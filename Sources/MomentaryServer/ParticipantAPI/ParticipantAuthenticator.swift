import Fluent
import MomentaryCore
import SQLKit
import Vapor

/// HTTP Basic authentication of participants (id + secret). Puts the participant's id, study and
/// status on the request, refuses withdrawn or restricted participants where the route requires
/// an active one, and keeps `last_seen_at` fresh (at most once a minute, written with the
/// response writer's next batch).
///
/// It reads the four columns it needs with one plain query, not the participant model: every
/// upload passes through here, and loading the model (its thirty fields found by reflection)
/// cost more than the rest of the check (figures: BENCHMARKS.md, `momentary-bench ingest`). Routes
/// that need the whole row load it (`Request.participantModel()`).
struct ParticipantAuthenticator: AsyncMiddleware {
    let timeSource: any TimeSource
    /// Also reads what an answer upload needs (`UploadLookup`) in the same query,
    /// for the one route that uploads answers.
    var readsUploadLookup = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let basic = request.headers.basicAuthorization else {
            throw Self.unauthorized("Sign in with HTTP Basic authentication: the participant id and secret from registration.")
        }
        guard let id = UUID(uuidString: basic.username),
              let sqlRow = try await readCredentials(of: id, for: request),
              case let row = try CredentialsRow(sqlRow),
              SecretHash.matches(basic.password, hash: row.secretHash)
        else {
            throw Self.unauthorized("The participant id or secret is wrong.")
        }
        if readsUploadLookup {
            request.storage[UploadLookupKey.self] = try UploadLookup(sqlRow)
        }
        let now = timeSource.now()
        if row.lastSeenAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
            // Written with the response writer's next batch, not by a transaction of this request's own.
            await request.application.ingestResources.writer.noteSeen(id, at: now)
        }
        request.storage[ParticipantKey.self] = AuthenticatedParticipant(id: id, studyID: row.studyID, status: row.status)
        return try await next.respond(to: request)
    }

    private struct CredentialsRow {
        let secretHash: String
        let status: Participant.Status
        let studyID: UUID
        let lastSeenAt: Date?

        /// Read column by column: through SQLKit's row `Decoder`, this row and the upload's
        /// lookup were a visible share of the server's CPU for an upload (figures: BENCHMARKS.md,
        /// `momentary-bench ingest`).
        init(_ row: any SQLRow) throws {
            secretHash = try row.decode(column: "secret_hash", as: String.self)
            status = try row.decode(column: "status", as: Participant.Status.self)
            studyID = try row.decode(column: "study_id", as: UUID.self)
            lastSeenAt = try row.decodeIfPresent(column: "last_seen_at", as: Date.self)
        }
    }

    private func readCredentials(of id: UUID, for request: Request) async throws -> (any SQLRow)? {
        let ingest = request.application.ingestResources
        return readsUploadLookup
            ? try await ingest.read(CredentialsAndUploadLookupRead(key: id), on: request.db).first
            : try await ingest.read(CredentialsRead(key: id), on: request.db).first
    }

    private struct CredentialsRead: PreparedRead {
        static let name = "momentary_credentials"
        static let text = PreparedReadText(query)
        let key: UUID

        static func query(_ id: any SQLExpression) -> SQLQueryString {
            "SELECT secret_hash, status, study_id, last_seen_at FROM participants WHERE id = \(id)"
        }
    }

    private struct CredentialsAndUploadLookupRead: PreparedRead {
        static let name = "momentary_credentials_upload_lookup"
        static let text = PreparedReadText(query)
        let key: UUID

        static func query(_ id: any SQLExpression) -> SQLQueryString {
            let lookup = UploadLookup.columnsAndJoin(participantID: id)
            return """
                SELECT p.secret_hash, p.status, p.study_id, p.last_seen_at, \(lookup.columns)
                FROM participants AS p \(lookup.join) WHERE p.id = \(id)
                """
        }
    }

    /// No `WWW-Authenticate` challenge: the callers are apps, not browsers, and a challenge makes
    /// some HTTP stacks (URLSession on Linux among them) wait for credentials that never come.
    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, code: APIErrorCode.unauthorized.rawValue, message)
    }

    private struct ParticipantKey: StorageKey {
        typealias Value = AuthenticatedParticipant
    }

    private struct UploadLookupKey: StorageKey {
        typealias Value = UploadLookup
    }

    /// What the authenticator read for an answer upload (see `readsUploadLookup`).
    static func uploadLookup(of request: Request) throws -> UploadLookup {
        guard let lookup = request.storage[UploadLookupKey.self] else {
            throw Abort(.internalServerError, reason: "answer upload route registered without the upload lookup")
        }
        return lookup
    }

    /// The authenticated participant of a request that passed this middleware.
    static func participant(of request: Request) throws -> AuthenticatedParticipant {
        guard let participant = request.storage[ParticipantKey.self] else {
            throw Abort(.internalServerError, reason: "participant route registered without authentication")
        }
        return participant
    }
}

/// Who made an authenticated request: what the authenticator read, enough for most routes.
struct AuthenticatedParticipant: Sendable {
    let id: UUID
    let studyID: UUID
    let status: Participant.Status

    /// Self, if still taking part (not withdrawn or restricted); otherwise the 403 to answer with.
    func requireActive() throws -> AuthenticatedParticipant {
        switch status {
        case .participating:
            return self
        case .withdrawn:
            throw APIError(.forbidden, words: "api_error.withdrawn")
        case .restricted:
            throw APIError(.forbidden, words: "api_error.paused")
        }
    }
}

extension Request {
    /// The authenticated participant, who must still be taking part (not withdrawn or restricted).
    func activeParticipantIdentity() throws -> AuthenticatedParticipant {
        try ParticipantAuthenticator.participant(of: self).requireActive()
    }

    /// The authenticated participant's whole row.
    func participantModel() async throws -> Participant {
        try await Self.model(of: try ParticipantAuthenticator.participant(of: self), on: db)
    }

    /// The whole row of the authenticated participant, who must still be taking part.
    func activeParticipant() async throws -> Participant {
        try await Self.model(of: try activeParticipantIdentity(), on: db)
    }

    private static func model(of participant: AuthenticatedParticipant, on db: any Database) async throws -> Participant {
        // Erased since the authenticator read it: as if the credentials were wrong.
        guard let model = try await Participant.find(participant.id, on: db) else {
            throw ParticipantAuthenticator.unauthorized("The participant id or secret is wrong.")
        }
        return model
    }
}
