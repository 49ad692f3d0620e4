import Crypto
import Foundation

/// The secret that encrypts backups, read from the file `MOMENTARY_BACKUP_KEY_FILE` names: 32
/// random bytes, or the same written as 64 hexadecimal digits.
struct BackupKey: Sendable {
    static let variable = "MOMENTARY_BACKUP_KEY_FILE"
    static let howToMake = "make one with: head -c 32 /dev/urandom > backup.key && chmod 600 backup.key"

    let key: SymmetricKey

    init(_ key: SymmetricKey) {
        self.key = key
    }

    /// The environment the commands read the key's file name from instead of the process's, for
    /// one task: in-process runs (the tests) must never change the process's environment, which
    /// other threads read (`setenv` beside `Process.run` crashed a whole test run).
    @TaskLocal static var environmentOverride: [String: String]?

    /// The key in the file the environment names; one sentence when it is missing or unusable.
    static func load(environment: [String: String]? = nil) throws -> BackupKey {
        let environment = environment ?? environmentOverride ?? ProcessInfo.processInfo.environment
        guard let path = environment[variable].nonEmpty else {
            throw CommandFailure("Backups are encrypted: set \(variable) to a key file (\(howToMake)).")
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("The backup key file \(path) cannot be read.")
        }
        if contents.count == 32 {
            return BackupKey(SymmetricKey(data: contents))
        }
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64, let bytes = Self.bytes(fromHex: text) else {
            throw CommandFailure("The backup key file \(path) must hold 32 random bytes or 64 hexadecimal digits (\(howToMake)).")
        }
        return BackupKey(SymmetricKey(data: bytes))
    }

    /// The backup's name for a file whose contents hash to `sha256`. Keyed, so the names in a
    /// backup cannot be checked against a known photo's hash by someone without the key.
    func objectName(forSHA256 sha256: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(sha256.utf8), using: key)
        return BlobStore.hex(code)
    }

    private static func bytes(fromHex text: String) -> Data? {
        var bytes = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
