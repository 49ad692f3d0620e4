import Foundation
import MomentaryCore

/// A response as people read it (a participant's own download, the map and calendar exports):
/// when, in the participant's time zone, the answers in words (in the language they were given in), the feedback slider's value, and
/// where, when known.
struct ResponseInWords {
    let record: ExportRecord
    /// (question text, answer in words) for each answered question, in survey order.
    let answers: [(question: String, answer: String)]
    /// The study's feedback slider, when answered: its text as the participant read it, and the value.
    let feedback: (question: String, value: Double)?
    /// "Tue 24 Nov 2026, 09:31": when it was started, in the participant's zone.
    let localTime: String

    init(_ record: ExportRecord, versions: StudySurveyVersions, feedbackQuestionID: String?, times: LocalTimeText) {
        self.record = record
        self.localTime = times.text(record.startedAt, in: record.timeZone)
        var answers: [(String, String)] = []
        var feedback: (String, Double)?
        for answer in record.answers where answer.status == "answered" && answer.questionType != QuestionType.infoTextBox.rawValue {
            let question = versions.question(answer.questionID, survey: record.surveyName, version: record.surveyVersion, language: record.language)
            let text = question?.text.text ?? (answer.questionText.isEmpty ? answer.questionID : answer.questionText)
            answers.append((text, AnswerDisplay.text(json: answer.value, question: question, withKeys: false, language: record.language)))
            if answer.questionID == feedbackQuestionID, let value = answer.value.flatMap(Double.init) { feedback = (text, value) }
        }
        self.answers = answers
        self.feedback = feedback
    }

    var coordinates: (latitude: Double, longitude: Double, altitude: Double?)? {
        guard let context = record.context, let latitude = context.latitude, let longitude = context.longitude else { return nil }
        return (latitude, longitude, context.altitude)
    }

    /// The answers as lines of "question: answer".
    var answerLines: [String] { answers.map { "\($0.question): \($0.answer)" } }
}
