import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Study documents refuse fields nobody reads")
struct StudyDocumentStrictTests {
    @Test("an unknown field anywhere in the settings or survey entries is named, and nothing is imported")
    func unknownFieldsRefused() async throws {
        try await withTestApp { app, configuration in
            let study = try await StudyTransfer.create(
                slug: "strict", name: "Strict", invitationOnly: false, deviceScheduled: false, on: app.db, now: Date())
            try await SurveyStore.create(
                studyID: try study.requireID(), kind: .esm, name: "ESM", position: 0,
                document: try SurveyStore.text(of: SampleSurveys.experienceSampling), on: app.db, now: Date())
            let exported = try JSONEncoder().encode(try await StudyTransfer.export(study, on: app.db))
            #expect(StudyDocument.unknownFields(in: exported).isEmpty, "what export writes, import reads")
            #expect(try StudyDocument.decode(exported).slug == "strict")

            var object = try #require(try JSONSerialization.jsonObject(with: exported) as? [String: Any])
            object["answer_window_minuts"] = 15
            var hours = try #require(object["default_hours"] as? [String: Any])
            hours["middle"] = "12:00"
            object["default_hours"] = hours
            var surveys = try #require(object["surveys"] as? [[String: Any]])
            surveys[0]["timings"] = [[]]
            object["surveys"] = surveys
            let edited = try JSONSerialization.data(withJSONObject: object)
            #expect(StudyDocument.unknownFields(in: edited) == ["answer_window_minuts", "default_hours.middle", "surveys[0].timings"])
            #expect(throws: StudyDocument.UnknownFields.self) { try StudyDocument.decode(edited) }

            let file = configuration.dataDirectory.appendingPathComponent("strict-copy.json")
            try edited.write(to: file)
            let result = await runCommand(["studies", "import", file.path, "--slug", "strict-copy", "--data", configuration.dataDirectory.path])
            #expect(result.code == 2, "\(result.errors)")
            #expect(result.errors.contains("unknown fields “answer_window_minuts”, “default_hours.middle”, “surveys[0].timings”"), "\(result.errors)")
            #expect(try await Study.query(on: app.db).filter(\.$slug == "strict-copy").first() == nil)
        }
    }
}
