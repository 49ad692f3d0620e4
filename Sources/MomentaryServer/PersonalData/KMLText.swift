import Foundation

/// KML 2.2 (the format Google Earth opens) for a participant's responses: one placemark per
/// response with a location, named by its local time, its answers in the description, its instant
/// as a time stamp. Written as text pieces so a long history streams.
enum KMLText {
    static func header(name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
        <Document>
        <name>\(HTMLText.escape(name))</name>

        """
    }

    static let footer = "</Document>\n</kml>\n"

    /// The placemark of a response, or nil when it has no location.
    static func placemark(_ item: PersonalRecord) -> String? {
        guard let point = item.coordinates else { return nil }
        var coordinates = "\(point.longitude),\(point.latitude)"
        if let altitude = point.altitude { coordinates += ",\(altitude)" }
        let name = item.record.sequence.map { "#\($0) · " } ?? ""
        return """
            <Placemark>
            <name>\(HTMLText.escape(name + item.localTime))</name>
            <description>\(HTMLText.escape(item.answerLines.joined(separator: "\n")))</description>
            <TimeStamp><when>\(ExportTimestamp.text(item.record.startedAt))</when></TimeStamp>
            <Point><coordinates>\(coordinates)</coordinates></Point>
            </Placemark>

            """
    }
}
