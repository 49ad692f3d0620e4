import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Synchronization

/// Participants answering as phones do while servers crash under them: each answer keeps its
/// idempotency key until a server acknowledges it, and is sent again (to whichever server is up)
/// until one does. Records every acknowledged key, so a test can look for each one afterwards.
final class ResponseLoad: Sendable {
    struct Participant: Sendable {
        let credentials: ParticipantCredentials
        let index: Int
    }

    private struct State {
        var acknowledged: [String: UUID] = [:]
        var waiting: [Int: String] = [:]
        var counter = 0
        var refusals: [String] = []
    }

    let participants: [Participant]
    private let state = Mutex(State())

    init(_ credentials: [ParticipantCredentials]) {
        participants = credentials.enumerated().map { Participant(credentials: $1, index: $0) }
    }

    /// Registers `count` participants with the demo study through `server`.
    static func register(_ count: Int, at server: URL, timezone: String = "Europe/London") async throws -> ResponseLoad {
        var credentials: [ParticipantCredentials] = []
        for seed in 1...count {
            var request = APIFixture.registration(seed: UInt64(seed))
            request.timezone = timezone
            let (_, response) = try await APIFixture.register(at: server, request)
            credentials.append(ParticipantCredentials(participantID: response.participantID, secret: response.secret))
        }
        return ResponseLoad(credentials)
    }

    var acknowledged: [String: UUID] { state.withLock { $0.acknowledged } }
    var waiting: [String] { state.withLock { Array($0.waiting.values) } }
    /// Answers a server refused with a 4xx: none should be.
    var refusals: [String] { state.withLock { $0.refusals } }

    /// Each participant answers in a loop against a server `servers()` picks, until `isDone()`.
    func run(servers: @escaping @Sendable () -> [URL], isDone: @escaping @Sendable () -> Bool) async {
        await withTaskGroup(of: Void.self) { group in
            for participant in participants {
                group.addTask { await self.answer(as: participant, servers: servers, isDone: isDone) }
            }
        }
    }

    /// Sends every answer still waiting until each is acknowledged (the servers are up now).
    func finish(at server: URL) async throws {
        for participant in participants {
            guard let key = state.withLock({ $0.waiting[participant.index] }) else { continue }
            _ = try await MomentaryAPIClient(baseURL: server, credentials: participant.credentials)
                .submitResponse(APIFixture.submission(key: key, seed: UInt64(participant.index)))
            state.withLock { $0.acknowledged[key] = participant.credentials.participantID; $0.waiting[participant.index] = nil }
        }
    }

    private func answer(as participant: Participant, servers: @Sendable () -> [URL], isDone: @Sendable () -> Bool) async {
        while !isDone() {
            let key = state.withLock { state -> String in
                if let waiting = state.waiting[participant.index] { return waiting }
                state.counter += 1
                let key = "crash-\(participant.index)-\(state.counter)"
                state.waiting[participant.index] = key
                return key
            }
            guard let server = servers().randomElement() else {
                try? await Task.sleep(for: .milliseconds(20))
                continue
            }
            do {
                _ = try await MomentaryAPIClient(baseURL: server, credentials: participant.credentials)
                    .submitResponse(APIFixture.submission(key: key, seed: UInt64(participant.index)))
                state.withLock { $0.acknowledged[key] = participant.credentials.participantID; $0.waiting[participant.index] = nil }
            } catch where error.isPermanent {
                state.withLock { $0.refusals.append("\(key): \(error)"); $0.waiting[participant.index] = nil }
            } catch {
                // Down, or the connection dropped mid-request: the server may or may not have
                // stored it, so the same key goes again.
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
