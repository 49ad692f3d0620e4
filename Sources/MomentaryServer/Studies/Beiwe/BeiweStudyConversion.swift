import Foundation
import MomentaryCore

/// A Beiwe study export (`{"surveys": […], "device_settings": {…}, "interventions": […]}`, as the
/// Beiwe backend's study export writes it) turned into a study document, with a warning for
/// everything that could not be carried over (never dropped in silence).
///
/// - Tracking surveys keep their questions and question ids (Beiwe's ids, so downloaded Beiwe
///   answers still match); audio surveys become one audio recording question of the study's
///   recording length. Other survey types and empty drafts are left out with a warning.
/// - Each survey's three schedules become its fixed rules (`BeiweSchedule`); relative timings
///   count from participant dates named after Beiwe's interventions.
/// - A survey with authoring mistakes Beiwe accepted is imported switched off, each mistake a
///   warning with its place, so the researcher can fix it on the website.
/// - Switched-on streams Momentary records become the study's expected streams.
struct BeiweStudyConversion {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var document: StudyDocument
    private(set) var warnings: [String] = []

    /// Beiwe's default zone: its exports do not carry the study's own.
    static let beiweDefaultZone = "America/New_York"
    /// Beiwe's default recording length, when `device_settings` does not give one.
    static let defaultRecordingSeconds = 240.0
    /// Beiwe's stream switches for data Momentary does not record (FORMATS.md §1).
    static let streamsMomentaryLacks = ["calls", "texts", "wifi", "bluetooth", "omniring"]

    init(data: Data, slug: String, name: String) throws {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: data), let root = json.objectValue else {
            throw Refusal(description: "The file is not a JSON object; a Beiwe study export is {\"surveys\": […], \"device_settings\": {…}}.")
        }
        guard let surveys = root["surveys"]?.arrayValue else {
            throw Refusal(description: "The file has no “surveys” list; a Beiwe study export is {\"surveys\": […], \"device_settings\": {…}}.")
        }
        let settings = root["device_settings"]?.objectValue ?? [:]
        document = StudyTransfer.document(of: Study(slug: slug, name: name, now: Date()), surveys: [])
        document.slug = slug
        document.defaultTimezone = Self.beiweDefaultZone
        document.randomSampling = false
        document.scheduling = .server
        warnings.append("Beiwe's export does not say the study's time zone: the default is \(Self.beiweDefaultZone), Beiwe's own; "
            + "change it in the settings if the study ran elsewhere. Each participant is beeped in their own zone.")
        for key in root.keys.sorted() where !["surveys", "device_settings", "interventions", "study"].contains(key) {
            warnings.append("The export's “\(key)” is not part of a Beiwe study; not carried over.")
        }
        var names = (root["interventions"]?.arrayValue ?? []).compactMap(\.stringValue)
        readDeviceSettings(settings)
        let recording = settings["voice_recording_max_time_length_seconds"]?.numberValue ?? Self.defaultRecordingSeconds
        var entries: [StudyDocument.SurveyEntry] = []
        for (index, value) in surveys.enumerated() {
            guard let survey = value.objectValue else {
                warnings.append("Survey \(index + 1) is not an object; left out.")
                continue
            }
            var item = BeiweSurveyConversion(survey, number: index + 1, recordingSeconds: recording, takenNames: entries.map(\.name))
            guard let entry = item.entry(position: entries.count) else {
                warnings += item.warnings
                continue
            }
            warnings += item.warnings
            for name in item.dateNames where !names.contains(name) { names.append(name) }
            entries.append(entry)
        }
        document.surveys = Self.volunteerFirst(entries, availability: surveys, warnings: &warnings)
        document.interventions = names.isEmpty ? nil : names
        if entries.isEmpty { throw Refusal(description: "None of the export's \(surveys.count) surveys could be carried over:\n" + warnings.joined(separator: "\n")) }
    }

    /// The stream switches, the consent text and the recording length are used; every other
    /// setting is named in one warning.
    private mutating func readDeviceSettings(_ settings: [String: JSONValue]) {
        var expected: [String] = []
        var notRecorded: [String] = []
        var unused: [String] = []
        let momentaryStreams = Set(ExpectedStreams.choices.map(\.rawValue))
        // `ambient_audio` was a switch of older Beiwe versions.
        let otherStreams = Set(Self.streamsMomentaryLacks + ["ambient_audio"])
        for key in settings.keys.sorted() {
            let value = settings[key] ?? .null
            if momentaryStreams.contains(key) || otherStreams.contains(key) {
                guard value.boolValue == true else { continue }
                if momentaryStreams.contains(key) { expected.append(key) } else { notRecorded.append(key) }
            } else if key == "consent_form_text", let text = value.stringValue, !text.trimmingCharacters(in: .whitespaces).isEmpty {
                document.consentText = LocalizedText(text)
            } else if !["voice_recording_max_time_length_seconds", "consent_form_text", "study"].contains(key) {
                unused.append(key)
            }
        }
        document.expectedStreams = expected.isEmpty ? nil : ExpectedStreams.choices.map(\.rawValue).filter(expected.contains)
        if !notRecorded.isEmpty {
            warnings.append("Momentary records no \(notRecorded.joined(separator: ", ")) data; those streams were not carried over.")
        }
        if !unused.isEmpty {
            warnings.append("Beiwe app settings Momentary has no place for, not carried over: \(unused.joined(separator: ", ")).")
        }
    }

    /// Momentary offers one survey to answer at any time, the first: an always-available survey
    /// goes first, and more than one is a warning.
    private static func volunteerFirst(
        _ entries: [StudyDocument.SurveyEntry], availability: [JSONValue], warnings: inout [String]
    ) -> [StudyDocument.SurveyEntry] {
        let available = entries.filter { $0.document.settings["always_available"]?.boolValue == true }
        guard let first = available.first else { return entries }
        if available.count > 1 {
            warnings.append("Several surveys are always available (\(available.map { "“\($0.name)”" }.joined(separator: ", "))); "
                + "participants can answer only the first, “\(first.name)”, at any time, and the others when beeped.")
        }
        var ordered = [first] + entries.filter { $0.name != first.name }
        for index in ordered.indices { ordered[index].position = index }
        return ordered
    }
}
