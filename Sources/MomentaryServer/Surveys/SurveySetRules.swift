import MomentaryCore

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

    /// One survey of a set as its follow-up rules see it.
    struct Member {
        let name: String
        let kind: Survey.Kind
        let active: Bool
        let document: SurveyDocument
    }

    /// Follow-up rules (`follow_ups`) of the set's active surveys that name no active beep survey
    /// of the set, or their own survey (a loop), and rules on the registration survey, whose
    /// answers plan nothing. Names are matched exactly, as the writer that
    /// plans follow-ups finds the survey (`FollowUpPlanning`).
    static func followUpProblems(_ surveys: [Member]) -> [String] {
        let beepSurveys = Set(surveys.filter { $0.kind == .esm && $0.active }.map(\.name))
        var problems: [String] = []
        for survey in surveys where survey.active {
            for (index, rule) in survey.document.followUpRules.enumerated() {
                guard let rule else { continue }  // the survey's own problems say why
                let label = "Survey “\(survey.name)”, follow-up \(index + 1)"
                if survey.kind == .registration {
                    problems.append("\(label): follow-ups are planned from the answers of beep surveys only, not of the registration survey.")
                } else if rule.survey == survey.name {
                    problems.append("\(label): it names its own survey; a survey cannot follow itself up.")
                } else if !beepSurveys.contains(rule.survey) {
                    let known = beepSurveys.sorted().map { "“\($0)”" }.joined(separator: ", ")
                    problems.append("\(label): there is no active beep survey called “\(rule.survey)” in this study (its beep surveys: \(known)).")
                }
            }
        }
        return problems
    }

    /// The study's participant variables (`ParticipantVariables.problems`, against the active
    /// registration survey), and variables the active surveys name that the study does not keep.
    static func variableProblems(_ surveys: [Member], definitions: [ParticipantVariableDefinition]) -> [String] {
        let registration = surveys.first { $0.kind == .registration && $0.active }?.document
        var problems = ParticipantVariables.problems(definitions, registration: registration)
        let kept = Set(definitions.map(\.id))
        for survey in surveys where survey.active {
            for name in survey.document.variableNames.sorted() where !kept.contains(name) {
                problems.append("Survey “\(survey.name)” uses the participant variable “\(name)”, which the study does not keep; "
                    + "add it under Participant variables.")
            }
        }
        return problems
    }

    /// The problems of a whole set, each survey judged against those before it.
    static func problems(_ surveys: [(name: String, kind: Survey.Kind)]) -> [String] {
        surveys.indices.compactMap { index in
            problem(adding: surveys[index].name, kind: surveys[index].kind, to: Array(surveys[..<index]))
        }
    }
}
