import Fluent
import Foundation

final class Role: Model, @unchecked Sendable {
    static let schema = "roles"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "description") var description: String
    @Field(key: "built_in") var builtIn: Bool
    @Field(key: "created_at") var createdAt: Date
    @Children(for: \.$role) var permissions: [RolePermission]

    init() {}

    init(name: String, description: String, builtIn: Bool, createdAt: Date) {
        self.name = name
        self.description = description
        self.builtIn = builtIn
        self.createdAt = createdAt
    }
}

final class RolePermission: Model, @unchecked Sendable {
    static let schema = "role_permissions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "role_id") var role: Role
    @Field(key: "permission") var permission: String

    init() {}

    init(roleID: UUID, permission: String) {
        self.$role.id = roleID
        self.permission = permission
    }
}
