import Foundation

extension StudyArms {
    /// What validation needs to know of one of the study's surveys.
    public struct SurveyFacts: Sendable {
        public let name: String
        /// An active beep (ESM) survey.
        public let isBeepSurvey: Bool
        public let hasFixedSchedule: Bool

        public init(name: String, isBeepSurvey: Bool, hasFixedSchedule: Bool) {
            self.name = name
            self.isBeepSurvey = isBeepSurvey
            self.hasFixedSchedule = hasFixedSchedule
        }
    }

    public static let maximumWeight = 100
    public static let maximumBlockSize = 1_000
    public static let maximumNameLength = 40

    /// Every reason the arms cannot be used, each one sentence: the one rule the study document
    /// (import, export, the research API), the website's Arms page and the study's readiness apply.
    public func problems(surveys: [SurveyFacts], registrationQuestionIDs: [String], languages: [String]) -> [String] {
        var problems: [String] = []
        if arms.count < 2 { problems.append("arms: list at least two arms, or leave arms out for a study without them") }
        var seen: Set<String> = []
        let beepSurveys = Set(surveys.filter(\.isBeepSurvey).map(\.name))
        let scheduled = Set(surveys.filter { $0.isBeepSurvey && $0.hasFixedSchedule }.map(\.name))
        for (index, arm) in arms.enumerated() {
            let label = "arms[\(index)]"
            let name = arm.name.trimmingCharacters(in: .whitespaces)
            if name.isEmpty || name != arm.name || name.count > Self.maximumNameLength {
                problems.append("\(label).name must be 1 to \(Self.maximumNameLength) characters without leading or trailing spaces")
            } else if !seen.insert(name.lowercased()).inserted {
                problems.append("\(label).name “\(name)” is used by another arm")
            }
            if !(1...Self.maximumWeight).contains(arm.weight) {
                problems.append("\(label).weight must be a whole number from 1 to \(Self.maximumWeight), not \(arm.weight)")
            }
            if let names = arm.surveys {
                if names.isEmpty { problems.append("\(label).surveys must name at least one beep survey; leave it out for all") }
                for survey in names where !beepSurveys.contains(survey) {
                    problems.append("\(label).surveys: “\(survey)” is not an active beep survey of the study")
                }
            }
            for survey in arm.fixedSchedules ?? [] {
                if !scheduled.contains(survey) {
                    problems.append("\(label).fixed_schedules: “\(survey)” is not an active beep survey with a fixed schedule")
                } else if !arm.includesSurvey(survey) {
                    problems.append("\(label).fixed_schedules: “\(survey)” is not one of the arm's surveys")
                }
            }
            if let text = arm.alertText {
                let field = "\(label).alert_text"
                if text.text.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("\(field) must not be empty; leave it out for the study's") }
                problems += TextLimits.problems(text, limit: TextLimits.alertText, label: field)
                problems += text.malformedTags.map { "\(field): “\($0)” is not a language tag" }
                problems += StudyLanguages.problems(of: text, label: field, languages: languages)
            }
        }
        problems += allocationProblems(registrationQuestionIDs: registrationQuestionIDs)
        return problems
    }

    private func allocationProblems(registrationQuestionIDs: [String]) -> [String] {
        var problems: [String] = []
        let totalWeight = arms.map { max($0.weight, 0) }.reduce(0, +)
        switch allocation.method {
        case .simple:
            if allocation.blockSize != nil { problems.append("allocation.block_size applies only to the blocked method") }
            if allocation.stratifyBy != nil { problems.append("allocation.stratify_by applies only to the blocked method") }
        case .blocked:
            if let size = allocation.blockSize {
                if !(1...Self.maximumBlockSize).contains(size) || totalWeight < 1 || size % totalWeight != 0 {
                    problems.append("allocation.block_size must be a multiple of the arms' total weight (\(totalWeight)) "
                        + "up to \(Self.maximumBlockSize), so that every block holds each arm exactly in proportion to its weight; \(size) is not")
                }
            } else {
                problems.append("allocation.block_size is needed for the blocked method (a multiple of the arms' total weight, \(totalWeight))")
            }
        }
        if let question = allocation.stratifyBy, !registrationQuestionIDs.contains(question) {
            problems.append("allocation.stratify_by: “\(question)” is not a question of the registration survey")
        }
        return problems
    }
}
