/// One option of a `<select>` or a group of radio buttons on a website page.
struct SelectChoice: Encodable {
    let value: String
    let label: String
    let selected: Bool

    /// A status filter: "All", then each status by its capitalised name.
    static func statusFilter<Status: RawRepresentable>(_ statuses: [Status], selected: Status?) -> [SelectChoice]
    where Status.RawValue == String {
        [SelectChoice(value: "all", label: "All", selected: selected == nil)] + statuses.map { status in
            SelectChoice(value: status.rawValue, label: status.rawValue.capitalized, selected: status.rawValue == selected?.rawValue)
        }
    }
}
