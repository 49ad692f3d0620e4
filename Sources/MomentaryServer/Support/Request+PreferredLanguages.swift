import MomentaryCore
import Vapor

extension Request {
    /// The languages the request asks for, most preferred first: `?lang=` if given, else
    /// `Accept-Language`. A malformed `lang` is refused rather than ignored.
    func preferredLanguages() throws -> [String] {
        if let tag = try? query.get(String.self, at: "lang") {
            guard LanguageTag.isWellFormed(tag) else {
                throw APIError(.badRequest, "lang must be a language tag such as en or de-AT.", field: "lang")
            }
            return [tag]
        }
        return headers.first(name: .acceptLanguage).map(LanguageTag.preferences(fromAcceptLanguage:)) ?? []
    }
}
