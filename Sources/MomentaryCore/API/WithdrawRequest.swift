/// Optional body of `POST /api/v1/withdraw`; an empty body means `delete_data: false`.
public struct WithdrawRequest: Codable, Sendable, Hashable {
    /// Ask for the participant's data to be deleted (honoured where the study allows it).
    public var deleteData: Bool

    public init(deleteData: Bool = false) {
        self.deleteData = deleteData
    }

    enum CodingKeys: String, CodingKey {
        case deleteData = "delete_data"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deleteData = try container.decodeOmittable(Bool.self, forKey: .deleteData) ?? false
    }
}
