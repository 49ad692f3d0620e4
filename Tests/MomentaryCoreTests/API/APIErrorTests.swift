import Testing
@testable import MomentaryCore

@Suite("API errors")
struct APIErrorTests {
    @Test("the error body has the contract's shape")
    func bodyShape() throws {
        let body = APIErrorBody(code: .invitationRequired, message: "This study needs an invitation code.")
        let object = try Wire.encodeObject(body)
        #expect(Array(object.keys) == ["error"])
        #expect(object["error"] == .object([
            "code": .string("invitation_required"),
            "message": .string("This study needs an invitation code."),
        ]))
    }

    @Test("an unknown code from a newer server still decodes")
    func unknownCodeDecodes() throws {
        let body = try Wire.decode(APIErrorBody.self, #"{"error": {"code": "brand_new", "message": "m"}}"#)
        #expect(body.error.code == "brand_new")
        #expect(body.error.knownCode == nil)
        let known = try Wire.decode(APIErrorBody.self, #"{"error": {"code": "not_found", "message": "m"}}"#)
        #expect(known.error.knownCode == .notFound)
    }

    @Test("every code maps to a 4xx or 5xx status, client faults to 4xx")
    func statuses() {
        for code in APIErrorCode.allCases {
            #expect((400..<600).contains(code.httpStatus), "\(code)")
        }
        #expect(APIErrorCode.unauthorized.httpStatus == 401)
        #expect(APIErrorCode.tooManyRequests.httpStatus == 429)
        #expect(APIErrorCode.consentRequired.httpStatus / 100 == 4)
        #expect(APIErrorCode.serviceUnavailable.httpStatus == 503)
    }
}
