import MomentaryCore
import Vapor

/// Errors of pages people open in a browser (a personal data link, a public statistics page) as a
/// readable page rather than the API's JSON, when the browser asks for HTML. The status and the
/// sentence are the same either way, so an unknown link still looks like any other unknown link.
struct ParticipantPageErrors: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            guard request.headers.prefersHTML else { throw error }
            let (status, detail) = ErrorBodyMiddleware.describe(error)
            if status.code >= 500 {
                request.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            // No participant is known here: the browser's languages choose the page's words.
            let preferences = request.headers.first(name: .acceptLanguage).map(LanguageTag.preferences(fromAcceptLanguage:)) ?? []
            let language = LanguageTag.match(preferences, among: AppLanguages.supported)
            let titleKey = status == .notFound ? "page_error.not_found" : status == .tooManyRequests ? "page_error.wait" : "page_error.failed"
            let title = AppCatalogues.text(titleKey, language: language)
            let open = HTMLText.escape(AppCatalogues.text("page_error.open_app", language: language))
            let message = (error as? APIError)?.message(for: preferences) ?? detail.message
            let body = #"<p>\#(HTMLText.escape(message))</p><p><a href="/app">\#(open)</a></p>"#
            var headers = HTTPHeaders()
            if let abort = error as? any AbortError, let retry = abort.headers.first(name: .retryAfter) {
                headers.replaceOrAdd(name: .retryAfter, value: retry)
            }
            return ParticipantPage.response(
                ParticipantPage.document(title: title, language: language, body: body), status: status, headers: headers)
        }
    }
}
