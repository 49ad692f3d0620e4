import Fluent
import Foundation

/// The `arm` column of every table with a participant column, right after `participant_label`:
/// each participant's arm now. Only a study with arms has it, so the files of studies without
/// arms stay byte for byte as analysts' scripts read them.
struct ArmColumn: Sendable {
    static let name = "arm"
    let armByParticipant: [UUID: String]

    /// The column for a study, nil when it has no arms.
    static func load(of study: Study, on db: any Database) async throws -> ArmColumn? {
        guard study.arms != nil else { return nil }
        let participants = try await Participant.query(on: db).filter(\.$study.$id == study.requireID()).all()
        return ArmColumn(armByParticipant: Dictionary(uniqueKeysWithValues: participants.compactMap { row in
            row.id.map { ($0, row.arm ?? "") }
        }))
    }

    /// Where the column goes in a table of this header.
    static func position(in header: [String]) -> Int {
        (header.firstIndex(of: "participant_label") ?? header.firstIndex(of: "participant_id") ?? 0) + 1
    }

    func header(_ header: [String]) -> [String] {
        var header = header
        header.insert(Self.name, at: Self.position(in: header))
        return header
    }

    /// A row's cells with the participant's arm inserted where `header` puts the column.
    func cells(_ cells: [ExportCell], participantID: UUID, header: [String]) -> [ExportCell] {
        var cells = cells
        cells.insert(ExportCell(armByParticipant[participantID]), at: min(Self.position(in: header), cells.count))
        return cells
    }
}

extension Optional where Wrapped == ArmColumn {
    /// The header, with the column when the study has arms.
    func header(_ header: [String]) -> [String] { self?.header(header) ?? header }

    func cells(_ cells: [ExportCell], participantID: UUID, header: [String]) -> [ExportCell] {
        self?.cells(cells, participantID: participantID, header: header) ?? cells
    }
}
