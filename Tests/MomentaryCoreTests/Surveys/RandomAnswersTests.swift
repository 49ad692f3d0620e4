import Foundation
import Testing
@testable import MomentaryCore

@Suite("Random answers")
struct RandomAnswersTests {
    static let surveys: [SurveyDocument] = [
        SurveyFixtures.allKinds, SampleSurveys.registration, SampleSurveys.experienceSampling,
    ]

    @Test("Random answers always pass validation", arguments: surveys)
    func randomAnswersValidate(survey: SurveyDocument) throws {
        for seed in UInt64(1)...300 {
            var generator = SurveyTestGenerator(seed: seed)
            let answers = survey.randomAnswers(using: &generator)
            do {
                _ = try AnswerValidator.validate(answers, against: survey)
            } catch {
                Issue.record("seed \(seed): \(error)")
                return
            }
        }
    }

    @Test("With no skipping, every shown question is answered; hidden ones are left out")
    func noSkipping() throws {
        let survey = SampleSurveys.experienceSampling
        var sawVehicleQuestion = false
        var sawItHidden = false
        for seed in UInt64(1)...100 {
            var generator = SurveyTestGenerator(seed: seed)
            let answers = survey.randomAnswers(using: &generator, skipProbability: 0)
            #expect(answers.allSatisfy { $0.answer != nil })
            let results = try AnswerValidator.validate(answers, against: survey)
            let atHome = results.first { $0.questionID == "where" }?.status == .answered(.string("home"))
            let vehicle = try #require(results.first { $0.questionID == "in_vehicle" })
            #expect((vehicle.status == .notPresented) == atHome)
            if atHome { sawItHidden = true } else { sawVehicleQuestion = true }
        }
        #expect(sawVehicleQuestion && sawItHidden, "the seeds should exercise both branches of the skip logic")
    }

    @Test("Optional questions are sometimes skipped; required ones never")
    func skipping() throws {
        let survey = SampleSurveys.experienceSampling
        var skipped = 0
        for seed in UInt64(1)...100 {
            var generator = SurveyTestGenerator(seed: seed)
            let results = try AnswerValidator.validate(survey.randomAnswers(using: &generator, skipProbability: 0.5), against: survey)
            for result in results where result.status == .noAnswerSelected {
                #expect(survey.question(withID: result.questionID)?.required == false)
                skipped += 1
            }
        }
        #expect(skipped > 0)
    }

    @Test("The same seed gives the same answers")
    func repeatable() {
        var first = SurveyTestGenerator(seed: 42)
        var second = SurveyTestGenerator(seed: 42)
        #expect(SurveyFixtures.allKinds.randomAnswers(using: &first) == SurveyFixtures.allKinds.randomAnswers(using: &second))
    }
}
