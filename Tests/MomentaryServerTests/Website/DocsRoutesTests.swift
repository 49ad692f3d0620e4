import Foundation
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Website: the guides")
struct DocsRoutesTests {
    @Test("/docs lists the guides and /docs/<name> shows one rendered, with links between them; others are 404")
    func guides() async throws {
        try await withTestApp { app, _ in
            try await app.testing().test(.GET, "docs") { response in
                #expect(response.status == .ok)
                for page in DocsPages.pages { #expect(response.body.string.contains(#"href="/docs/\#(page.name)""#), "\(page.name)") }
            }
            try await app.testing().test(.GET, "docs/surveys") { response in
                let body = response.body.string
                #expect(response.status == .ok)
                #expect(body.contains("<h1 id=\"writing-surveys\">Writing surveys</h1>"))
                #expect(body.contains("<code>display_if</code>") && body.contains("<pre><code class=\"language-json\">"))
                #expect(body.contains(#"href="/docs/schedules"#), "links between guides go to their pages")
                #expect(!body.contains("<script"), "no script comes from the Markdown")
            }
            try await app.testing().test(.GET, "docs/passwords") { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
