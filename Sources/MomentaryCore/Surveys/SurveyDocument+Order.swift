import Foundation

/// `randomize_groups`: lists of consecutive question ids that the app shows in random order
/// (`[["pa1", "pa2", "pa3"], ["na1", "na2"]]`), against order effects. The order a participant
/// saw travels with the response as `presented_order`.
///
/// Skip logic and piped texts are evaluated in survey order; that gives the same result in any
/// presented order only because no question may depend on another of its own group, which
/// `problems()` checks.
extension SurveyDocument {
    /// The groups that can be read (lists of strings); `problems()` reports the rest.
    public var randomizedGroups: [[String]] {
        (extraFields["randomize_groups"]?.arrayValue ?? []).compactMap { group in
            guard let items = group.arrayValue else { return nil }
            let ids = items.compactMap(\.stringValue)
            return ids.count == items.count ? ids : nil
        }
    }

    /// Why `order` is not this survey's order with, at most, each group shuffled in its places; nil when it is.
    public func presentedOrderIssue(_ order: [String]) -> String? {
        presentedOrderIssue(order, groups: randomizedGroups)
    }

    /// The same, with `randomizedGroups` read beforehand (ingest keeps them with the parsed version).
    public func presentedOrderIssue(_ order: [String], groups: [[String]]) -> String? {
        guard order.count == content.count, Set(order).count == order.count else {
            return "presented_order must list each of the survey’s \(content.count) questions once"
        }
        var groupOf: [String: Set<String>] = [:]
        for group in groups { for id in group where groupOf[id] == nil { groupOf[id] = Set(group) } }
        for (question, shown) in zip(content, order) {
            let allowed = groupOf[question.id] ?? [question.id]
            if !allowed.contains(shown) {
                return "presented_order has “\(shown)” where the survey has “\(question.id)”; only questions of one randomize_groups group may change places"
            }
        }
        return nil
    }

    /// What is wrong with `randomize_groups`, as whole sentences.
    func orderProblems() -> [String] {
        guard let value = extraFields["randomize_groups"] else { return [] }
        guard let groups = value.arrayValue else {
            return ["The survey’s “randomize_groups” must be a list of lists of question ids, found \(SurveyMessages.describe(value))."]
        }
        var problems: [String] = []
        var grouped: Set<String> = []
        for (index, group) in groups.enumerated() {
            let name = "randomize_groups group \(index + 1)"
            guard let items = group.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                problems.append("The survey’s \(name) must be a list of question ids, found \(SurveyMessages.describe(group)).")
                continue
            }
            let ids = items.compactMap(\.stringValue)
            problems += groupIssues(ids, grouped: &grouped).map { "The survey’s \(name): \($0)." }
        }
        return problems
    }

    private func groupIssues(_ ids: [String], grouped: inout Set<String>) -> [String] {
        if ids.count < 2 { return ["it needs at least two questions to shuffle"] }
        var issues: [String] = []
        var positions: [Int] = []
        for id in ids {
            guard let position = content.firstIndex(where: { $0.id == id }) else {
                issues.append("“\(id)” is not a question of this survey")
                continue
            }
            if !grouped.insert(id).inserted { issues.append("“\(id)” is listed twice (in this group or an earlier one)") }
            positions.append(position)
        }
        guard issues.isEmpty else { return issues }
        let sorted = positions.sorted()
        if sorted.last! - sorted.first! != sorted.count - 1 {
            issues.append("its questions are not next to each other in the survey; a group shuffles one run of consecutive questions")
        }
        let members = Set(ids)
        for position in sorted {
            let question = content[position]
            let dependsOn = dependencies(of: question).filter { $0 != question.id && members.contains($0) }
            if let other = dependsOn.first {
                issues.append("“\(question.id)” depends on “\(other)” (display_if or a piped text), which is in the same group "
                    + "and may be shown after it")
            }
        }
        return issues
    }

    /// The questions whose answers `question` uses: in `display_if` and in piped texts, through scores too.
    func dependencies(of question: SurveyQuestion) -> [String] {
        var names = question.displayIf?.referencedQuestionIDs ?? []
        for case (_, .placeholder(let placeholder, _)) in question.pipedPlaceholders where placeholder.source != .variable {
            names.append(placeholder.name)
        }
        return names.flatMap { name in score(withID: name)?.items ?? [name] }
    }
}
