import Foundation

/// The header that opens an `aes128gcm` body (RFC 8188 §2.1): salt, record size and key id.
struct AES128GCMHeader {
    let salt: Data
    let recordSize: Int
    let keyID: Data
    /// Bytes the header occupies at the start of the body.
    let length: Int

    init(parsing body: Data) throws(WebPushEncryptionError) {
        let bytes = [UInt8](body.prefix(WebPushEncryption.saltLength + 5))
        guard bytes.count == WebPushEncryption.saltLength + 5 else {
            throw .malformedBody(reason: "it is \(body.count) bytes, too short for the 21-byte header start")
        }
        salt = Data(bytes[0..<16])
        recordSize = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        // RFC 8188 §2: a record must hold at least the delimiter and the tag.
        guard recordSize >= 18 else {
            throw .malformedBody(reason: "the record size \(recordSize) is below the minimum of 18")
        }
        let keyIDLength = Int(bytes[20])
        length = 21 + keyIDLength
        guard body.count >= length else {
            throw .malformedBody(reason: "it ends inside the \(keyIDLength)-byte key id")
        }
        keyID = Data(body.dropFirst(21).prefix(keyIDLength))
    }
}
