import Foundation
import Testing
@testable import MomentaryCore

/// Runs Tests/Shared/hours-policy-cases.json through `StudySignallingRules.participantSettings(for:)`.
/// The web app's settings screen is to run the same file, so that the hours it offers and the
/// hours the server accepts cannot drift apart: fix the file or both implementations, never one.
@Suite("Shared hours-policy cases (the web app's settings screen is to run them too)")
struct SharedHoursPolicyCasesTests {
    struct Refusal: Decodable, Hashable, Sendable, CustomStringConvertible {
        let field: String?
        let reason: String
        var description: String { "\(field ?? "null"): \(reason)" }
    }

    /// Exactly one of the two.
    struct Expectation: Decodable, Sendable {
        let settings: SignallingSettings?
        let refused: Refusal?
    }

    struct SharedCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// The study's fields after the case's replacements, as a study document has them.
        let study: JSONValue
        let request: SignallingSettingsRequest
        let expect: Expectation
        var testDescription: String { name }
    }

    struct FileError: Error, CustomStringConvertible {
        let description: String
    }

    static let casesURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Schedules
        .deletingLastPathComponent()  // MomentaryCoreTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Shared/hours-policy-cases.json")

    static func loadCases() throws -> [SharedCase] {
        let file = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: casesURL))
        guard let base = file.objectValue?["study"]?.objectValue, let cases = file.objectValue?["cases"]?.arrayValue else {
            throw FileError(description: "\(casesURL.path) needs a “study” object and a “cases” list")
        }
        return try cases.enumerated().map { index, item in
            guard let object = item.objectValue, let name = object["name"]?.stringValue,
                  let changes = object["study"]?.objectValue, let request = object["request"], let expect = object["expect"]
            else { throw FileError(description: "case \(index + 1) needs name, study, request and expect") }
            var study = base
            for (field, value) in changes {
                study[field] = value == .null ? nil : value
            }
            // The request goes through the decoder the API is to use (hours may be left out).
            return SharedCase(name: name, study: .object(study),
                              request: try decode(SignallingSettingsRequest.self, request),
                              expect: try decode(Expectation.self, expect))
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(value))
    }

    /// Empty when the file cannot be read; `fileReads` then fails with the reason.
    static let cases: [SharedCase] = (try? loadCases()) ?? []

    @Test("The shared file reads, with uniquely named cases covering every policy and refusal")
    func fileReads() throws {
        let cases = try Self.loadCases()
        #expect(cases.count >= 40)
        #expect(Set(cases.map(\.name)).count == cases.count, "case names are unique")
        let reasons = Set(cases.compactMap { $0.expect.refused?.reason })
        #expect(reasons == Set(ParticipantSettingsProblem.Reason.allCases.map(\.rawValue)))
        let policies = Set(cases.compactMap { $0.study.objectValue?["hours_policy"]?.stringValue })
        #expect(policies == Set(HoursPolicy.allCases.map(\.rawValue)))
    }

    @Test("Shared case", arguments: cases)
    func sharedCase(_ shared: SharedCase) throws {
        // The study is read as the documentation's examples are, and must be one a researcher could save.
        let unknown = Set(shared.study.objectValue?.keys ?? [:].keys).subtracting(DocumentationExamplesTests.studyDocumentFields)
        #expect(unknown.isEmpty, "“\(shared.name)”: not fields of a study document: \(unknown.sorted())")
        let rules = try Self.decode(DocumentationExamplesTests.SignallingExcerpt.self, shared.study).rules
        #expect(rules.problems().isEmpty, "the study of “\(shared.name)” has problems: \(rules.problems())")
        #expect((shared.expect.settings == nil) != (shared.expect.refused == nil), "expect settings or refused, not both")
        do throws(ParticipantSettingsProblem) {
            let settings = try rules.participantSettings(for: shared.request)
            #expect(settings == shared.expect.settings, "“\(shared.name)”: Swift accepts \(settings)")
        } catch {
            let refusal = Refusal(field: error.field, reason: error.reason.rawValue)
            #expect(refusal == shared.expect.refused, "“\(shared.name)”: Swift refuses: \(error.message)")
        }
    }
}
