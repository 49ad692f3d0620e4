import Foundation
import MomentaryCore
import Testing

@Suite("Atomic files and scratch folders")
struct FileHelperTests {
    private static func permissions(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a scratch folder is new, empty and private to this user; two are never the same")
    func scratchFolders() throws {
        let first = try ScratchFolder.make("helper-test")
        let second = try ScratchFolder.make("helper-test")
        defer { for folder in [first, second] { try? FileManager.default.removeItem(at: folder) } }
        #expect(first != second)
        #expect(first.lastPathComponent.hasPrefix("momentary-helper-test-"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: first.path).isEmpty)
        #expect(try Self.permissions(first) == 0o700)
    }

    @Test("a folder beside a destination is hidden, in the destination's folder, made with that folder if missing")
    func scratchBeside() throws {
        let root = try ScratchFolder.make("helper-test")
        defer { try? FileManager.default.removeItem(at: root) }
        let destination = root.appendingPathComponent("new/out.zip")
        let beside = try ScratchFolder.make(beside: destination)
        #expect(beside.deletingLastPathComponent().standardizedFileURL == destination.deletingLastPathComponent().standardizedFileURL)
        #expect(beside.lastPathComponent.hasPrefix(".out.zip."))
    }

    @Test("a write replaces the file whole, with the permissions asked for, and leaves no temporary file")
    func atomicWrite() throws {
        let root = try ScratchFolder.make("helper-test")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("state.json")
        try AtomicFile.write(Data("old".utf8), to: file)
        try AtomicFile.write(Data("new".utf8), to: file, permissions: 0o640)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try Self.permissions(file) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["state.json"])

        struct Interrupted: Error {}
        #expect(throws: Interrupted.self) {
            try AtomicFile.write(to: file) { handle in
                try handle.write(contentsOf: Data("half".utf8))
                throw Interrupted()
            }
        }
        #expect(try Data(contentsOf: file) == Data("new".utf8), "a failed write leaves the old file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["state.json"])

        let nested = root.appendingPathComponent("a/b/blob")
        #expect(throws: (any Error).self) { try AtomicFile.write(Data("x".utf8), to: nested) }
        try AtomicFile.write(to: nested, creatingFolder: true) { try $0.write(contentsOf: Data("x".utf8)) }
        #expect(try Data(contentsOf: nested) == Data("x".utf8))
    }

    @Test("placing puts what was made at the scratch path over the destination, or leaves nothing when it fails")
    func place() async throws {
        let root = try ScratchFolder.make("helper-test")
        defer { try? FileManager.default.removeItem(at: root) }
        let destination = root.appendingPathComponent("export.csv")
        try Data("old".utf8).write(to: destination)

        struct Interrupted: Error {}
        await #expect(throws: Interrupted.self) {
            try await AtomicFile.place(at: destination) { scratch in
                try Data("half".utf8).write(to: scratch)
                throw Interrupted()
            }
        }
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["export.csv"])

        let rows = try await AtomicFile.place(at: destination) { scratch in
            try Data("a,b\n".utf8).write(to: scratch)
            return 1
        }
        #expect(rows == 1)
        #expect(try Data(contentsOf: destination) == Data("a,b\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["export.csv"])
    }
}
