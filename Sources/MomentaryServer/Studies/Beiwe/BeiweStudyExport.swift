import Foundation
import MomentaryCore

/// A study document written as a Beiwe study export, the JSON the Beiwe backend's study import
/// reads (`{"surveys": […], "device_settings": {…}, "interventions": […]}`; FORMATS.md §1): the
/// reverse of `BeiweStudyConversion`, so a Beiwe study imported and exported again gives back the
/// same surveys, schedules, interventions and stream switches.
///
/// What Beiwe cannot express is left out, each thing named in `leftOut` (never dropped in silence).
struct BeiweStudyExport {
    private(set) var json: JSONValue = .null
    /// One sentence each, naming the survey and the rule or the setting.
    private(set) var leftOut: [String] = []

    init(_ document: StudyDocument) {
        let languages = document.studyLanguages
        let surveys = document.surveys.sorted { $0.position < $1.position }.map { BeiweSurveyExport($0, languages: languages) }
        leftOut = surveys.flatMap(\.leftOut)
        var settings = Self.streamSwitches(expected: document.expectedStreams ?? [])
        let recordings = Set(surveys.compactMap(\.recordingSeconds))
        if let longest = recordings.max() {
            settings["voice_recording_max_time_length_seconds"] = .number(longest.rounded(.up))
            if recordings.count > 1 {
                leftOut.append("Beiwe has one recording length for the whole study; the audio surveys' "
                    + "\(recordings.sorted().map { "\(Int($0.rounded(.up)))" }.joined(separator: ", ")) seconds became the longest, \(Int(longest.rounded(.up))).")
            }
        }
        settings["consent_form_text"] = .string(consentText(document.consentText, languages: languages))
        json = .object([
            "surveys": .array(surveys.compactMap(\.object).map(JSONValue.object)),
            "device_settings": .object(settings),
            "interventions": .array((document.interventions ?? []).map(JSONValue.string)),
        ])
        noteStudySettings(document)
    }

    /// True for the expected streams, false for every other switch Beiwe has.
    static func streamSwitches(expected: [String]) -> [String: JSONValue] {
        var switches: [String: JSONValue] = [:]
        for stream in ExpectedStreams.choices { switches[stream.rawValue] = .bool(expected.contains(stream.rawValue)) }
        for name in BeiweStudyConversion.streamsMomentaryLacks { switches[name] = .bool(false) }
        return switches
    }

    /// The consent in the study's first language (Beiwe has one).
    private mutating func consentText(_ text: LocalizedText, languages: [String]) -> String {
        guard text.isTranslated, let first = languages.first else { return text.text }
        leftOut.append("The consent text in languages other than \(first) is left out; Beiwe has one language.")
        return text.given(in: first, languages: languages) ?? text.text
    }

    /// Study settings Beiwe's study export has no place for.
    private mutating func noteStudySettings(_ document: StudyDocument) {
        if document.randomSampling {
            let beeps = document.beepsPerDay
            leftOut.append("The study's random beeps (\(beeps.min)–\(beeps.max) a day, default \(beeps.default), "
                + "\(document.defaultHours.start)–\(document.defaultHours.end)) are left out; Beiwe has only fixed schedules.")
        }
        if document.defaultTimezone != BeiweStudyConversion.beiweDefaultZone {
            leftOut.append("Beiwe's export does not carry the study's time zone (\(document.defaultTimezone)); "
                + "set the Beiwe study's zone to it, or every time is read as \(BeiweStudyConversion.beiweDefaultZone).")
        }
        var unused: [String] = []
        if let minutes = document.answerWindowMinutes { unused.append("the answer window (\(minutes) minutes)") }
        if let reminders = document.remindersAfterMinutes, !reminders.isEmpty { unused.append("reminders") }
        if document.endsOn != nil || document.endsAfterDays != nil { unused.append("the study's end") }
        if !unused.isEmpty {
            leftOut.append("Study settings Beiwe has no place for, left out: \(unused.joined(separator: ", ")).")
        }
    }
}
