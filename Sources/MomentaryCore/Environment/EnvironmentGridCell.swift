import Foundation

/// The cell of a fixed world grid a place falls in, about 11 km × 11 km everywhere: rows are 0.1°
/// of latitude (11.1 km) from the South Pole; each row is cut into as many equal columns as keep
/// them at least 0.1° of longitude *at the row's middle latitude* wide, so cells do not shrink
/// toward the poles as a plain 0.1° × 0.1° grid would (5.6 km wide at 60°). Responses in one cell
/// and hour share one environment reading, fetched for the cell's centre: the provider never
/// learns a participant's exact position, and a study in one city costs one request per hour.
public struct EnvironmentGridCell: Sendable, Hashable, Codable {
    public static let rowHeightDegrees = 0.1
    public static let rowCount = 1_800

    public let row: Int
    public let column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// The cell of a place; nil for a latitude outside −90…90 or a longitude outside −180…180.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        let row = min(Self.rowCount - 1, Int(((latitude + 90) / Self.rowHeightDegrees).rounded(.down)))
        let columns = Self.columnCount(row: row)
        let width = 360 / Double(columns)
        // 180° is −180°: the column wraps to the first.
        let column = Int(((longitude + 180) / width).rounded(.down)) % columns
        self.init(row: row, column: column)
    }

    /// Columns in a row: 3,600 at the equator, fewer toward the poles, at least one.
    public static func columnCount(row: Int) -> Int {
        let middle = -90 + (Double(row) + 0.5) * rowHeightDegrees
        return max(1, Int((3_600 * cos(middle * .pi / 180)).rounded(.down)))
    }

    public var centreLatitude: Double {
        -90 + (Double(row) + 0.5) * Self.rowHeightDegrees
    }

    public var centreLongitude: Double {
        let width = 360 / Double(Self.columnCount(row: row))
        return -180 + (Double(column) + 0.5) * width
    }

    /// The start of the UTC hour an instant falls in.
    public static func hour(of instant: Date) -> Date {
        Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }
}
