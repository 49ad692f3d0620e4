import Foundation

extension SurveyDocument {
    /// A random, valid set of answers, as a participant might send them: questions hidden by
    /// skip logic and info text boxes are left out, optional questions are skipped (sent as
    /// `null`) with probability `skipProbability`, everything else gets an answer within its
    /// range and options. Used by the command-line participant's `--random`.
    ///
    /// The survey should have no `problems()`; a question that cannot be answered (a choice
    /// without options, say) is sent as skipped.
    public func randomAnswers<Generator: RandomNumberGenerator>(
        using generator: inout Generator, skipProbability: Double = 0.1
    ) -> [SubmittedAnswer] {
        var given: [String: JSONValue] = [:]
        var answers: [SubmittedAnswer] = []
        for question in content where question.type != .infoTextBox {
            guard isDisplayed(question, given: given) else { continue }
            let skips = !question.required && Double.random(in: 0..<1, using: &generator) < skipProbability
            let answer = skips ? nil : question.kind.randomAnswer(using: &generator)
            if let answer { given[question.id] = answer }
            answers.append(SubmittedAnswer(questionID: question.id, answer: answer))
        }
        return answers
    }
}

extension QuestionKind {
    private static let words = ["coffee", "sunshine", "a good book", "the news", "lunch", "music", "rain", "friends"]

    /// A random valid answer in canonical shape; nil when this kind takes none or cannot have one.
    func randomAnswer<Generator: RandomNumberGenerator>(using generator: inout Generator) -> JSONValue? {
        switch self {
        case .infoTextBox:
            return nil
        case .slider(let scale):
            return Self.randomOnGrid(low: scale.min, high: scale.max, origin: scale.min, step: scale.step, using: &generator)
        case .number(let range):
            let low = range.min ?? (range.max.map { $0 - 100 } ?? 0)
            let high = range.max ?? low + 100
            return Self.randomOnGrid(low: low, high: high, origin: range.min ?? 0, step: range.step ?? 1, using: &generator)
        case .freeResponse(.numeric):
            return .number(Double(Int.random(in: 0...100, using: &generator)))
        case .freeResponse(let fieldType):
            let first = Self.words.randomElement(using: &generator) ?? "fine"
            let second = Self.words.randomElement(using: &generator) ?? "fine"
            return .string(fieldType == .multiLineText ? "Thinking of \(first).\nAnd \(second)." : "Thinking of \(first)")
        case .yesNo:
            return .bool(Bool.random(using: &generator))
        case .radioButton(let options):
            return options.randomElement(using: &generator).map { .string($0.key) }
        case .checkbox(let options), .people(let options):
            let chosen = Self.randomSubset(of: options.map(\.key), maxCount: options.count, using: &generator)
            return chosen.isEmpty ? nil : .array(chosen.map(JSONValue.string))
        case .tokens(let list):
            return Self.randomTokens(list, using: &generator)
        case .location:
            var place: [String: JSONValue] = [
                "latitude": .number(Double.random(in: -60...70, using: &generator)),
                "longitude": .number(Double.random(in: -180...180, using: &generator)),
            ]
            if Bool.random(using: &generator) {
                place["place"] = .string("Near \(Self.words.randomElement(using: &generator) ?? "home")")
            }
            return .object(place)
        case .date:
            return .string(Self.randomDate(using: &generator))
        case .time:
            return .string(Self.randomTime(using: &generator))
        case .dateTime:
            return .string("\(Self.randomDate(using: &generator))T\(Self.randomTime(using: &generator))")
        case .photo:
            return .string("photo-\(UInt64.random(in: 0...UInt64.max, using: &generator))")
        case .audioRecording:
            return .string("audio-\(UInt64.random(in: 0...UInt64.max, using: &generator))")
        case .soundLevel:
            return .number((Double.random(in: -60 ... -5, using: &generator) * 10).rounded() / 10)
        }
    }

    /// A value `origin + k·step` within `low...high`, or nil when there is none.
    private static func randomOnGrid<Generator: RandomNumberGenerator>(
        low: Double, high: Double, origin: Double, step: Double, using generator: inout Generator
    ) -> JSONValue? {
        guard step > 0, low <= high else { return nil }
        let first = ((low - origin) / step - 1e-9).rounded(.up)
        let last = ((high - origin) / step + 1e-9).rounded(.down)
        guard first <= last, last - first < 1e12 else { return nil }
        let k = first + Double(Int.random(in: 0...Int(last - first), using: &generator))
        return .number(Swift.min(Swift.max(origin + k * step, low), high))
    }

    /// A non-empty random subset of `items` (at most `maxCount`), in their original order.
    private static func randomSubset<Generator: RandomNumberGenerator>(
        of items: [String], maxCount: Int, using generator: inout Generator
    ) -> [String] {
        guard !items.isEmpty, maxCount > 0 else { return [] }
        let count = Int.random(in: 1...Swift.min(items.count, maxCount), using: &generator)
        let chosen = Set(items.shuffled(using: &generator).prefix(count))
        return items.filter(chosen.contains)
    }

    private static func randomTokens<Generator: RandomNumberGenerator>(
        _ list: TokenList, using generator: inout Generator
    ) -> JSONValue? {
        let limit = Swift.min(list.maxCount ?? 3, 3)
        var tokens = randomSubset(of: list.suggestions, maxCount: limit, using: &generator)
        let wantsFreeEntry = list.suggestions.isEmpty || Int.random(in: 0..<4, using: &generator) == 0
        if list.allowsFreeEntry, wantsFreeEntry, tokens.count < limit {
            let word = "\(words.randomElement(using: &generator) ?? "resting") \(Int.random(in: 1...99, using: &generator))"
            if !tokens.contains(word) { tokens.append(word) }
        }
        return tokens.isEmpty ? nil : .array(tokens.map(JSONValue.string))
    }

    private static func randomDate<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        let year = Int.random(in: 2020...2030, using: &generator)
        let month = Int.random(in: 1...12, using: &generator)
        let day = Int.random(in: 1...LocalDateTimeText.daysIn(month: month, year: year), using: &generator)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))"
    }

    private static func randomTime<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        "\(twoDigits(Int.random(in: 0...23, using: &generator))):\(twoDigits(Int.random(in: 0...59, using: &generator)))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
