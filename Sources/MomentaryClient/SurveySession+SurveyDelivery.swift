import Foundation
import MomentaryCore

extension SurveySession {
    /// A session for a survey as the server delivered it (`GET /beeps/{id}/survey` or `/survey`).
    public init(delivery: SurveyDelivery,
                clock: @escaping @Sendable () -> Date = { Date() }) throws(SurveyFormatError) {
        let document = try SurveyDocument(json: delivery.document)
        self.init(surveyID: delivery.surveyID, surveyVersion: delivery.version, beepID: delivery.beepID,
                  questions: document.content.map(SurveySessionQuestion.init), clock: clock)
    }
}
