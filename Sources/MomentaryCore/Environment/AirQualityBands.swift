import Foundation

/// Air-quality risk from an index value (ClimaFever's tables): the Indian National Air
/// Quality Index band the value falls in, and the US EPA category of the same rank with its advice.
/// The tables are data, not branches, so each band edge is one row to check.
public enum AirQualityBands {
    /// A band of the National Air Quality Index (India's CPCB), 0–500.
    public struct NAQIBand: Sendable, Hashable {
        public let upperBound: Double
        public let remark: String
        public let healthRisk: String
        /// The EPA category shown with this band (ClimaFever's mapping, rank for rank).
        public let epa: EPACategory
    }

    /// A category of the US EPA Air Quality Index with who should take care and what to do
    /// (advice in our words, after EPA's guide for particle pollution).
    public struct EPACategory: Sendable, Hashable {
        public let name: String
        public let range: ClosedRange<Int>
        public let concerned: String
        public let advice: String
    }

    public static let epaGood = EPACategory(
        name: "Good", range: 0...50, concerned: "No one.", advice: "A fine day to be active outdoors.")
    public static let epaModerate = EPACategory(
        name: "Moderate", range: 51...100, concerned: "People unusually sensitive to particle pollution.",
        advice: "If you are unusually sensitive, consider shorter or lighter exertion outdoors and watch for coughing or breathlessness; for everyone else it is a good day to be active outside.")
    public static let epaSensitiveGroups = EPACategory(
        name: "Unhealthy for Sensitive Groups", range: 101...150,
        concerned: "People with heart or lung disease, older adults, children and teenagers.",
        advice: "If you are in a sensitive group, cut down long or hard exertion outdoors, take more breaks and watch for symptoms; people with asthma should follow their action plan and keep reliever medicine at hand.")
    public static let epaUnhealthy = EPACategory(
        name: "Unhealthy", range: 151...200, concerned: "Everyone.",
        advice: "Sensitive groups should avoid long or hard exertion outdoors and think about moving activities indoors; everyone else should cut it down and take more breaks.")
    public static let epaVeryUnhealthy = EPACategory(
        name: "Very Unhealthy", range: 201...300, concerned: "Everyone.",
        advice: "Sensitive groups should avoid physical activity outdoors altogether; everyone else should avoid long or hard exertion outdoors and consider moving activities indoors or to a cleaner time.")
    public static let epaHazardous = EPACategory(
        name: "Hazardous", range: 301...500, concerned: "Everyone.",
        advice: "Everyone should avoid physical activity outdoors; sensitive groups should stay indoors, keep activity low and keep indoor particle levels down.")

    /// The NAQI bands in order, each up to and including its upper bound.
    public static let naqi: [NAQIBand] = [
        NAQIBand(upperBound: 50, remark: "Good", healthRisk: "None", epa: epaGood),
        NAQIBand(upperBound: 100, remark: "Satisfactory", healthRisk: "Low", epa: epaModerate),
        NAQIBand(upperBound: 200, remark: "Moderate", healthRisk: "Moderate", epa: epaSensitiveGroups),
        NAQIBand(upperBound: 300, remark: "Poor", healthRisk: "High", epa: epaUnhealthy),
        NAQIBand(upperBound: 400, remark: "Very Poor", healthRisk: "Very High", epa: epaVeryUnhealthy),
        NAQIBand(upperBound: 500, remark: "Severe", healthRisk: "Hazardous", epa: epaHazardous),
    ]

    /// The band of an NAQI value: the first whose upper bound it does not exceed (so 50 is Good and
    /// 50.5 Satisfactory); values above 500 are Severe, the scale's top. Nil for a negative value
    /// or one that is not a number.
    public static func band(naqi value: Double) -> NAQIBand? {
        guard value.isFinite, value >= 0 else { return nil }
        return naqi.first { value <= $0.upperBound } ?? naqi.last
    }
}

/// Pollen risk as providers report it per pollen type, and the one risk a participant is shown:
/// that of the type they say they are most sensitive to, grass unless they chose otherwise (most
/// people with hay fever react to grass pollen).
public enum PollenRisk: String, Sendable, Hashable, Codable, CaseIterable {
    case low, medium, high

    /// Reads a provider's word ("Low", "Medium", "High", any case); nil for anything else.
    public init?(word: String) {
        self.init(rawValue: word.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

public enum PollenType: String, Sendable, Hashable, Codable, CaseIterable {
    case tree, grass, weed

    public static let defaultSensitivity = PollenType.grass
}

public struct PollenReading: Sendable, Hashable, Codable {
    public var risks: [PollenType: PollenRisk]

    public init(tree: PollenRisk? = nil, grass: PollenRisk? = nil, weed: PollenRisk? = nil) {
        var risks: [PollenType: PollenRisk] = [:]
        risks[.tree] = tree
        risks[.grass] = grass
        risks[.weed] = weed
        self.risks = risks
    }

    /// The risk shown to a participant sensitive to `sensitivity` (grass when they have not said);
    /// nil when the provider gave none for that type.
    public func risk(for sensitivity: PollenType? = nil) -> PollenRisk? {
        risks[sensitivity ?? PollenType.defaultSensitivity]
    }
}
