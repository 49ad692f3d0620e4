import Foundation
import Testing
@testable import MomentaryCore

/// Runs Tests/Shared/language-cases.json. The participant app runs the `choose` cases through its
/// own JavaScript (Tests/Browser/test_languages.py): fix the file or both, never one.
@Suite("Shared language cases (the participant app runs the choice cases too)")
struct SharedLanguageCasesTests {
    struct ChoiceCase: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let available: [String]
        let preferences: [String]
        let expect: String
        var testDescription: String { name }
    }

    struct ResolveCase: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let languages: [String]
        let text: JSONValue
        let preferences: [String]
        let expect: String
        var testDescription: String { name }
    }

    struct Cases: Decodable {
        let choose: [ChoiceCase]
        let resolve: [ResolveCase]
    }

    static let cases: Cases = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Shared/language-cases.json")
        return try! JSONDecoder().decode(Cases.self, from: Data(contentsOf: url))
    }()

    @Test("choose", arguments: cases.choose)
    func choose(_ shared: ChoiceCase) {
        #expect(LanguageTag.choose(shared.preferences, among: shared.available) == shared.expect)
    }

    @Test("resolve", arguments: cases.resolve)
    func resolve(_ shared: ResolveCase) throws {
        let text = try #require(LocalizedText(json: shared.text))
        #expect(text.resolved(for: shared.preferences, languages: shared.languages) == shared.expect)
    }
}
