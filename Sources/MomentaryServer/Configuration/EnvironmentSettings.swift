import Foundation

/// Where `serve` gets weather, air quality and pollen for responses with a location, read from
/// `MOMENTARY_ENVIRONMENT_*` and `MOMENTARY_OPEN_METEO_*` (see the README's configuration table).
/// Off unless chosen: sending places (even coarse ones) to a third party is the operator's call,
/// and usually the ethics board's.
public struct EnvironmentSettings: Sendable, Equatable {
    public enum ProviderChoice: String, Sendable, CaseIterable {
        case none, openMeteo = "open-meteo", fixture
    }

    /// `MOMENTARY_ENVIRONMENT_PROVIDER`: `none` (default; `serve --demo` then uses `fixture`),
    /// `open-meteo` or `fixture` (made-up values, for trials).
    public var provider: ProviderChoice = .none
    /// Whether the provider was named, rather than left to the default.
    public var providerChosen = false
    public var openMeteo = OpenMeteoSettings()
    /// `MOMENTARY_ENVIRONMENT_SECONDS`: how often `serve` looks for responses to fill.
    public var intervalSeconds = 60

    public init() {}

    static func load(from environment: [String: String]) throws(ConfigurationError) -> EnvironmentSettings {
        var settings = EnvironmentSettings()
        if let text = environment["MOMENTARY_ENVIRONMENT_PROVIDER"].nonEmpty {
            guard let choice = ProviderChoice(rawValue: text) else {
                throw .invalidValue(variable: "MOMENTARY_ENVIRONMENT_PROVIDER", value: text, expected: "none, open-meteo or fixture")
            }
            settings.provider = choice
            settings.providerChosen = true
        }
        settings.openMeteo.forecastURL = try url("MOMENTARY_OPEN_METEO_FORECAST_URL", environment) ?? settings.openMeteo.forecastURL
        settings.openMeteo.airQualityURL = try url("MOMENTARY_OPEN_METEO_AIR_QUALITY_URL", environment) ?? settings.openMeteo.airQualityURL
        settings.openMeteo.apiKey = environment["MOMENTARY_OPEN_METEO_API_KEY"].nonEmpty
        settings.openMeteo.timeoutSeconds = try number("MOMENTARY_ENVIRONMENT_TIMEOUT_SECONDS", environment, 1...120) ?? settings.openMeteo.timeoutSeconds
        settings.intervalSeconds = try number("MOMENTARY_ENVIRONMENT_SECONDS", environment, 5...86_400) ?? settings.intervalSeconds
        return settings
    }

    private static func url(_ variable: String, _ environment: [String: String]) throws(ConfigurationError) -> URL? {
        guard let text = environment[variable].nonEmpty else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else {
            throw .invalidValue(variable: variable, value: text, expected: "an http:// or https:// URL with a host")
        }
        return url
    }

    private static func number(_ variable: String, _ environment: [String: String], _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let text = environment[variable].nonEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(variable: variable, value: text, expected: "a whole number of seconds from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

/// Open-Meteo's endpoints (the free servers by default; customer servers with a key) and how long
/// to wait for each answer.
public struct OpenMeteoSettings: Sendable, Equatable {
    public var forecastURL = URL(string: "https://api.open-meteo.com/v1/forecast")!
    public var airQualityURL = URL(string: "https://air-quality-api.open-meteo.com/v1/air-quality")!
    public var apiKey: String?
    /// `MOMENTARY_ENVIRONMENT_TIMEOUT_SECONDS`: one request, connection included.
    public var timeoutSeconds = 10

    public init() {}
}
