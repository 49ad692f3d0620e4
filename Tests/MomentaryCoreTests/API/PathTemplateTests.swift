import Testing
@testable import MomentaryCore

@Suite("Path templates")
struct PathTemplateTests {
    @Test("a template reads with or without its leading slash; the empty one is the root")
    func parsing() {
        #expect(PathTemplate("/studies/{slug}").description == "/studies/{slug}")
        #expect(PathTemplate("studies/{slug}/surveys/{surveyID}").parameterNames == ["slug", "surveyID"])
        #expect(PathTemplate("").path([]) == "/")
    }

    @Test("parameters are filled in order and percent-encoded, so a value cannot add a segment")
    func filling() {
        let template = PathTemplate("studies/{slug}/invitees/{code}/restrict")
        #expect(template.path(["city-moods", "AB CD"]) == "/studies/city-moods/invitees/AB%20CD/restrict")
        #expect(template.path(["../admin", "x?y"]) == "/studies/..%2Fadmin/invitees/x%3Fy/restrict")
    }
}
