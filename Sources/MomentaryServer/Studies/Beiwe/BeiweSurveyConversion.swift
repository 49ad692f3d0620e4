import Foundation
import MomentaryCore

/// One survey of a Beiwe study export as a survey entry of a study document (see
/// `BeiweStudyConversion`), with its warnings.
struct BeiweSurveyConversion {
    let survey: [String: JSONValue]
    let number: Int
    let recordingSeconds: Double
    let takenNames: [String]
    private(set) var warnings: [String] = []
    private(set) var dateNames: [String] = []

    /// The fields Momentary keeps elsewhere: the name on the survey, the schedules as its rules.
    static let fieldsMovedOut = ["name", "timings", "absolute_timings", "relative_timings"]

    init(_ survey: [String: JSONValue], number: Int, recordingSeconds: Double, takenNames: [String]) {
        self.survey = survey
        self.number = number
        self.recordingSeconds = recordingSeconds
        self.takenNames = takenNames
    }

    /// How warnings name the survey: `Survey 3 (“Sleep”)`.
    var place: String {
        let name = survey["name"]?.stringValue ?? ""
        return name.isEmpty ? "Survey \(number) (without a name)" : "Survey \(number) (“\(name)”)"
    }

    /// The entry, or nil (with a warning) when the survey cannot be carried over.
    mutating func entry(position: Int) -> StudyDocument.SurveyEntry? {
        let type = survey["survey_type"]?.stringValue ?? SurveyType.trackingSurvey.rawValue
        guard let surveyType = SurveyType(rawValue: type) else {
            warnings.append("\(place) is a survey of type “\(type)”, which Momentary has no counterpart for; left out.")
            return nil
        }
        guard let content = survey["content"]?.arrayValue, !content.isEmpty else {
            warnings.append("\(place) has no questions (a draft); left out.")
            return nil
        }
        var object = survey.filter { !Self.fieldsMovedOut.contains($0.key) }
        if surveyType == .audioSurvey { object["content"] = .array([audioQuestion(content)]) }
        let document: SurveyDocument
        do {
            document = try SurveyDocument(json: .object(object))
        } catch {
            warnings.append("\(place) cannot be read: \(error.message) Left out.")
            return nil
        }
        let schedule = BeiweSchedule(survey: survey)
        warnings += schedule.warnings.map { "\(place): \($0)" }
        dateNames = schedule.dateNames
        let active = checkProblems(of: document)
        noteSettings(document.settings)
        return StudyDocument.SurveyEntry(
            name: uniqueName(), kind: .esm, position: position, active: active, document: document,
            schedule: schedule.rules.isEmpty ? nil : FixedScheduleDocument(rules: schedule.rules))
    }

    /// Beiwe's audio survey, `[{"prompt": …}]`, as Momentary's audio recording question.
    private mutating func audioQuestion(_ content: [JSONValue]) -> JSONValue {
        let prompt = content.first?.objectValue?["prompt"]?.stringValue ?? ""
        if content.count > 1 { warnings.append("\(place): an audio survey has one prompt; only the first was kept.") }
        return .object([
            "question_id": .string("recording"), "question_type": .string(QuestionType.audioRecording.rawValue),
            "question_text": .string(prompt), "max_duration_seconds": .number(recordingSeconds),
        ])
    }

    /// Beiwe's question ids are kept whatever their form (its downloaded answers name them);
    /// every other problem switches the survey off until it is fixed. Returns whether it may run.
    private mutating func checkProblems(of document: SurveyDocument) -> Bool {
        let idIssues = document.content.compactMap { QuestionIdentifier.issue(with: $0.id) }
        let problems = document.problems().filter { problem in !idIssues.contains { problem.message.contains($0) } }
        if !idIssues.isEmpty {
            warnings.append("\(place): its question ids are Beiwe's and were kept so Beiwe data still matches; "
                + "the website asks for plain names (\(QuestionIdentifier.rule)) at the next change of the survey.")
        }
        guard !problems.isEmpty else { return true }
        warnings += problems.map { "\(place): \($0.message)" }
        warnings.append("\(place) was imported switched off because of the problems above; fix them on the website, then switch it on.")
        return false
    }

    /// Survey settings Momentary does not act on yet are kept in the survey, and said.
    private mutating func noteSettings(_ settings: [String: JSONValue]) {
        if settings["randomize"]?.boolValue == true {
            let count = settings["number_of_random_questions"]?.numberValue.map { " (\(Int($0)) of them)" } ?? ""
            warnings.append("\(place): Beiwe asked its questions in random order\(count); Momentary asks them in the order given. The setting is kept in the survey.")
        }
        if settings["trigger_on_first_download"]?.boolValue == true {
            warnings.append("\(place): Beiwe showed it when the app was installed; Momentary has no such trigger (a fixed rule on day 0 comes closest). The setting is kept in the survey.")
        }
        if let type = settings["audio_survey_type"]?.stringValue {
            warnings.append("\(place): Beiwe's recording format (“\(type)”) is not used; the phone records in its own format, up to \(Int(recordingSeconds)) seconds.")
        }
    }

    /// The survey's name, or `Survey N`, shortened to what a survey name may be, made unique
    /// among the study's.
    private mutating func uniqueName() -> String {
        let given = (survey["name"]?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        var base = given.isEmpty ? "Survey \(number)" : given
        // Room for " (12)" after a name cut to the limit.
        let room = SurveySetRules.nameLength.upperBound - 5
        if base.count > room {
            base = String(base.prefix(room)).trimmingCharacters(in: .whitespaces)
            warnings.append("\(place): the name is longer than \(room) characters and was shortened to “\(base)”.")
        }
        var name = base
        var copy = 2
        while takenNames.contains(where: { $0.lowercased() == name.lowercased() }) {
            name = "\(base) (\(copy))"
            copy += 1
        }
        return name
    }
}
