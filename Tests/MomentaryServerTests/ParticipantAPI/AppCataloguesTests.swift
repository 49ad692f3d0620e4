import Foundation
@testable import MomentaryServer
import Testing

@Suite("The server's participant texts from the app's catalogues")
struct AppCataloguesTests {
    @Test("plural categories as Intl.PluralRules gives them for whole numbers")
    func plurals() {
        #expect([0, 1, 2, 5].map { PluralCategory.of($0, in: "en") } == [.other, .one, .other, .other])
        #expect([0, 1, 2].map { PluralCategory.of($0, in: "fr-CA") } == [.one, .one, .other])
        #expect([1, 7].map { PluralCategory.of($0, in: "zh-Hans") } == [.other, .other])
        #expect([0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111].map { PluralCategory.of($0, in: "ar") }
            == [.zero, .one, .two, .few, .few, .many, .many, .other, .other, .few, .many])
    }

    @Test("a text in the participant's catalogue, by base language, else English; placeholders and plurals filled")
    func texts() {
        #expect(AppCatalogues.text("status.first_response", language: "de-AT") == "Vielen Dank für Ihre erste Antwort.")
        #expect(AppCatalogues.text("status.first_response", language: "ja") == "Thank you for your first response.")
        #expect(AppCatalogues.text("status.welcome", language: "nl", ["start": "09:00", "end": "21:00"])
            == "Welkom! Uw signalen komen tussen 09:00 en 21:00.")
        #expect(AppCatalogues.text("status.responses", language: "en", count: 12) == "Thank you: 12 responses so far.")
        #expect(AppCatalogues.text("status.responses", language: "ar", count: 3) == "شكرًا: 3 إجابات حتى الآن.")
    }
}
