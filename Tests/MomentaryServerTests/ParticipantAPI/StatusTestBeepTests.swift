import Fluent
import Foundation
import MomentaryClient
@testable import MomentaryServer
import Testing

@Suite("Test beeps are not study data")
struct StatusTestBeepTests {
    @Test("the app's response rate leaves a researcher's test beeps out")
    func responseRateLeavesTestBeepsOut() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let id = registration.participantID
            try await APIFixture.deliveredBeep(for: id, minutesAgo: 50, status: .answered, on: server.db)
            try await APIFixture.deliveredBeep(for: id, minutesAgo: 40, status: .expired, on: server.db)
            for (minutes, status) in [(30.0, Beep.Status.answered), (20, .answered), (10, .expired)] {
                let test = try await APIFixture.deliveredBeep(for: id, minutesAgo: minutes, status: status, on: server.db)
                test.origin = .test
                try await test.save(on: server.db)
            }
            let status = try await client.status()
            #expect(status.responseRate == 0.5, "1 of 2 study beeps answered; the 3 test beeps do not count")
        }
    }
}
