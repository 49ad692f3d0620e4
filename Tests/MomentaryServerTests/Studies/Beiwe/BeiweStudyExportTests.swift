import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

/// `momentary studies export --beiwe`: a Beiwe study imported with `--beiwe` comes back as the
/// Beiwe study export it was (FORMATS.md §1), and what Beiwe cannot express is listed.
@Suite("Beiwe study export", .serialized)
struct BeiweStudyExportTests {
    /// Runs `body` with a fresh data directory.
    func withDataDirectory(_ body: (URL) async throws -> Void) async throws {
        let data = try TestScratch.folder("momentary-beiwe-export")
        defer { try? FileManager.default.removeItem(at: data) }
        try await body(data)
    }

    /// `studies export --beiwe SLUG`: standard output must be the JSON alone.
    func exportBeiwe(_ slug: String, data: URL) async throws -> (export: [String: JSONValue], errors: String) {
        let result = await runCommand(["studies", "export", "--beiwe", slug, "--data", data.path])
        #expect(result.code == 0, "\(result.errors)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        return (try #require(json.objectValue), result.errors)
    }

    /// A schedule list as sorted JSON texts, to compare regardless of order.
    func sortedEntries(_ value: JSONValue?) throws -> [String] {
        try (value?.arrayValue ?? []).map { try $0.sortedKeysJSONText() }.sorted()
    }

    /// `timings` as one set of seconds per day, Sunday first.
    func weeklySets(_ value: JSONValue?) -> [Set<Double>] {
        (value?.arrayValue ?? []).map { Set(($0.arrayValue ?? []).compactMap(\.numberValue)) }
    }

