import Foundation
import MomentaryCore

/// KML 2.2 (the format Google Earth opens) for responses: one placemark per response with a
/// location, named by who and when, its answers in the description, its instant as a time stamp
/// and its `response_id` as extended data (to join the map with the other exports). Written as
/// text pieces so a long history streams.
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

    /// The placemark of a response, named `name`, or nil when it has no location.
    static func placemark(_ item: ResponseInWords, name: String) -> String? {
        guard let point = item.coordinates else { return nil }
        var coordinates = "\(point.longitude),\(point.latitude)"
        if let altitude = point.altitude { coordinates += ",\(altitude)" }
        return """
            <Placemark>
            <name>\(HTMLText.escape(name))</name>
            <description>\(HTMLText.escape(item.answerLines.joined(separator: "\n")))</description>
            <TimeStamp><when>\(ExportTimestamp.text(item.record.startedAt))</when></TimeStamp>
            <ExtendedData><Data name="response_id"><value>\(item.record.responseID.uuidString.lowercased())</value></Data></ExtendedData>
            <Point><coordinates>\(coordinates)</coordinates></Point>
            </Placemark>

            """
    }
}
