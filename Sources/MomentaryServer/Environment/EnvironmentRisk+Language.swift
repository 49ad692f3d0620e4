import Foundation
import MomentaryCore

/// The air-quality words of a participant's status (`AirQualityBands`' EPA categories) in their
/// language, from the app's catalogues; MomentaryCore holds the English, which en.json repeats
/// word for word (a test compares them).
extension EnvironmentRisk {
    /// Catalogue keys of each EPA category's name, who should take care, and the advice.
    static let airQualityKeys: [String: (name: String, concerned: String, advice: String)] = [
        AirQualityBands.epaGood.name: ("air.good.name", "air.good.concerned", "air.good.advice"),
        AirQualityBands.epaModerate.name: ("air.moderate.name", "air.moderate.concerned", "air.moderate.advice"),
        AirQualityBands.epaSensitiveGroups.name: ("air.sensitive.name", "air.sensitive.concerned", "air.sensitive.advice"),
        AirQualityBands.epaUnhealthy.name: ("air.unhealthy.name", "air.unhealthy.concerned", "air.unhealthy.advice"),
        AirQualityBands.epaVeryUnhealthy.name: ("air.very_unhealthy.name", "air.very_unhealthy.concerned", "air.very_unhealthy.advice"),
        AirQualityBands.epaHazardous.name: ("air.hazardous.name", "air.hazardous.concerned", "air.hazardous.advice"),
    ]

    /// The same risk with its air-quality words in `language`.
    func inLanguage(_ language: String?) -> EnvironmentRisk {
        guard let category = airQuality, let keys = Self.airQualityKeys[category] else { return self }
        var localized = self
        localized.airQuality = AppCatalogues.text(keys.name, language: language)
        localized.airQualityConcerned = AppCatalogues.text(keys.concerned, language: language)
        localized.airQualityAdvice = AppCatalogues.text(keys.advice, language: language)
        return localized
    }
}
