import Vapor

/// Turns errors on website routes into a readable HTML page with the right status, instead of
/// the JSON error body the participant API uses.
struct WebsiteErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let abort as any AbortError {
            return try await Self.render(status: abort.status, title: abort.status.reasonPhrase, message: abort.reason, for: request)
        } catch let failure as CommandFailure {
            // Shared services word their refusals for people; show them as a rejected request.
            return try await Self.render(status: .unprocessableEntity, title: "Not saved", message: failure.description, for: request)
        } catch {
            request.logger.report(error: error)
            return try await Self.render(
                status: .internalServerError, title: "Something went wrong", message: "The server could not finish this request.",
                for: request)
        }
    }

    /// A signed-in researcher keeps the site's navigation; anyone else gets a bare page (which
    /// touches no session, so an anonymous error stores nothing).
    static func render(status: HTTPStatus, title: String, message: String, for request: Request) async throws -> Response {
        let signedIn = request.storage[SignedInResearcherKey.self] != nil
        let page = ErrorPage(
            status: Int(status.code), title: title, message: message,
            chrome: signedIn ? PageChrome(request, title: "\(status.code) \(title)") : nil)
        return try await request.view.render(signedIn ? "error-signed-in" : "error", page).encodeResponse(status: status, for: request)
    }
}

struct ErrorPage: Encodable {
    let status: Int
    let title: String
    let message: String
    let chrome: PageChrome?
}
