import Foundation
import MomentaryCore

/// What a participant app (or the command-line participant) remembers between runs: where the
/// server is and who it is there. Stored as JSON, readable by the owner only, since the secret is
/// the participant's password.
public struct ParticipantState: Codable, Sendable, Hashable {
    public var serverURL: URL
    public var study: StudySummary
    public var credentials: ParticipantCredentials
    public var registeredAt: Date

    public init(serverURL: URL, study: StudySummary, credentials: ParticipantCredentials, registeredAt: Date) {
        self.serverURL = serverURL
        self.study = study
        self.credentials = credentials
        self.registeredAt = registeredAt
    }

    /// The state after a successful registration.
    public init(serverURL: URL, registration: RegistrationResponse, registeredAt: Date = Date()) {
        self.init(serverURL: serverURL, study: registration.study,
                  credentials: ParticipantCredentials(participantID: registration.participantID, secret: registration.secret),
                  registeredAt: registeredAt)
    }

    /// A client for this participant.
    public func makeClient(transport: any HTTPTransport = URLSessionTransport()) -> MomentaryAPIClient {
        MomentaryAPIClient(baseURL: serverURL, credentials: credentials, transport: transport)
    }

    enum CodingKeys: String, CodingKey {
        case serverURL = "server_url"
        case study
        case credentials
        case registeredAt = "registered_at"
    }

    /// Writes the state atomically with permissions 0600 (owner read/write only).
    public func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = WireCoding.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        try AtomicFile.write(encoder.encode(self), to: url, permissions: 0o600)
    }

    /// Reads the state; `nil` when the file does not exist (not registered yet).
    public static func load(from url: URL) throws -> ParticipantState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        do {
            return try WireCoding.makeDecoder().decode(ParticipantState.self, from: data)
        } catch {
            throw ParticipantStateError.unreadable(path: url.path, reason: String(describing: error))
        }
    }

    /// Forgets the participant (after withdrawal). A missing file is fine.
    public static func remove(at url: URL) throws {
        try AtomicFile.remove(url)
    }
}

public enum ParticipantStateError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "The participant state in \(path) cannot be read: \(reason)"
        }
    }
}
