import Foundation
import MomentaryCore

/// A response as people read it (a participant's own download, the map and calendar exports):
/// when, in the participant's time zone, the answers in words (in the language they were given in), the feedback slider's value, and
/// where, when known.
struct ResponseInWords {
    let record: ExportRecord
    /// (question text, answer in words) for each answered question, in survey order.
    let answers: [(question: String, answer: String)]
    /// The study's feedback subject (`FeedbackSubject`), when the response has a value of it: the
    /// slider's text or the score's label as the participant read it, and the value.
    let feedback: (question: String, value: Double)?
    /// "Tue 24 Nov 2026, 09:31": when it was started, in the participant's zone.
    let localTime: String

    init(_ record: ExportRecord, versions: StudySurveyVersions, feedback subject: FeedbackSubject?, times: LocalTimeText) {
        self.record = record
        self.localTime = times.text(record.startedAt, in: record.timeZone)
        var answers: [(String, String)] = []
        var feedback: (String, Double)?
        for answer in record.answers where answer.status == "answered" && answer.questionType != QuestionType.infoTextBox.rawValue {
            let question = versions.question(answer.questionID, survey: record.surveyName, version: record.surveyVersion, language: record.language)
            let text = question?.text.text ?? (answer.questionText.isEmpty ? answer.questionID : answer.questionText)
            answers.append((text, AnswerDisplay.text(json: answer.value, question: question, withKeys: false, language: record.language)))
            if subject?.score == nil, answer.questionID == subject?.id, let value = answer.value.flatMap(Double.init) { feedback = (text, value) }
        }
        // A score as it was computed when the response was stored.
        if let score = subject?.score, let value = Self.storedScore(score.id, in: record.scores) {
            let label = versions.scoreLabel(score.id, survey: record.surveyName, version: record.surveyVersion, language: record.language)
            feedback = (label ?? subject?.described.text ?? score.id, value)
        }
        self.answers = answers
        self.feedback = feedback
    }

    private static func storedScore(_ id: String, in scores: String?) -> Double? {
        guard let scores, let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(scores.utf8)) else { return nil }
        return object[id]?.numberValue
    }

    var coordinates: (latitude: Double, longitude: Double, altitude: Double?)? {
        guard let context = record.context, let latitude = context.latitude, let longitude = context.longitude else { return nil }
        return (latitude, longitude, context.altitude)
    }

    /// The answers as lines of "question: answer".
    var answerLines: [String] { answers.map { "\($0.question): \($0.answer)" } }
}

extension StudySurveyVersions {
    /// A score's label in that survey version, in the language the participant answered in
    /// (nil: the default); nil when the version has no such score or it has no label.
    func scoreLabel(_ id: String, survey: String, version: Int, language: String?) -> String? {
        let document = versions.first { $0.surveyName == survey && $0.version == version }?.document
        return document?.score(withID: id)?.label?.resolved(for: language.map { [$0] } ?? [], languages: languages)
    }
}
