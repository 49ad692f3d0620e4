import MomentaryCore
import Vapor

/// The participant's feedback as the request prefers it: JSON for the app, or a page of charts for
/// a browser that asks for HTML (the link the app opens), in the participant's language.
enum FeedbackReply {
    static func response(_ summary: FeedbackSummary, language: String?, to request: Request) throws -> Response {
        guard request.headers.prefersHTML else { return try WireBody.response(summary) }
        let page = ParticipantPage.document(
            title: AppCatalogues.text("title.my_happiness", language: language), language: language,
            body: FeedbackCharts.section(summary, language: language, heading: "feedback.your_averages"))
        return ParticipantPage.response(page)
    }
}
