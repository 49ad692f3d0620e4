import Testing
@testable import MomentaryCore

@Suite("API routes")
struct APIRouteTests {
    @Test("templates carry the version prefix and OpenAPI parameters")
    func templates() {
        #expect(APIRoute.register.template == "/api/v1/participants")
        #expect(APIRoute.register.method == .post)
        #expect(APIRoute.beepSurvey.template == "/api/v1/beeps/{id}/survey")
        #expect(APIRoute.beepSurvey.parameterNames == ["id"])
        #expect(APIRoute.updatePushToken.description == "PUT /api/v1/push-token")
    }

    @Test("concrete paths fill parameters and percent-encode them")
    func concretePaths() {
        #expect(APIRoute.uploadPhoto.path("1F0C6A52-3C57-4C39-9C1B-2B5C8B1E0E11")
                == "/api/v1/responses/1F0C6A52-3C57-4C39-9C1B-2B5C8B1E0E11/photo")
        #expect(APIRoute.reportIgnored.path("a/b c") == "/api/v1/beeps/a%2Fb%20c/ignored")
        #expect(APIRoute.status.path() == "/api/v1/status")
    }

    @Test("every route is listed once, and only registration, the study's public information, its invitation check and its public statistics are unauthenticated")
    func catalogue() {
        #expect(Set(APIRoute.all).count == APIRoute.all.count)
        #expect(Set(APIRoute.all.map(\.description)).count == APIRoute.all.count)
        #expect(APIRoute.all.filter { !$0.requiresAuthentication } == [.register, .studyInfo, .webPushKey, .publicStatistics, .checkInvitation])
    }
}
