import Foundation

/// Answer of `POST /api/v1/data-download`: the new secret link to the participant's own data and
/// its code in groups of four. Shown once: the server keeps only a hash of the code.
public struct DataDownloadLink: Codable, Sendable, Hashable {
    public var url: String
    public var code: String

    public init(url: String, code: String) {
        self.url = url
        self.code = code
    }
}
