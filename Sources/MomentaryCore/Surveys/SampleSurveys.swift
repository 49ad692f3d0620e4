import Foundation

/// Ready-made surveys that the server's `--demo` seeds: a short registration survey and an
/// experience-sampling survey in the spirit of Mappiness (feelings first, then company, place
/// and activity; nothing hints at what a study might be looking for).
public enum SampleSurveys {
    /// Answered once at sign-up: age band, gender, country, employment.
    public static let registration = SurveyDocument(content: [
        SurveyQuestion(
            id: "age_band", text: "How old are you?",
            kind: .radioButton(options(
                ("18 to 24", "18-24"), ("25 to 34", "25-34"), ("35 to 44", "35-44"),
                ("45 to 54", "45-54"), ("55 to 64", "55-64"), ("65 or over", "65+"))),
            required: true),
        SurveyQuestion(
            id: "gender", text: "What is your gender?",
            kind: .radioButton(options(
                ("Female", "female"), ("Male", "male"), ("Another gender", "other"),
                ("Prefer not to say", "not_stated")))),
        SurveyQuestion(id: "country", text: "Which country do you live in?", kind: .freeResponse(.singleLineText)),
        SurveyQuestion(
            id: "employment", text: "Which best describes what you do?",
            kind: .radioButton(options(
                ("Employed full-time", "full_time"), ("Employed part-time", "part_time"),
                ("Self-employed", "self_employed"), ("In education", "education"),
                ("Looking for work", "unemployed"), ("Retired", "retired"),
                ("Looking after home or family", "home"), ("Something else", "other")))),
    ])

    /// Answered at each beep. Feelings come first; "in a vehicle?" is asked only away from home,
    /// which exercises skip logic (`where` is option 0 when at home).
    public static let experienceSampling = SurveyDocument(content: [
        feeling(id: "happy", "Do you feel happy?"),
        feeling(id: "relaxed", "Do you feel relaxed?"),
        feeling(id: "awake", "Do you feel awake?"),
        SurveyQuestion(
            id: "with_whom", text: "Who are you with? (choose all that apply)",
            kind: .checkbox(options(
                ("Nobody, I’m alone", "alone"), ("My partner", "partner"), ("Family", "family"),
                ("Friends", "friends"), ("Colleagues or classmates", "colleagues"),
                ("Clients or customers", "clients"), ("Other people", "others")))),
        SurveyQuestion(
            id: "where", text: "Where are you?",
            kind: .radioButton(options(("At home", "home"), ("At work", "work"), ("Elsewhere", "elsewhere")))),
        SurveyQuestion(
            id: "setting", text: "Are you indoors or outdoors?",
            kind: .radioButton(options(("Indoors", "indoors"), ("Outdoors", "outdoors")))),
        SurveyQuestion(
            id: "in_vehicle", text: "Are you in a vehicle (car, bus, train, …)?", kind: .yesNo,
            displayIf: .compare(questionID: "where", .notEqual, 0)),
        SurveyQuestion(
            id: "doing", text: "What are you doing? (choose all that apply)",
            kind: .checkbox(options(
                ("Working or studying", "working"), ("Travelling or commuting", "travelling"),
                ("Eating or drinking", "eating"), ("Cooking, cleaning or chores", "chores"),
                ("Shopping or errands", "shopping"), ("Resting or relaxing", "resting"),
                ("Talking or socialising", "socialising"), ("Exercise or sport", "exercising"),
                ("Reading, TV, music or games", "media"), ("Caring for someone", "caring"),
                ("Something else", "other")))),
        SurveyQuestion(
            id: "anything_else", text: "Anything else you’d like to tell us?", kind: .freeResponse(.multiLineText)),
    ])

    private static func feeling(id: String, _ text: String) -> SurveyQuestion {
        SurveyQuestion(
            id: id, text: LocalizedText(text),
            kind: .slider(SliderScale(min: 0, max: 100, step: 1, minLabel: "Not at all", maxLabel: "Extremely")),
            required: true)
    }

    private static func options(_ pairs: (text: String, value: String)...) -> [ChoiceOption] {
        pairs.map { ChoiceOption(LocalizedText($0.text), value: $0.value) }
    }
}