    @Test("import --beiwe then export --beiwe gives back the surveys, schedules, interventions and stream switches")
    func roundTrip() async throws {
        let original = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: BeiweStudyImportTests.fixture("study-export.json")))
        let fixture = try #require(original.objectValue)
        try await withDataDirectory { data in
            let imported = await runCommand([
                "studies", "import", "--beiwe", BeiweStudyImportTests.fixture("study-export.json").path, "--slug", "post-op", "--data", data.path,
            ])
            #expect(imported.code == 0, "\(imported.errors)")
            let (export, errors) = try await exportBeiwe("post-op", data: data)
            #expect(Set(export.keys) == ["surveys", "device_settings", "interventions"])
            let surveys = try #require(export["surveys"]?.arrayValue).compactMap(\.objectValue)
            var compared = 0
            for survey in try #require(fixture["surveys"]?.arrayValue).compactMap(\.objectValue) {
                // The draft and the `dummy` survey are not imported (BeiweStudyImportTests).
                guard [.string("tracking_survey"), .string("audio_survey")].contains(survey["survey_type"]),
                      survey["content"]?.arrayValue?.isEmpty == false else { continue }
                let name = survey["name"] ?? .null
                let back = try #require(surveys.first { $0["name"] == name }, "\(name)")
                for key in ["content", "settings", "survey_type", "name"] {
                    #expect(back[key] == survey[key], "\(name): \(key)")
                }
                #expect(weeklySets(back["timings"]) == weeklySets(survey["timings"]), "\(name): timings")
                #expect(back["timings"]?.arrayValue?.count == 7)
                #expect(try sortedEntries(back["absolute_timings"]) == sortedEntries(survey["absolute_timings"]), "\(name)")
                #expect(try sortedEntries(back["relative_timings"]) == sortedEntries(survey["relative_timings"]), "\(name)")
                compared += 1
            }
            #expect(compared == 7)
            #expect(surveys.count == 7)
            #expect(export["interventions"] == fixture["interventions"])

            let settings = try #require(export["device_settings"]?.objectValue)
            let beiweSettings = try #require(fixture["device_settings"]?.objectValue)
            for stream in ExpectedStreams.choices.map(\.rawValue) {
                #expect(settings[stream] == beiweSettings[stream], "\(stream)")
            }
            for stream in BeiweStudyConversion.streamsMomentaryLacks { #expect(settings[stream] == .bool(false), "\(stream)") }
            #expect(settings["voice_recording_max_time_length_seconds"] == .number(180))
            #expect(settings["consent_form_text"] == beiweSettings["consent_form_text"])
            // The Beiwe study's one switched-off survey is named; nothing else is lost.
            #expect(errors.contains("“Sleep (copy)” is switched off"))
            #expect(!errors.contains("left out"), "\(errors)")
        }
    }

    @Test("a study made in Momentary: each rule, question and setting Beiwe cannot express is listed on standard error")
    func leftOutListed() async throws {
        try await withDataDirectory { data in
            #expect(await runCommand(["studies", "create", "--slug", "base", "--name", "Made here", "--data", data.path]).code == 0)
            let plain = await runCommand(["studies", "export", "base", "--data", data.path])
            var study = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(plain.output.utf8)).objectValue)
            study["slug"] = .string("made-here")
            study["interventions"] = .array([.string("Baseline")])
            study["surveys"] = try JSONDecoder().decode(JSONValue.self, from: Data(#"""
                [{"name": "Mood", "kind": "esm", "position": 0, "active": true,
                  "document": {"survey_type": "tracking_survey", "settings": {}, "content": [
                    {"question_id": "mood", "question_type": "slider", "question_text": "Mood?", "min": 1, "max": 5},
                    {"question_id": "slept", "question_type": "yes_no", "question_text": "Did you sleep well?"}]},
                  "schedule": {"answer_window_minutes": 30, "rules": [
                    {"every_days": 3, "time": "19:00", "from": "registration"},
                    {"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"start": "2027-01-04", "end": "2027-03-31"}},
                    {"weekly": {"days": ["fri", "mon"], "time": "08:00"}},
                    {"relative": {"day": 2, "time": "10:00"}},
                    {"relative": {"to": "Baseline", "day": 7, "time": "09:00"}},
                    {"absolute": "2027-02-01T12:30"}]}},
                 {"name": "Voice", "kind": "esm", "position": 1, "active": true,
                  "document": {"survey_type": "audio_survey", "content": [
                    {"question_id": "talk", "question_type": "audio_recording", "question_text": "Tell us about your day."}]}},
                 {"name": "About you", "kind": "registration", "position": 2, "active": true,
                  "document": {"content": [{"question_id": "age", "question_type": "number", "question_text": "Your age?"}]}}]
                """#.utf8))
            let file = data.appendingPathComponent("made-here.json")
            try JSONEncoder().encode(JSONValue.object(study)).write(to: file)
            let imported = await runCommand(["studies", "import", file.path, "--data", data.path])
            #expect(imported.code == 0, "\(imported.errors)")

            let (export, errors) = try await exportBeiwe("made-here", data: data)
            let surveys = try #require(export["surveys"]?.arrayValue).compactMap(\.objectValue)
            #expect(surveys.map { $0["name"] } == [.string("Mood"), .string("Voice")])
            #expect(surveys.last?["content"] == .array([.object(["prompt": .string("Tell us about your day.")])]))
            let mood = try #require(surveys.first)
            #expect(mood["content"]?.arrayValue?.count == 1)
            let mondayAndFridayAtEight: [[Double]] = [[], [28800], [], [], [], [28800], []]
            #expect(mood["timings"] == .array(mondayAndFridayAtEight.map { .array($0.map(JSONValue.number)) }))
            #expect(mood["absolute_timings"] == .array([.array([.number(2027), .number(2), .number(1), .number(45000)])]))
            #expect(mood["relative_timings"] == .array([.array([.string("Baseline"), .number(7), .number(32400)])]))
            #expect(export["interventions"] == .array([.string("Baseline")]))

            let lines = errors.split(separator: "\n").map(String.init)
            func line(_ parts: String...) -> Bool { lines.contains { line in parts.allSatisfy(line.contains) } }
            #expect(line("“Mood”, rule 1 ", "every_days", "left out"))
            #expect(line("“Mood”, rule 2 ", "between", "no date range"))
            #expect(line("“Mood”, rule 4 ", "registration"))
            #expect(!line("“Mood”, rule 3 ") && !line("“Mood”, rule 5 ") && !line("“Mood”, rule 6 "))
            #expect(line("“Mood”", "“slept”", "yes_no"))
            #expect(line("“Mood”", "answer window (30 minutes)"))
            #expect(line("“About you” is the registration survey"))
            #expect(line("random beeps"))
            #expect(line("“Voice”: its recording has no length limit"))
        }
    }
}
