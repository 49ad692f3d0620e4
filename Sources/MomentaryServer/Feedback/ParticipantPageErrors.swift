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
            let title = status == .notFound ? "Nothing here" : status == .tooManyRequests ? "Please wait" : "Something went wrong"
            let body = #"<p>\#(HTMLText.escape(detail.message))</p><p><a href="/app">Open the Momentary app</a></p>"#
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .contentType, value: "text/html; charset=utf-8")
            headers.replaceOrAdd(name: .cacheControl, value: "no-store")
            if let abort = error as? any AbortError, let retry = abort.headers.first(name: "Retry-After") {
                headers.replaceOrAdd(name: "Retry-After", value: retry)
            }
            return Response(status: status, headers: headers, body: .init(string: ParticipantPage.document(title: title, body: body)))
        }
    }
}
