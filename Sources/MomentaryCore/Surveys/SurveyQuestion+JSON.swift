import Foundation

extension SurveyQuestion {
    /// Reads a question from its JSON object. `position` counts from 0 and only names the
    /// question in error messages. Unknown fields are kept in `extraFields`.
    public init(json object: [String: JSONValue], position: Int) throws(SurveyFormatError) {
        let givenID = object["question_id"]?.stringValue
        let context = SurveyMessages.capitalizingFirst(Self.label(position: position, id: givenID))
        var reader = JSONObjectReader(object, context: context)
        let id = try reader.string("question_id") ?? ""
        let text = try reader.localizedText("question_text") ?? ""
        guard let typeName = try reader.string("question_type") else {
            throw SurveyFormatError("\(reader.context): “question_type” is missing.")
        }
        guard let type = QuestionType(rawValue: typeName) else {
            let known = QuestionType.allCases.map(\.rawValue).joined(separator: ", ")
            throw SurveyFormatError("\(reader.context): unknown question_type “\(typeName)” (known: \(known)).")
        }
        let kind = try Self.readKind(type, from: &reader)
        let displayIf = reader.value("display_if").map(DisplayCondition.init(json:))
        let required = try reader.bool("required") ?? false
        self.init(
            id: id, text: text, kind: kind, displayIf: displayIf, required: required,
            extraFields: reader.unreadFields)
        asRead = KeptJSON(object)
    }

    /// The question as it is stored and exported: the object it was read from while it is
    /// unchanged (a round trip gives the same JSON value), else `jsonObject`.
    public var keptJSONObject: [String: JSONValue] {
        asRead.unchanged(self) { try SurveyQuestion(json: $0, position: 0) } ?? jsonObject
    }

    /// The question as a JSON object in the Beiwe shape, with any extra fields it was read with.
    public var jsonObject: [String: JSONValue] {
        var object = extraFields
        object["question_id"] = .string(id)
        object["question_type"] = .string(type.rawValue)
        object["question_text"] = text.json
        if let displayIf { object["display_if"] = displayIf.json }
        if required { object["required"] = .bool(true) }
        for (key, value) in Self.parameterFields(of: kind) {
            object[key] = value
        }
        return object
    }

    private static func readKind(
        _ type: QuestionType, from reader: inout JSONObjectReader
    ) throws(SurveyFormatError) -> QuestionKind {
        switch type {
        case .infoTextBox: return .infoTextBox
        case .date: return .date
        case .time: return .time
        case .dateTime: return .dateTime
        case .yesNo: return .yesNo
        case .location: return .location
        case .photo: return .photo
        case .soundLevel: return .soundLevel
        case .slider:
            guard let min = try reader.number("min"), let max = try reader.number("max") else {
                throw SurveyFormatError("\(reader.context): a slider needs both “min” and “max”.")
            }
            return .slider(SliderScale(
                min: min, max: max, step: try reader.number("step") ?? 1,
                minLabel: try reader.localizedText("min_label"), maxLabel: try reader.localizedText("max_label"),
                labels: try reader.localizedTextArray("labels")))
        case .radioButton: return .radioButton(try readOptions(from: &reader))
        case .checkbox: return .checkbox(try readOptions(from: &reader))
        case .people: return .people(try readOptions(from: &reader))
        case .freeResponse:
            let name = try reader.string("text_field_type") ?? TextFieldType.singleLineText.rawValue
            guard let fieldType = TextFieldType(rawValue: name) else {
                let known = TextFieldType.allCases.map(\.rawValue).joined(separator: ", ")
                throw SurveyFormatError("\(reader.context): unknown text_field_type “\(name)” (known: \(known)).")
            }
            return .freeResponse(fieldType)
        case .number:
            return .number(NumberRange(
                min: try reader.number("min"), max: try reader.number("max"), step: try reader.number("step")))
        case .tokens:
            return .tokens(TokenList(
                suggestions: try reader.stringArray("suggested_tokens") ?? [],
                allowsFreeEntry: try reader.bool("allows_free_entry") ?? true,
                maxCount: try reader.integer("max_count")))
        case .audioRecording:
            return .audioRecording(maxDurationSeconds: try reader.number("max_duration_seconds"))
        }
    }

    private static func readOptions(from reader: inout JSONObjectReader) throws(SurveyFormatError) -> [ChoiceOption] {
        let context = reader.context
        var options: [ChoiceOption] = []
        for (index, object) in (try reader.objectArray("answers") ?? []).enumerated() {
            var optionReader = JSONObjectReader(object, context: "\(context), option \(index + 1) in “answers”")
            guard let text = try optionReader.localizedText("text") else {
                throw SurveyFormatError("\(optionReader.context): “text” is missing.")
            }
            let value = try optionReader.string("value")
            options.append(ChoiceOption(text, value: value, extraFields: optionReader.unreadFields))
        }
        return options
    }

    private static func parameterFields(of kind: QuestionKind) -> [String: JSONValue] {
        switch kind {
        case .infoTextBox, .date, .time, .dateTime, .yesNo, .location, .photo, .soundLevel:
            return [:]
        case .slider(let scale):
            var fields: [String: JSONValue] = [
                "min": .number(scale.min), "max": .number(scale.max), "step": .number(scale.step),
            ]
            fields["min_label"] = scale.minLabel?.json
            fields["max_label"] = scale.maxLabel?.json
            fields["labels"] = scale.labels.map { .array($0.map(\.json)) }
            return fields
        case .radioButton(let options), .checkbox(let options), .people(let options):
            return ["answers": .array(options.map(optionJSON))]
        case .freeResponse(let fieldType):
            return ["text_field_type": .string(fieldType.rawValue)]
        case .number(let range):
            var fields: [String: JSONValue] = [:]
            fields["min"] = range.min.map(JSONValue.number)
            fields["max"] = range.max.map(JSONValue.number)
            fields["step"] = range.step.map(JSONValue.number)
            return fields
        case .tokens(let list):
            var fields: [String: JSONValue] = [
                "suggested_tokens": .array(list.suggestions.map(JSONValue.string)),
                "allows_free_entry": .bool(list.allowsFreeEntry),
            ]
            fields["max_count"] = list.maxCount.map { .number(Double($0)) }
            return fields
        case .audioRecording(let maxDuration):
            return maxDuration.map { ["max_duration_seconds": .number($0)] } ?? [:]
        }
    }

    private static func optionJSON(_ option: ChoiceOption) -> JSONValue {
        var object = option.extraFields
        object["text"] = option.text.json
        if let value = option.value { object["value"] = .string(value) }
        return .object(object)
    }
}

extension SurveyQuestion: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let object = try container.decode(JSONValue.self).objectValue else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "A question must be a JSON object.")
        }
        let position = decoder.codingPath.last?.intValue ?? 0
        do {
            try self.init(json: object, position: position)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(keptJSONObject))
    }
}
