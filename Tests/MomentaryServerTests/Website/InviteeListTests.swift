import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import VaporTesting

/// The invitees page at scale: pages of codes, a status filter and a code search, with counts
/// for the whole study.
@Suite("Website invitee list pages")
struct InviteeListTests {
    @Test("codes come 200 a page with links either side; status and code filters keep to their pages; bad values are 400")
    func pagesAndFilters() async throws {
        try await withSignedInDeveloper { app, world, client in
            let studyID = try world.studyA.requireID()
            _ = try await InviteeService.create(count: 450, studyID: studyID, on: app.db, now: Date())
            let all = try await Invitee.query(on: app.db).filter(\.$study.$id == studyID).all()
            let restricted = all.filter { $0.status == .restricted }.count
            let codes = all.map(\.code).sorted()

            let first = try await client.get("/studies/study-a/invitees").body.string
            #expect(first.contains("\(all.count) code(s) · page 1 of 3"))
            #expect(first.components(separatedBy: "<td class=\"codes\">").count - 1 == InviteeRoutes.pageSize)
            #expect(first.contains("href=\"/studies/study-a/invitees?page=2\""))
            #expect(!first.contains("rel=\"prev\""))
            let last = try await client.get("/studies/study-a/invitees?page=3").body.string
            #expect(last.components(separatedBy: "<td class=\"codes\">").count - 1 == all.count - 2 * InviteeRoutes.pageSize)
            #expect(try await client.get("/studies/study-a/invitees?page=99").body.string.contains("page 3 of 3"), "a page past the end shows the last")
            // Every code appears on exactly one page.
            var seen: [String] = []
            for page in 1...3 {
                let body = try await client.get("/studies/study-a/invitees?page=\(page)").body.string
                seen += body.matches(of: /<td class="codes">([A-Z0-9]+)<\/td>/).map { String($0.1) }
            }
            #expect(seen.sorted() == codes)

            let invited = try await client.get("/studies/study-a/invitees?status=invited").body.string
            #expect(invited.contains("\(all.count - restricted) code(s) match"))
            let prefix = String(codes[0].prefix(3))
            let expected = codes.filter { $0.hasPrefix(prefix) }.count
            let searched = try await client.get("/studies/study-a/invitees?q=\(prefix.lowercased())").body.string
            #expect(searched.contains("\(expected) code(s) match"), "the search ignores case")
            #expect(searched.contains("value=\"\(prefix)\""))

            #expect(try await client.get("/studies/study-a/invitees?status=lost").status == .badRequest)
            #expect(try await client.get("/studies/study-a/invitees?page=0").status == .badRequest)
        }
    }
}
