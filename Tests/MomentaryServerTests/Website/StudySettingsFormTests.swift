import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The study settings form as a person fills it in.
@Suite("Website: the study settings form")
struct StudySettingsFormTests {
    @Test("hours are 15-minute choices, the time zone offers every IANA name, and a new study starts in the server's zone")
    func choices() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let new = try await client.get("/studies/new").body.string
            #expect(new.contains("<select id=\"defaultStart\" name=\"defaultStart\""))
            #expect(new.contains("<option value=\"08:15\" >08:15</option>") && new.contains("<option value=\"23:45\" >23:45</option>"))
            #expect(!new.contains("value=\"08:10\""), "no times off the 15-minute grid")
            #expect(new.contains("list=\"time-zones\"") && new.contains("<option value=\"Europe/Berlin\">")
                    && new.contains("<option value=\"Pacific/Auckland\">"))
            let serverZone = TimeZone.current.identifier.contains("/") ? TimeZone.current.identifier : "UTC"
            #expect(new.contains("name=\"defaultTimeZone\" list=\"time-zones\" autocomplete=\"off\" value=\"\(serverZone)\""))
            #expect(StudyFormPage.clockChoices(selected: "09:10").map(\.value).contains("09:10"),
                    "a stored time off the grid stays choosable")
        }
    }
}
