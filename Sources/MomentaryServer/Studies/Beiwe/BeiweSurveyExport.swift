import Foundation
import MomentaryCore

/// One survey of a study document as a survey object of a Beiwe study export (see
/// `BeiweStudyExport`): its stored document as it was read, its name, and its fixed rules as
/// Beiwe's three schedules. What Beiwe cannot take is left out and named in `leftOut`.
struct BeiweSurveyExport {
    /// The question types Beiwe's apps show (FORMATS.md §1).
    static let beiweQuestionTypes: Set<QuestionType> = [.infoTextBox, .slider, .radioButton, .checkbox, .freeResponse, .date, .time, .dateTime]

    /// The Beiwe survey, or nil when the whole survey is left out.
    private(set) var object: [String: JSONValue]?
    /// One sentence each, naming the survey.
    private(set) var leftOut: [String] = []
    /// The longest recording of an audio survey, if it has a limit (Beiwe's is study-wide).
    private(set) var recordingSeconds: Double?

    init(_ entry: StudyDocument.SurveyEntry, languages: [String]) {
        let place = "“\(entry.name)”"
        guard entry.kind == .esm else {
            leftOut.append("\(place) is the registration survey; Beiwe has none, so it is left out.")
            return
        }
        var document = entry.document
        if document.participantTexts.contains(where: { $0.text.isTranslated }), let first = languages.first {
            document = document.localized(for: [first], languages: languages)
            let others = languages.dropFirst().joined(separator: ", ")
            leftOut.append("\(place): its texts in \(others.isEmpty ? "other languages" : others) are left out; a Beiwe survey has one language (\(first) kept).")
        }
        var content: JSONValue?
        if document.surveyType == .audioSurvey {
            guard document.content.count == 1, case .audioRecording(let limit) = document.content[0].kind else {
                leftOut.append("\(place) is an audio survey that is not one audio recording question; Beiwe's audio survey is one prompt, so it is left out.")
                return
            }
            content = .array([.object(["prompt": .string(document.content[0].text.text)])])
            recordingSeconds = limit
            if limit == nil {
                leftOut.append("\(place): its recording has no length limit; Beiwe's recordings stop at the study's "
                    + "voice_recording_max_time_length_seconds (\(Int(BeiweStudyConversion.defaultRecordingSeconds)) unless another audio survey sets it).")
            }
        } else {
            for (position, question) in document.content.enumerated() where !Self.beiweQuestionTypes.contains(question.type) {
                leftOut.append("\(place): \(SurveyQuestion.label(position: position, id: question.id)) is a “\(question.type.rawValue)” question, "
                    + "which Beiwe has no counterpart for; left out.")
            }
            document.content.removeAll { !Self.beiweQuestionTypes.contains($0.type) }
        }
        var object = document.keptJSON.objectValue ?? [:]
        if let content { object["content"] = content }
        object["name"] = .string(entry.name)
        let schedule = BeiweScheduleExport(rules: entry.schedule?.rules ?? [], existing: document.timings)
        object.merge(schedule.fields) { _, converted in converted }
        leftOut += schedule.leftOut.map { "\(place), \($0)" }
        if let minutes = entry.schedule?.answerWindowMinutes {
            leftOut.append("\(place): its schedule's own answer window (\(minutes) minutes) is left out; Beiwe has none.")
        }
        if !entry.active {
            leftOut.append("\(place) is switched off; Beiwe has no such switch, so in Beiwe it runs.")
        }
        self.object = object
    }
}
