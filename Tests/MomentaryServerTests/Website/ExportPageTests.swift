import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The export page and its downloads over HTTP, signed in as a developer.
@Suite("Website: exports")
struct ExportPageTests {
    @Test("the export form offers every format and the download streams the study's own rows")
    func downloads() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let form = try await client.get("/studies/study-a/export")
            #expect(form.status == .ok)
            for format in ExportFormat.allCases {
                #expect(form.body.string.contains("value=\"\(format.rawValue)\""), "the form offers \(format.rawValue)")
            }
            let study = try await client.get("/studies/study-a")
            #expect(study.body.string.contains("/studies/study-a/export"), "the study page links to the export")

            let context = try await client.get("/studies/study-a/export/download?format=context-csv")
            #expect(context.status == .ok)
            #expect(context.headers.first(name: .contentDisposition) == "attachment; filename=\"study-a-context.csv\"")
            #expect(context.body.string.contains("Kitchen in Study A"))
            #expect(!context.body.string.contains("Study B"))

            let workbook = try await client.get("/studies/study-a/export/download?format=xlsx&from=2020-01-01")
            #expect(workbook.status == .ok)
            #expect(workbook.headers.contentType?.description.contains("spreadsheetml") == true)
            #expect(Array(workbook.body.readableBytesView.prefix(2)) == Array("PK".utf8), "a workbook is a ZIP file")
        }
    }

    @Test("a bad format, date or participant is answered 400 on the form with the reason")
    func refusals() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let cases = [
                ("format=pdf", "Choose a format"),
                ("format=csv&from=2026-13-01", "is not a date"),
                ("format=csv&from=2026-03-02&to=2026-03-01", "is before"),
                ("format=csv&participant%5B%5D=\(UUID().uuidString)", "is not in study"),
                ("format=csv&participant%5B%5D=nobody", "is not a participant id"),
            ]
            for (query, reason) in cases {
                let response = try await client.get("/studies/study-a/export/download?\(query)")
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.body.string.contains(reason), "\(query) explains: \(reason)")
                #expect(response.body.string.contains("id=\"export-form\""), "\(query) shows the form again")
            }
        }
    }
}
