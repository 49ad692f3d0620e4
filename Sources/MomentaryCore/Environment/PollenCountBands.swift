import Foundation

/// Pollen risk from a measured or modelled count (grains per m³ of air), per pollen type. Providers
/// such as Open-Meteo report counts, not the Low/Medium/High words ClimaFever read from Ambee, so
/// the words come from these tables. The edges follow the categories pollen forecasters publish
/// (AccuWeather's low/moderate/high lower edges): tree pollen needs far more grains than grass or
/// weed pollen before most sufferers notice it. A count at or above an edge is in the higher band.
public enum PollenCountBands {
    /// Where a pollen type's medium and high bands begin, in grains/m³.
    public struct Edges: Sendable, Hashable {
        public let medium: Double
        public let high: Double
    }

    public static let edges: [PollenType: Edges] = [
        .tree: Edges(medium: 15, high: 90),
        .grass: Edges(medium: 5, high: 20),
        .weed: Edges(medium: 10, high: 50),
    ]

    /// The risk of `grains` per m³ of `type` pollen; nil for a negative count or one that is not a number.
    public static func risk(_ type: PollenType, grains: Double) -> PollenRisk? {
        guard grains.isFinite, grains >= 0, let edges = edges[type] else { return nil }
        if grains >= edges.high { return .high }
        if grains >= edges.medium { return .medium }
        return .low
    }
}

/// Pollen counts for one place and hour, grains/m³ per type (nil where the provider has none, as
/// outside Europe for Open-Meteo), with the risk of each from `PollenCountBands`.
public struct PollenCounts: Sendable, Hashable, Codable {
    public var tree: Double?
    public var grass: Double?
    public var weed: Double?

    public init(tree: Double? = nil, grass: Double? = nil, weed: Double? = nil) {
        self.tree = tree
        self.grass = grass
        self.weed = weed
    }

    public var isEmpty: Bool { tree == nil && grass == nil && weed == nil }

    /// The risk words for the counts present, for `PollenReading.risk(for:)`.
    public var risks: PollenReading {
        func risk(_ type: PollenType, _ grains: Double?) -> PollenRisk? {
            grains.flatMap { PollenCountBands.risk(type, grains: $0) }
        }
        return PollenReading(tree: risk(.tree, tree), grass: risk(.grass, grass), weed: risk(.weed, weed))
    }

    enum CodingKeys: String, CodingKey {
        case tree = "tree_grains_m3", grass = "grass_grains_m3", weed = "weed_grains_m3"
        case treeRisk = "tree_risk", grassRisk = "grass_risk", weedRisk = "weed_risk"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tree = try container.decodeIfPresent(Double.self, forKey: .tree)
        grass = try container.decodeIfPresent(Double.self, forKey: .grass)
        weed = try container.decodeIfPresent(Double.self, forKey: .weed)
    }

    /// The counts and, beside them, their risk words, so a researcher reading the export sees both.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let risks = self.risks
        try container.encode(tree, forKey: .tree)
        try container.encode(grass, forKey: .grass)
        try container.encode(weed, forKey: .weed)
        try container.encode(risks.risk(for: .tree), forKey: .treeRisk)
        try container.encode(risks.risk(for: .grass), forKey: .grassRisk)
        try container.encode(risks.risk(for: .weed), forKey: .weedRisk)
    }
}
