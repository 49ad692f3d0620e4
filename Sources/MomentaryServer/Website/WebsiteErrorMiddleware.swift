import Vapor

/// Turns errors on website routes into a readable HTML page with the right status, instead of
/// the JSON error body the participant API uses.
struct WebsiteErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let abort as any AbortError {
            let page = ErrorPage(status: Int(abort.status.code), title: abort.status.reasonPhrase, message: abort.reason)
            return try await request.view.render("error", page).encodeResponse(status: abort.status, for: request)
        } catch let failure as CommandFailure {
            // Shared services word their refusals for people; show them as a rejected request.
            let page = ErrorPage(status: 422, title: "Not saved", message: failure.description)
            return try await request.view.render("error", page).encodeResponse(status: .unprocessableEntity, for: request)
        } catch {
            request.logger.report(error: error)
            let page = ErrorPage(status: 500, title: "Something went wrong", message: "The server could not finish this request.")
            return try await request.view.render("error", page).encodeResponse(status: .internalServerError, for: request)
        }
    }
}

struct ErrorPage: Encodable {
    let status: Int
    let title: String
    let message: String
}
