/// What a study's set of surveys must be, wherever surveys are added: the website's "Add a
/// survey" and `studies import` both ask here. Names tell surveys apart in the editor and in
/// exports, and registration asks the one registration survey.
enum SurveySetRules {
    static let nameLength = 1...100

    /// A survey that cannot be added, with the one sentence that says why.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Why a survey called `name` of `kind` cannot join surveys already in the study, or nil.
    static func problem(adding name: String, kind: Survey.Kind, to existing: [(name: String, kind: Survey.Kind)]) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !nameLength.contains(trimmed.count) {
            return "A survey needs a name of \(nameLength.lowerBound) to \(nameLength.upperBound) characters."
        }
        if existing.contains(where: { $0.name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == trimmed.lowercased() }) {
            return "This study already has a survey called “\(trimmed)”."
        }
        if kind == .registration, existing.contains(where: { $0.kind == .registration }) {
            return "This study already has a registration survey; edit that one."
        }
        return nil
    }

    /// The problems of a whole set, each survey judged against those before it.
    static func problems(_ surveys: [(name: String, kind: Survey.Kind)]) -> [String] {
        surveys.indices.compactMap { index in
            problem(adding: surveys[index].name, kind: surveys[index].kind, to: Array(surveys[..<index]))
        }
    }
}
