import Foundation
@testable import MomentaryCore

/// Survey test data shared by the survey suites.
enum SurveyFixtures {
    /// One question of every kind, with every optional parameter set somewhere.
    static let allKinds = SurveyDocument(
        content: [
            SurveyQuestion(id: "intro", text: "Thanks for taking part.", kind: .infoTextBox),
            SurveyQuestion(
                id: "mood", text: "How do you feel?",
                kind: .slider(SliderScale(min: 0, max: 10, step: 0.5, minLabel: "Bad", maxLabel: "Good")),
                required: true),
            SurveyQuestion(
                id: "energy", text: "Energy?",
                kind: .slider(SliderScale(min: 1, max: 5, labels: ["Low", "Mid", "High"]))),
            SurveyQuestion(
                id: "where", text: "Where are you?",
                kind: .radioButton([ChoiceOption("Home", value: "home"), ChoiceOption("Work"), ChoiceOption("Elsewhere")])),
            SurveyQuestion(
                id: "food", text: "What did you eat?",
                kind: .checkbox([ChoiceOption("Bread"), ChoiceOption("Soup"), ChoiceOption("Cake")]),
                displayIf: .compare(questionID: "where", .equal, 0)),
            SurveyQuestion(id: "coffees", text: "Coffees today?", kind: .freeResponse(.numeric)),
            SurveyQuestion(id: "thought", text: "What are you thinking about?", kind: .freeResponse(.singleLineText)),
            SurveyQuestion(id: "story", text: "Tell us more.", kind: .freeResponse(.multiLineText)),
            SurveyQuestion(id: "birthday", text: "Birthday?", kind: .date),
            SurveyQuestion(id: "woke", text: "When did you wake?", kind: .time),
            SurveyQuestion(id: "last_meal", text: "Last meal?", kind: .dateTime),
            SurveyQuestion(id: "working", text: "Are you working?", kind: .yesNo),
            SurveyQuestion(
                id: "steps", text: "Steps?", kind: .number(NumberRange(min: 0, max: 100_000, step: 10)),
                displayIf: .or([.compare(questionID: "working", .equal, 1), .compare(questionID: "mood", .greaterThan, 5)])),
            SurveyQuestion(id: "temperature", text: "Room temperature?", kind: .number(NumberRange())),
            SurveyQuestion(
                id: "doing", text: "What are you doing?",
                kind: .tokens(TokenList(suggestions: ["Talking", "Drinking", "Reading"], allowsFreeEntry: true, maxCount: 2))),
            SurveyQuestion(
                id: "chore", text: "Which chore?",
                kind: .tokens(TokenList(suggestions: ["Dishes", "Laundry"], allowsFreeEntry: false))),
            SurveyQuestion(
                id: "people", text: "Who are you with?",
                kind: .people([ChoiceOption("Megan"), ChoiceOption("Chris"), ChoiceOption("Josh")]),
                displayIf: .not(.compare(questionID: "where", .equal, 1))),
            SurveyQuestion(id: "place", text: "Where exactly?", kind: .location),
            SurveyQuestion(id: "snapshot", text: "Take a photo.", kind: .photo),
            SurveyQuestion(id: "noise", text: "Measuring sound…", kind: .soundLevel),
            SurveyQuestion(id: "voice", text: "Say something.", kind: .audioRecording(maxDurationSeconds: 30)),
            SurveyQuestion(id: "voice_free", text: "Say more.", kind: .audioRecording(maxDurationSeconds: nil)),
        ],
        settings: ["randomize": .bool(false), "custom": .object(["a": .array([.number(1), .string("x")])])],
        surveyType: .trackingSurvey,
        timings: SurveyTimings(secondsByWeekday: [[], [32_400], [], [32_400, 61_200], [], [], [36_000]]))

    /// A survey from a JSON literal, failing the test loudly when it cannot be read.
    static func survey(_ json: String) throws -> SurveyDocument {
        try SurveyDocument(jsonData: Data(json.utf8))
    }

    /// A one-question survey around `question`, preceded by `earlier` questions.
    static func survey(with question: SurveyQuestion, after earlier: [SurveyQuestion] = []) -> SurveyDocument {
        SurveyDocument(content: earlier + [question])
    }
}

/// A small seeded generator (SplitMix64), so random tests are repeatable.
struct SurveyTestGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
