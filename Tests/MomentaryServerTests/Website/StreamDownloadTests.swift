import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website: passive stream downloads")
struct StreamDownloadTests {
    @Test("the export page offers the streams; the download is the participant's merged CSV, refusals show the form again")
    func download() async throws {
        try await withTestApp { app, configuration in
            let world = try await WebsiteWorld.make(on: app.db)
            let blobs = BlobStore(dataDirectory: configuration.dataDirectory)
            let header = PassiveStream.proximity.headerLine
            let base = StreamUploadTests.base
            try await StreamExportTests.store("\(header)\n\(base + 9),NotNearUser\n\(base),NearUser\n", .proximity, key: "1",
                                              for: world.participantA, blobs: blobs, on: app.db)
            try await StreamExportTests.store("\(header)\n\(base + 5),NearUser\n", .proximity, key: "1",
                                              for: world.participantB, blobs: blobs, on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let form = try await client.get("/studies/study-a/export")
            #expect(form.body.string.contains("id=\"streams-form\""))
            #expect(form.body.string.contains("value=\"survey_timings\""))

            let a = world.participantA.uuidString.lowercased()
            let csv = try await client.get("/studies/study-a/export/streams?participant=\(a)&stream=proximity&from=2024-11-25")
            #expect(csv.status == .ok)
            #expect(csv.headers.contentType?.description.hasPrefix("text/csv") == true)
            #expect(csv.headers.first(name: .contentDisposition)?.hasSuffix("-proximity.csv\"") == true)
            #expect(csv.body.string == "\(header)\n\(base),NearUser\n\(base + 9),NotNearUser\n")

            let b = world.participantB.uuidString.lowercased()
            let cases = [
                ("participant=\(b)&stream=proximity", "is not in study"),
                ("participant=\(a)&stream=barometer", "Choose a stream"),
                ("participant=&stream=proximity", "is not a participant id"),
                ("participant=\(a)&stream=gps&from=yesterday", "is not a date"),
            ]
            for (query, reason) in cases {
                let response = try await client.get("/studies/study-a/export/streams?\(query)")
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.body.string.contains(reason), "\(query): \(reason)")
                #expect(!response.body.string.contains("NearUser"), "\(query) gives no data")
            }
        }
    }
}
