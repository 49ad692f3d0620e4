import Foundation
import MomentaryCore

/// The passive streams a study expects from participants' phones (Beiwe's `device_settings`
/// switches). Only streams Momentary records can be named; survey streams are not passive data.
enum ExpectedStreams {
    /// The streams a study may name, in the order they are listed.
    static let choices: [PassiveStream] = PassiveStream.allCases.filter { ![.surveyAnswers, .surveyTimings].contains($0) }

    /// What is wrong with a list of names, one message each (study import and the website).
    static func problems(_ names: [String]) -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for name in names {
            if PassiveStream(rawValue: name).map(choices.contains) != true {
                problems.append("“\(name)” is not a passive stream Momentary records (it records \(choices.map(\.rawValue).joined(separator: ", ")))")
            } else if !seen.insert(name).inserted {
                problems.append("the stream “\(name)” is listed twice")
            }
        }
        return problems
    }
}

extension Study {
    /// The streams the study expects, in the order of `ExpectedStreams.choices`.
    var expectedStreams: [PassiveStream] {
        get {
            guard let text = expectedStreamsJSON,
                  let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
            return ExpectedStreams.choices.filter { names.contains($0.rawValue) }
        }
        set {
            let names = ExpectedStreams.choices.filter(newValue.contains).map(\.rawValue)
            expectedStreamsJSON = names.isEmpty ? nil : String(decoding: (try? JSONEncoder().encode(names)) ?? Data(), as: UTF8.self)
        }
    }
}
