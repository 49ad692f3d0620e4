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

            // The website's figures come from the tallies, which leave test beeps out too.
            let studyID = try #require(try await Participant.find(id, on: server.db)).$study.id
            let tallied = try await StudyTallies.byStatus(studyID: studyID, subject: .beeps, on: server.db.sql)
            let delivered = { (rows: [StatusCountRow]) in rows.filter { $0.status != Beep.Status.pending.rawValue }.reduce(0) { $0 + $1.n } }
            #expect(delivered(tallied) == 2, "two study beeps delivered; the three test beeps are not counted: \(tallied)")
            let test = try #require(try await Beep.query(on: server.db).filter(\.$origin == .test).first())
            test.origin = .random
            try await test.save(on: server.db)
            let afterChange = try await StudyTallies.byStatus(studyID: studyID, subject: .beeps, on: server.db.sql)
            #expect(delivered(afterChange) == 3, "a beep that stops being a test beep is counted")
        }
    }

    @Test("the app's typical answering time leaves answers to test beeps out")
    func typicalDelayLeavesTestBeepsOut() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let id = registration.participantID
            let study = try await APIFixture.deliveredBeep(for: id, minutesAgo: 2, on: server.db)
            _ = try await client.submitResponse(APIFixture.submission(key: "study", beepID: try study.requireID()))
            for (index, minutes) in [30.0, 40].enumerated() {
                let test = try await APIFixture.deliveredBeep(for: id, minutesAgo: minutes, on: server.db)
                test.origin = .test
                try await test.save(on: server.db)
                _ = try await client.submitResponse(APIFixture.submission(key: "test-\(index)", beepID: try test.requireID()))
            }
            let status = try await client.status()
            let typical = try #require(status.typicalResponseSeconds)
            #expect(typical < 10 * 60, "the study beep answered within minutes; the test beeps, half an hour late, do not count: \(typical) s")
            #expect(status.responses == 3, "the answers themselves are all counted")
        }
    }
}
