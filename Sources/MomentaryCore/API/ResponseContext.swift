import Foundation

/// What the phone sensed when the response was given. Every part is optional: a participant may
/// refuse location, a device may have no step counter.
public struct ResponseContext: Codable, Sendable, Hashable {
    public var location: LocationFix?
    public var sound: SoundLevel?
    /// Battery charge, 0…1 (as Reporter records it).
    public var battery: Double?
    public var connection: ConnectionKind?
    /// Steps since the previous response.
    public var steps: Int?
    /// What made the participant respond.
    public var impetus: ReportImpetus?

    public init(location: LocationFix? = nil, sound: SoundLevel? = nil, battery: Double? = nil,
                connection: ConnectionKind? = nil, steps: Int? = nil, impetus: ReportImpetus? = nil) {
        self.location = location
        self.sound = sound
        self.battery = battery
        self.connection = connection
        self.steps = steps
        self.impetus = impetus
    }

    public func validate() throws(APIValidationError) {
        try location?.validate()
        try sound?.validate()
        if let battery, !(0...1).contains(battery) {
            throw APIValidationError(field: "context.battery", message: "context.battery must be a fraction from 0 to 1.")
        }
        if let steps, steps < 0 {
            throw APIValidationError(field: "context.steps", message: "context.steps must not be negative.")
        }
    }
}

/// A GPS fix, in the units Core Location reports (degrees, metres).
public struct LocationFix: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    /// When the fix was taken (may be well before the response).
    public var timestamp: Date

    public init(latitude: Double, longitude: Double, altitude: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, timestamp: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }

    enum CodingKeys: String, CodingKey {
        case latitude, longitude, altitude
        case horizontalAccuracy = "horizontal_accuracy"
        case verticalAccuracy = "vertical_accuracy"
        case timestamp
    }

    public func validate() throws(APIValidationError) {
        guard (-90...90).contains(latitude) else {
            throw APIValidationError(field: "context.location.latitude", message: "Latitude must be between -90 and 90 degrees.")
        }
        guard (-180...180).contains(longitude) else {
            throw APIValidationError(field: "context.location.longitude", message: "Longitude must be between -180 and 180 degrees.")
        }
        if let altitude, !altitude.isFinite {
            throw APIValidationError(field: "context.location.altitude", message: "Altitude must be a finite number of metres.")
        }
        for (name, accuracy) in [("horizontal_accuracy", horizontalAccuracy), ("vertical_accuracy", verticalAccuracy)] {
            if let accuracy, !(accuracy.isFinite && accuracy >= 0) {
                throw APIValidationError(field: "context.location.\(name)", message: "context.location.\(name) must be zero or more metres.")
            }
        }
    }
}

/// Sound level over the response, in dB as the microphone meter reports it.
public struct SoundLevel: Codable, Sendable, Hashable {
    public var averageDB: Double
    public var peakDB: Double

    public init(averageDB: Double, peakDB: Double) {
        self.averageDB = averageDB
        self.peakDB = peakDB
    }

    enum CodingKeys: String, CodingKey {
        case averageDB = "average_db"
        case peakDB = "peak_db"
    }

    public func validate() throws(APIValidationError) {
        guard averageDB.isFinite, peakDB.isFinite, (-200...200).contains(averageDB), (-200...200).contains(peakDB) else {
            throw APIValidationError(field: "context.sound", message: "Sound levels must be finite dB values between -200 and 200.")
        }
        guard peakDB >= averageDB else {
            throw APIValidationError(field: "context.sound.peak_db", message: "The peak sound level must not be below the average.")
        }
    }
}

public enum ConnectionKind: String, Codable, Sendable, Hashable, CaseIterable {
    case wifi
    case cellular
    case none
}

/// What triggered the response (Reporter's `reportImpetus`).
public enum ReportImpetus: String, Codable, Sendable, Hashable, CaseIterable {
    /// The participant opened the survey by themselves.
    case button
    /// The survey button was tapped while the app was asleep (in the background).
    case buttonWhileAsleep = "button_while_asleep"
    /// The participant tapped a beep's notification.
    case notification
    /// A report triggered by the app going to sleep.
    case sleep
    /// A report triggered by the app waking up.
    case wake

    /// Reporter's numeric code (0–4), for the Reporter-format export.
    public var reporterCode: Int {
        switch self {
        case .button: 0
        case .buttonWhileAsleep: 1
        case .notification: 2
        case .sleep: 3
        case .wake: 4
        }
    }
}
