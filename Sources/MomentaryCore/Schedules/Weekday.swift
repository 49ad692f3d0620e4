/// A day of the week, written as its three-letter English abbreviation in schedule documents.
public enum Weekday: String, CaseIterable, Codable, Sendable, Hashable {
    case mon, tue, wed, thu, fri, sat, sun
}
