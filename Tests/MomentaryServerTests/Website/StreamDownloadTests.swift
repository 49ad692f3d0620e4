import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting
import ZIPFoundation

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
                ("participant[]=\(b)&stream[]=proximity", "is not in the study"),
                ("participant[]=\(a)&stream[]=barometer", "Unknown stream “barometer”"),
                ("participant[]=\(a)", "Choose at least one stream"),
                ("participant[]=&stream[]=gps", "No participant of this study has uploaded gps."),
                ("participant[]=\(a)&stream[]=gps&from=yesterday", "is not a date"),
            ]
            for (query, reason) in cases {
                let response = try await client.get("/studies/study-a/export/streams?\(query)")
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.body.string.contains("Not downloaded: ") && response.body.string.contains(reason), "\(query): \(reason)")
                #expect(!response.body.string.contains("NearUser"), "\(query) gives no data")
            }
            // A refused download shows the stream form again with what was chosen.
            let refused = try await client.get("/studies/study-a/export/streams?participant[]=\(a)&stream[]=gps&from=yesterday")
            #expect(refused.body.string.contains("value=\"\(a)\" selected"))
            #expect(refused.body.string.contains("value=\"gps\" checked"))
            #expect(refused.body.string.contains("action=\"/studies/study-a/export/streams&#35;streams\""))
        }
    }

    @Test("several participants or streams download as one ZIP with a LABEL/STREAM.csv entry each")
    func archive() async throws {
        try await withTestApp { app, configuration in
            let world = try await WebsiteWorld.make(on: app.db)
            let blobs = BlobStore(dataDirectory: configuration.dataDirectory)
            let base = StreamUploadTests.base
            let second = try await WebsiteWorld.participant(in: world.studyA, label: "SECND", on: app.db).requireID()
            try await StreamExportTests.store("\(PassiveStream.proximity.headerLine)\n\(base),NearUser\n", .proximity, key: "1",
                                              for: world.participantA, blobs: blobs, on: app.db)
            try await StreamExportTests.store("\(PassiveStream.reachability.headerLine)\n\(base + 1),wifi\n", .reachability, key: "1",
                                              for: second, blobs: blobs, on: app.db)
            try await StreamExportTests.store("\(PassiveStream.proximity.headerLine)\n\(base + 2),NearUser\n", .proximity, key: "1",
                                              for: world.participantB, blobs: blobs, on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let (a, s) = (world.participantA.uuidString.lowercased(), second.uuidString.lowercased())
            let response = try await client.get(
                "/studies/study-a/export/streams?participant[]=\(a)&participant[]=\(s)&participant[]=\(a)&stream[]=proximity&stream[]=reachability")
            #expect(response.status == .ok)
            #expect(response.headers.contentType?.description == "application/zip")
            #expect(response.headers.first(name: .contentDisposition) == "attachment; filename=\"study-a-streams.zip\"")
            let entries = try StreamExportTests.entries(of: Archive(data: Data(buffer: response.body), accessMode: .read))
            let label = try await Participant.find(world.participantA, on: app.db)?.label ?? a
            #expect(entries == [
                "\(label)/proximity.csv": "\(PassiveStream.proximity.headerLine)\n\(base),NearUser\n",
                "\(label)/reachability.csv": "\(PassiveStream.reachability.headerLine)\n",
                "SECND/proximity.csv": "\(PassiveStream.proximity.headerLine)\n",
                "SECND/reachability.csv": "\(PassiveStream.reachability.headerLine)\n\(base + 1),wifi\n",
            ], "one entry a participant and stream; a participant named twice is one")

            // No participant chosen: everyone in the study who uploaded the stream (not participant B of study B).
            let everyone = try await client.get("/studies/study-a/export/streams?stream[]=proximity")
            #expect(everyone.status == .ok && everyone.headers.contentType?.description == "application/zip")
            #expect(try StreamExportTests.entries(of: Archive(data: Data(buffer: everyone.body), accessMode: .read))
                == ["\(label)/proximity.csv": "\(PassiveStream.proximity.headerLine)\n\(base),NearUser\n"])
            let scratch = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            #expect(!scratch.contains { $0.hasPrefix("momentary-streams-") && $0.hasSuffix(".zip") }, "the scratch ZIP is removed once sent")
        }
    }
}
