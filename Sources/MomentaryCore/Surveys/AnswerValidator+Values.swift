import Foundation

extension AnswerValidator {
    /// The answer in its canonical shape, or why it does not fit the question.
    /// Choice answers come back in option order.
    static func canonicalAnswer(_ value: JSONValue, for question: SurveyQuestion) throws(AnswerValidationError) -> JSONValue {
        let check = AnswerCheck(question: question, value: value)
        switch question.kind {
        case .infoTextBox:
            throw check.failure(.notPresented, "is an info text box, which takes no answer")
        case .slider(let scale):
            return .number(try check.number(min: scale.min, max: scale.max, step: scale.step, origin: scale.min))
        case .number(let range):
            return .number(try check.number(
                min: range.min, max: range.max, step: range.step, origin: range.min ?? 0))
        case .soundLevel, .freeResponse(.numeric):
            return .number(try check.number(min: nil, max: nil, step: nil, origin: 0))
        case .freeResponse(let fieldType):
            return .string(try check.text(singleLine: fieldType == .singleLineText))
        case .yesNo:
            guard let flag = value.boolValue else { throw check.wrongType("true (yes) or false (no)") }
            return .bool(flag)
        case .radioButton(let options):
            return .string(try check.choice(from: options))
        case .checkbox(let options), .people(let options):
            return .array(try check.choices(from: options).map(JSONValue.string))
        case .tokens(let list):
            return .array(try check.tokens(list).map(JSONValue.string))
        case .location:
            return try check.location()
        case .date, .time, .dateTime:
            return .string(try check.dateOrTime(question.type))
        case .photo, .audioRecording:
            return .string(try check.reference())
        }
    }
}

/// The checks of one answer against one question, with messages that name the question.
private struct AnswerCheck {
    let question: SurveyQuestion
    let value: JSONValue

    func failure(_ reason: AnswerValidationError.Reason, _ problem: String) -> AnswerValidationError {
        AnswerValidationError(questionID: question.id, reason: reason, message: "Question “\(question.id)” \(problem).")
    }

    func wrongType(_ expected: String) -> AnswerValidationError {
        failure(.wrongType, "expects \(expected), but the answer is \(SurveyMessages.describe(value))")
    }

    func number(min: Double?, max: Double?, step: Double?, origin: Double) throws(AnswerValidationError) -> Double {
        guard let number = value.numberValue else { throw wrongType("a number") }
        let given = SurveyMessages.number(number)
        if let min, number < min {
            throw failure(.outOfRange, "allows no less than \(SurveyMessages.number(min)), but the answer is \(given)")
        }
        if let max, number > max {
            throw failure(.outOfRange, "allows no more than \(SurveyMessages.number(max)), but the answer is \(given)")
        }
        if let step, step > 0, !QuestionKind.isWholeMultiple(number - origin, of: step) {
            throw failure(.outOfRange, "moves in steps of \(SurveyMessages.number(step)) from \(SurveyMessages.number(origin)), "
                + "but the answer is \(SurveyMessages.number(number))")
        }
        return number
    }

    func text(singleLine: Bool) throws(AnswerValidationError) -> String {
        guard let text = value.stringValue else { throw wrongType("text") }
        if text.count > AnswerValidator.maxTextLength {
            throw failure(
                .tooLong, "allows at most \(AnswerValidator.maxTextLength) characters, but the answer has \(text.count)")
        }
        if singleLine && text.contains(where: \.isNewline) {
            throw failure(.wrongType, "expects a single line of text, but the answer has a line break")
        }
        return text
    }

    func choice(from options: [ChoiceOption]) throws(AnswerValidationError) -> String {
        guard let key = value.stringValue else { throw wrongType("one option as a string") }
        guard options.contains(where: { $0.key == key }) else { throw unknownOption(key, options) }
        return key
    }

    func choices(from options: [ChoiceOption]) throws(AnswerValidationError) -> [String] {
        let keys = try strings(expected: "a list of options as strings")
        for key in keys where !options.contains(where: { $0.key == key }) {
            throw unknownOption(key, options)
        }
        try requireDistinct(keys)
        return options.map(\.key).filter(keys.contains)
    }

