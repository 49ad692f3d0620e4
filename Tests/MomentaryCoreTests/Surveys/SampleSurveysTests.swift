import Foundation
import Testing
@testable import MomentaryCore

@Suite("Sample surveys")
struct SampleSurveysTests {
    @Test("Sample surveys have no problems and round-trip through JSON", arguments: [
        SampleSurveys.registration, SampleSurveys.experienceSampling,
    ])
    func clean(survey: SurveyDocument) throws {
        #expect(survey.problems().isEmpty)
        #expect(try SurveyDocument(jsonData: survey.jsonData()) == survey)
    }

    @Test("The experience-sampling survey asks about feelings first, on 0–100 sliders")
    func feelingsFirst() {
        let content = SampleSurveys.experienceSampling.content
        #expect(content.prefix(3).map(\.id) == ["happy", "relaxed", "awake"])
        for question in content.prefix(3) {
            #expect(question.kind == .slider(SliderScale(min: 0, max: 100, step: 1, minLabel: "Not at all", maxLabel: "Extremely")))
        }
        #expect(content.contains { $0.displayIf != nil }, "the demo should exercise skip logic")
        #expect(content.last?.required == false)
    }

    @Test("Asking about a vehicle only away from home")
    func vehicleQuestionLogic() throws {
        let survey = SampleSurveys.experienceSampling
        let vehicle = try #require(survey.question(withID: "in_vehicle"))
        #expect(!survey.isDisplayed(vehicle, given: ["where": .string("home")]))
        #expect(survey.isDisplayed(vehicle, given: ["where": .string("work")]))
        #expect(survey.isDisplayed(vehicle, given: ["where": .string("elsewhere")]))
        #expect(!survey.isDisplayed(vehicle, given: [:]))
    }
}
