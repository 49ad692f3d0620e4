import Foundation

/// The fixed parts of an Office Open XML workbook (ECMA-376): content types, relationships, the
/// workbook with its sheet list, and a small style sheet (a date format and a bold header).
enum XLSXPackage {
    private static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    private static let mainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    private static let relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    private static let packageRelationshipNamespace = "http://schemas.openxmlformats.org/package/2006/relationships"

    static func worksheetPath(_ number: Int) -> String { "xl/worksheets/sheet\(number).xml" }

    /// Everything before the header row; the header row stays frozen when scrolling.
    static let worksheetStart = declaration
        + "<worksheet xmlns=\"\(mainNamespace)\" xmlns:r=\"\(relationshipNamespace)\">"
        + "<sheetViews><sheetView workbookViewId=\"0\">"
        + "<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"
        + "</sheetView></sheetViews><sheetData>"

    static let worksheetEnd = "</sheetData></worksheet>"

    static func contentTypes(sheetCount: Int) -> String {
        var xml = declaration + "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
        xml += "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
        xml += "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
        xml += "<Override PartName=\"/xl/workbook.xml\" "
            + "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
        for number in 1...max(1, sheetCount) {
            xml += "<Override PartName=\"/\(worksheetPath(number))\" "
                + "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
        }
        xml += "<Override PartName=\"/xl/styles.xml\" "
            + "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
        return xml + "</Types>"
    }

    static let rootRelationships = declaration
        + "<Relationships xmlns=\"\(packageRelationshipNamespace)\">"
        + "<Relationship Id=\"rId1\" Type=\"\(relationshipNamespace)/officeDocument\" Target=\"xl/workbook.xml\"/>"
        + "</Relationships>"

    static func workbook(sheetNames: [String]) -> String {
        var xml = declaration + "<workbook xmlns=\"\(mainNamespace)\" xmlns:r=\"\(relationshipNamespace)\"><sheets>"
        for (index, name) in sheetNames.enumerated() {
            xml += "<sheet name=\"\(XLSXCellXML.escaped(name))\" sheetId=\"\(index + 1)\" r:id=\"rId\(index + 1)\"/>"
        }
        return xml + "</sheets></workbook>"
    }

    static func workbookRelationships(sheetCount: Int) -> String {
        var xml = declaration + "<Relationships xmlns=\"\(packageRelationshipNamespace)\">"
        for number in 1...max(1, sheetCount) {
            xml += "<Relationship Id=\"rId\(number)\" Type=\"\(relationshipNamespace)/worksheet\" "
                + "Target=\"worksheets/sheet\(number).xml\"/>"
        }
        xml += "<Relationship Id=\"rId\(sheetCount + 1)\" Type=\"\(relationshipNamespace)/styles\" Target=\"styles.xml\"/>"
        return xml + "</Relationships>"
    }

    /// Style 0: default; 1: date and time (`XLSXCellXML.dateStyle`); 2: bold header (`headerStyle`).
    static let styles = declaration
        + "<styleSheet xmlns=\"\(mainNamespace)\">"
        + "<numFmts count=\"1\"><numFmt numFmtId=\"164\" formatCode=\"yyyy-mm-dd hh:mm:ss\"/></numFmts>"
        + "<fonts count=\"2\"><font><sz val=\"11\"/><name val=\"Calibri\"/></font>"
        + "<font><b/><sz val=\"11\"/><name val=\"Calibri\"/></font></fonts>"
        + "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill>"
        + "<fill><patternFill patternType=\"gray125\"/></fill></fills>"
        + "<borders count=\"1\"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"
        + "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>"
        + "<cellXfs count=\"3\">"
        + "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
        + "<xf numFmtId=\"164\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyNumberFormat=\"1\"/>"
        + "<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyFont=\"1\"/>"
        + "</cellXfs>"
        + "<cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>"
        + "</styleSheet>"
}