    func tokens(_ list: TokenList) throws(AnswerValidationError) -> [String] {
        let tokens = try strings(expected: "a list of tokens as strings")
        if let maxCount = list.maxCount, tokens.count > maxCount {
            throw failure(.tooManyTokens, "allows at most \(maxCount) tokens, but the answer has \(tokens.count)")
        }
        for token in tokens {
            if token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw failure(.wrongType, "does not accept an empty token")
            }
            if token.count > AnswerValidator.maxTokenLength {
                throw failure(.tooLong, "allows tokens of at most \(AnswerValidator.maxTokenLength) characters")
            }
            if !list.allowsFreeEntry && !list.suggestions.contains(token) {
                throw failure(.unknownOption, "accepts only its suggested tokens, and “\(token)” is not one of them")
            }
        }
        try requireDistinct(tokens)
        return tokens
    }

    func location() throws(AnswerValidationError) -> JSONValue {
        let expected = "a location {\"latitude\": …, \"longitude\": …, \"place\": …}"
        guard let object = value.objectValue else { throw wrongType(expected) }
        if let unexpected = object.keys.sorted().first(where: { !["latitude", "longitude", "place"].contains($0) }) {
            throw failure(.wrongType, "expects \(expected), but the answer has an unexpected field “\(unexpected)”")
        }
        guard let latitude = object["latitude"]?.numberValue, let longitude = object["longitude"]?.numberValue else {
            throw failure(.wrongType, "expects \(expected) with numeric latitude and longitude")
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw failure(.outOfRange, "expects latitude within ±90 and longitude within ±180, "
                + "but the answer is \(SurveyMessages.number(latitude)), \(SurveyMessages.number(longitude))")
        }
        var result: [String: JSONValue] = ["latitude": .number(latitude), "longitude": .number(longitude)]
        switch object["place"] {
        case nil, .null: break
        case .string(let place) where place.count > AnswerValidator.maxTextLength:
            throw failure(.tooLong, "allows a place text of at most \(AnswerValidator.maxTextLength) characters")
        case .string(let place): result["place"] = .string(place)
        case let other?: throw failure(.wrongType, "expects the place as text, but it is \(SurveyMessages.describe(other))")
        }
        return .object(result)
    }

    func dateOrTime(_ type: QuestionType) throws(AnswerValidationError) -> String {
        let (format, isValid): (String, (String) -> Bool) = switch type {
        case .date: ("a date YYYY-MM-DD", LocalDateTimeText.isDate)
        case .time: ("a time HH:MM", LocalDateTimeText.isTime)
        default: ("a local date and time YYYY-MM-DDTHH:MM", LocalDateTimeText.isDateTime)
        }
        guard let text = value.stringValue else { throw wrongType(format) }
        guard isValid(text) else {
            throw failure(.malformedDate, "expects \(format), but the answer is “\(text.prefix(40))”")
        }
        return text
    }

    func reference() throws(AnswerValidationError) -> String {
        guard let text = value.stringValue else { throw wrongType("the reference of an uploaded file, as a string") }
        if text.count > AnswerValidator.maxReferenceLength {
            throw failure(.tooLong, "allows a file reference of at most \(AnswerValidator.maxReferenceLength) characters")
        }
        return text
    }

    private func strings(expected: String) throws(AnswerValidationError) -> [String] {
        guard let items = value.arrayValue else { throw wrongType(expected) }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                throw failure(.wrongType, "expects \(expected), but item \(index + 1) is \(SurveyMessages.describe(item))")
            }
            strings.append(text)
        }
        return strings
    }

    private func requireDistinct(_ items: [String]) throws(AnswerValidationError) {
        var seen: Set<String> = []
        for item in items where !seen.insert(item).inserted {
            throw failure(.duplicateChoice, "has “\(item)” chosen more than once")
        }
    }

    private func unknownOption(_ key: String, _ options: [ChoiceOption]) -> AnswerValidationError {
        let list = options.map { "“\($0.key)”" }.joined(separator: ", ")
        return failure(.unknownOption, "has no option “\(key.prefix(80))” (options: \(list))")
    }
}
